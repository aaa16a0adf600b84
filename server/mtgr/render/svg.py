"""The board as one standalone SVG picture (for slides and articles): cards as frames with
their names, tapped cards turned, hidden cards as backs; light and dark by the viewer's
colour scheme, no fonts or images from elsewhere."""

from __future__ import annotations

import textwrap
from html import escape

from mtgr.render.board import Board, CardView, PlayerView

WIDTH = 960
MARGIN = 16
LABEL = 124  # where cards start, right of the row labels
CARD_W, CARD_H = 70, 98
GAP = 8

STYLE = """
svg { --bg: #f4f1ea; --fg: #1f1d1a; --muted: #6b665c; --zone: #e8e3d6; --card: #fffdf8;
  --edge: #8d7b58; --back: #6b3f1f; --accent: #1f5fbf; --error: #c62828;
  --warning: #a86200; --information: #1565c0; --hint: #5f6b7a; }
@media (prefers-color-scheme: dark) {
  svg { --bg: #1c1b19; --fg: #ece8df; --muted: #a39d90; --zone: #2a2825; --card: #34312c;
    --edge: #b09a6c; --back: #5a3518; --accent: #7fb0ff; --error: #ff6b6b;
    --warning: #f0a030; --information: #6fb3ff; --hint: #a0aab8; }
}
text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: var(--fg); }
.bg { fill: var(--bg); }
.panel { fill: var(--zone); }
.stack-panel { fill: none; stroke: var(--edge); stroke-dasharray: 4 3; }
.frame { fill: var(--card); stroke: var(--edge); stroke-width: 1.5; }
.token .frame { stroke-dasharray: 4 2; }
.back .frame { fill: var(--back); }
.back .num { fill: #f3e6d0; }
.num { font-size: 9px; fill: var(--muted); font-family: ui-monospace, Menlo, monospace; }
.name { font-size: 9.5px; font-weight: 600; }
.badge { font-size: 8.5px; fill: var(--accent); }
.label { font-size: 10px; font-weight: 600; fill: var(--muted); letter-spacing: .04em; }
.muted { fill: var(--muted); font-size: 11px; }
.player-name { font-size: 15px; font-weight: 700; }
.life { font-size: 18px; font-weight: 700; }
.title { font-size: 15px; font-weight: 700; }
.code { font-family: ui-monospace, Menlo, monospace; font-size: 11px; }
.diagnostic { font-size: 11px; }
.diagnostic.error { fill: var(--error); }
.diagnostic.warning { fill: var(--warning); }
.diagnostic.information { fill: var(--information); }
"""


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = MARGIN

    def text(self, x: float, y: float, value: str, cls: str) -> None:
        self.parts.append(f'<text x="{x:g}" y="{y:g}" class="{cls}">{escape(value)}</text>')

    def card(self, card: CardView, x: float, y: float) -> float:
        """Draws a card with its top left at (x, y); returns the width it took."""
        described = [f"#{card.number} {card.label()}"]
        if card.tapped:
            described.append("tapped")
        described += list(card.marks)
        described += [f"{count} {kind}" for kind, count in card.counters]
        classes = ["card", card.kind]
        if card.hidden:
            classes.append("back")
        if card.tapped:
            classes.append("tapped")
        width = CARD_H if card.tapped else CARD_W
        # a tapped card turns a quarter clockwise about the centre of the box it takes
        transform = ""
        if card.tapped:
            cx, cy = x + CARD_H / 2, y + CARD_W / 2
            x, y = cx - CARD_W / 2, cy - CARD_H / 2
            transform = f' transform="rotate(90 {cx:g} {cy:g})"'
        out = [
            f'<g class="{" ".join(classes)}" data-number="{card.number}"{transform}>',
            f"<title>{escape(', '.join(described))}</title>",
            f'<rect class="frame" x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5"/>',
            f'<text x="{x + 5:g}" y="{y + 12:g}" class="num">#{card.number}</text>',
        ]
        line_y = y + 25
        if not card.hidden:
            for row in textwrap.wrap(card.label(), 11, break_long_words=False)[:4]:
                out.append(f'<text x="{x + 5:g}" y="{line_y:g}" class="name">{escape(row)}</text>')
                line_y += 12
        badges = (["tapped"] if card.tapped else []) + list(card.marks)
        badges += [f"{count} {kind}" for kind, count in card.counters]
        for badge in badges[:4]:
            out.append(
                f'<text x="{x + 5:g}" y="{line_y + 2:g}" class="badge">{escape(badge[:16])}</text>'
            )
            line_y += 10
        out.append("</g>")
        self.parts.append("".join(out))
        return width

    def cards(self, label: str, cards: tuple[CardView, ...], note: str = "") -> None:
        """A labelled row of cards, wrapping onto more rows when it is full."""
        self.text(MARGIN + 8, self.y + 14, label.upper(), "label")
        if note:
            self.text(MARGIN + 8, self.y + 28, note, "muted")
        x0 = x = LABEL
        top = self.y
        if not cards:
            self.text(x, top + 14, "empty", "muted")
            self.y += 24
            return
        for card in cards:
            width = CARD_H if card.tapped else CARD_W
            if x + width > WIDTH - MARGIN - 8 and x > x0:
                x, top = x0, top + CARD_H + GAP
            # a tapped card is as wide as an untapped one is tall: centre it in the row
            self.card(card, x, top + ((CARD_H - CARD_W) / 2 if card.tapped else 0))
            x += width + GAP
        self.y = top + CARD_H + GAP

    def words(self, label: str, items: list[str]) -> None:
        """A labelled line of short texts (graveyard, exile, library positions)."""
        self.text(MARGIN + 8, self.y + 12, label.upper(), "label")
        rows = textwrap.wrap(", ".join(items), 130) or ["empty"]
        for row in rows:
            self.text(LABEL, self.y + 12, row, "muted")
            self.y += 16
        self.y += 2


def _player(canvas: _Canvas, player: PlayerView, near: bool) -> None:
    top = canvas.y
    panel = len(canvas.parts)
    canvas.y += 8
    x = MARGIN + 8
    canvas.text(x, canvas.y + 16, player.name, "player-name")
    x += 10 + 9 * len(player.name)
    canvas.text(x, canvas.y + 17, f"{player.life}", "life")
    canvas.text(x + 14 * len(str(player.life)), canvas.y + 17, "life", "muted")
    extra = [f"{count} {kind}" for kind, count in player.counters] + list(player.marks)
    if extra:
        canvas.text(x + 14 * len(str(player.life)) + 32, canvas.y + 17, " · ".join(extra), "muted")
    canvas.y += 28

    def battlefield() -> None:
        rows = [row for row in player.battlefield if row.cards]
        for row in rows:
            canvas.cards(row.name, row.cards)
        if not rows:
            canvas.cards("battlefield", ())

    def zones() -> None:
        hidden = player.hidden_in_hand
        canvas.cards(f"hand {len(player.hand)}", player.hand, f"{hidden} hidden" if hidden else "")
        size = "?" if player.library.size is None else str(player.library.size)
        library = [f"{size} cards"]
        library += [f"top {i}: #{c.number} {c.label()}" for i, c in player.library.top]
        library += [f"bottom {i}: #{c.number} {c.label()}" for i, c in player.library.bottom]
        canvas.words("library", library)
        for zone, cards in (
            ("graveyard", player.graveyard),
            ("exile", player.exile),
            ("command", player.command),
        ):
            if cards or zone != "command":
                canvas.words(f"{zone} {len(cards)}", [f"#{c.number} {c.label()}" for c in cards])

    if near:
        battlefield()
        zones()
    else:
        zones()
        battlefield()
    canvas.y += 4
    height = canvas.y - top
    canvas.parts.insert(
        panel,
        f'<g class="player" data-player="{escape(player.name)}"><title>{escape(player.name)}'
        f'</title><rect class="panel" x="{MARGIN}" y="{top}" width="{WIDTH - 2 * MARGIN}"'
        f' height="{height:g}" rx="8"/>',
    )
    canvas.parts.append("</g>")
    canvas.y += 10


def _stack(canvas: _Canvas, board: Board) -> None:
    top = canvas.y
    panel = len(canvas.parts)
    canvas.y += 6
    canvas.text(MARGIN + 8, canvas.y + 14, "STACK (TOP FIRST)", "label")
    if not board.stack:
        canvas.text(LABEL, canvas.y + 14, "empty", "muted")
        canvas.y += 24
    else:
        canvas.y += 20
        x = MARGIN + 8
        for card in board.stack:
            if x + CARD_W + 150 > WIDTH - MARGIN and x > MARGIN + 8:
                x, canvas.y = MARGIN + 8, canvas.y + CARD_H + GAP
            canvas.card(card, x, canvas.y)
            x += CARD_W + 6
            if card.targets:
                for i, row in enumerate(textwrap.wrap("→ " + ", ".join(card.targets), 24)[:5]):
                    canvas.text(x, canvas.y + 14 + 13 * i, row, "muted")
                x += 150
            x += GAP
        canvas.y += CARD_H + GAP
    canvas.parts.insert(
        panel,
        f'<g class="stack"><rect class="stack-panel" x="{MARGIN}" y="{top}"'
        f' width="{WIDTH - 2 * MARGIN}" height="{canvas.y - top:g}" rx="8"/>',
    )
    canvas.parts.append("</g>")
    canvas.y += 10


def render_svg(board: Board) -> str:
    canvas = _Canvas()
    if board.title:
        canvas.text(MARGIN, canvas.y + 14, board.title, "title")
        canvas.y += 22
    game = f"game {board.game}, " if board.game > 1 else ""
    canvas.text(
        MARGIN,
        canvas.y + 12,
        f"after line {board.line.number} of {board.total_lines} · {game}{board.turn.text}",
        "muted",
    )
    canvas.y += 24
    for index, player in enumerate(board.players):
        last = index == len(board.players) - 1
        if last:
            _stack(canvas, board)
        _player(canvas, player, near=last)
    if not board.players:
        _stack(canvas, board)
    for effect in board.effects:
        canvas.text(MARGIN, canvas.y + 12, f"effect: {effect}", "muted")
        canvas.y += 16
    canvas.text(MARGIN, canvas.y + 12, f"line {board.line.number}", "muted")
    canvas.text(MARGIN + 64, canvas.y + 12, board.line.text[:120], "code")
    canvas.y += 18
    for d in board.line.diagnostics:
        for i, row in enumerate(
            textwrap.wrap(f"{d.code} {d.severity}, column {d.column}: {d.message}", 140)
        ):
            canvas.text(
                MARGIN + (0 if not i else 16), canvas.y + 12, row, f"diagnostic {d.severity}"
            )
            canvas.y += 15
    if board.problems_so_far:
        count = board.problems_so_far
        canvas.text(
            MARGIN, canvas.y + 12, f"{count} problem{'s' if count != 1 else ''} up to here", "muted"
        )
        canvas.y += 16
    height = canvas.y + MARGIN
    title = escape(f"{board.title or 'mtgr'}: after line {board.line.number}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}"'
        f' viewBox="0 0 {WIDTH} {height:g}" role="img" aria-label="{title}">'
        f"<title>{title}</title><style>{STYLE}</style>"
        f'<rect class="bg" x="0" y="0" width="{WIDTH}" height="{height:g}"/>'
        + "".join(canvas.parts)
        + "</svg>\n"
    )
