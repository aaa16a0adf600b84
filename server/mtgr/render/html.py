"""The board as HTML: one self-contained page (inline CSS, no network, light and dark), the
body alone for an editor's webview, and the replay page that steps through a record.

A board's HTML is a list of fragments whose concatenation is the body. The replay page
stores each distinct fragment once and each line as a list of fragment numbers: a line
changes one or two fragments, so a long record stays small, and the page's script only
joins strings: every board is drawn here, by one renderer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape

from mtgr.render.board import Board, CardView, PlayerView

CSS = """
.mtgr-board, .mtgr-replay {
  --mtgr-bg: #f4f1ea; --mtgr-fg: #1f1d1a; --mtgr-muted: #6b665c; --mtgr-zone: #e8e3d6;
  --mtgr-card: #fffdf8; --mtgr-card-border: #8d7b58; --mtgr-back: #6b3f1f;
  --mtgr-back-2: #8a5a2e; --mtgr-accent: #1f5fbf; --mtgr-error: #c62828;
  --mtgr-warning: #a86200; --mtgr-information: #1565c0; --mtgr-hint: #5f6b7a;
  --mtgr-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --mtgr-mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  color: var(--mtgr-fg); background: var(--mtgr-bg); font: 14px/1.35 var(--mtgr-font);
}
@media (prefers-color-scheme: dark) {
  .mtgr-board, .mtgr-replay {
    --mtgr-bg: #1c1b19; --mtgr-fg: #ece8df; --mtgr-muted: #a39d90; --mtgr-zone: #2a2825;
    --mtgr-card: #34312c; --mtgr-card-border: #b09a6c; --mtgr-back: #5a3518;
    --mtgr-back-2: #7a4c26; --mtgr-accent: #7fb0ff; --mtgr-error: #ff6b6b;
    --mtgr-warning: #f0a030; --mtgr-information: #6fb3ff; --mtgr-hint: #a0aab8;
  }
}
body { margin: 0; background: var(--mtgr-bg); }
.mtgr-board { padding: 12px; display: flex; flex-direction: column; gap: 10px; }
.mtgr-board h2, .mtgr-board h3 { margin: 0 0 4px; font-size: 12px; font-weight: 600;
  text-transform: uppercase; letter-spacing: .04em; color: var(--mtgr-muted); }
.board-head .title { font-size: 16px; font-weight: 600; }
.board-head .where { color: var(--mtgr-muted); }
.player { background: var(--mtgr-zone); border-radius: 8px; padding: 8px 10px;
  display: flex; flex-direction: column; gap: 8px; }
.player.active { box-shadow: inset 4px 0 0 var(--mtgr-accent); }
.player-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.player-head .name { font-size: 16px; font-weight: 700; }
.player-head .life { font-size: 20px; font-weight: 700; }
.player-head .mark, .player-head .counter { color: var(--mtgr-muted); }
.zones { display: flex; flex-wrap: wrap; gap: 8px 22px; }
.zone.graveyard, .zone.exile { max-width: 360px; }
.zone, .row { min-width: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; min-height: 20px; }
.empty { color: var(--mtgr-muted); font-style: italic; }
.battlefield { display: flex; flex-wrap: wrap; gap: 6px 26px; }
.card { box-sizing: border-box; width: 92px; height: 126px; border-radius: 6px;
  border: 2px solid var(--mtgr-card-border); background: var(--mtgr-card);
  padding: 4px; display: flex; flex-direction: column; gap: 2px; overflow: hidden;
  font-size: 11px; line-height: 1.2; position: relative; }
.card.mini { width: auto; height: auto; flex-direction: row; align-items: baseline;
  gap: 4px; padding: 1px 6px; border-width: 1px; border-radius: 4px; }
.card .num { font: 10px var(--mtgr-mono); color: var(--mtgr-muted); }
.card .name { font-weight: 600; overflow-wrap: break-word; hyphens: auto; }
.card .badge, .card .counter { font-size: 10px; border-radius: 3px; padding: 0 3px;
  background: var(--mtgr-zone); align-self: flex-start; }
.card .counter { background: var(--mtgr-accent); color: var(--mtgr-bg); }
.card.tapped { transform: rotate(90deg); margin: -17px 17px; }
.card.token { border-style: dashed; }
.card.back { background: repeating-linear-gradient(45deg, var(--mtgr-back),
  var(--mtgr-back) 6px, var(--mtgr-back-2) 6px, var(--mtgr-back-2) 12px);
  border-color: var(--mtgr-back-2); }
.card.back .num { color: #f3e6d0; }
.pile { font-size: 13px; }
.pile .size { font-size: 18px; font-weight: 700; }
.slot-label { font-size: 10px; color: var(--mtgr-muted); }
.slot { display: flex; flex-direction: column; align-items: center; gap: 2px; }
.stack { border: 1px dashed var(--mtgr-card-border); border-radius: 8px; padding: 8px 10px; }
.stack ol { list-style: none; margin: 0; padding: 0; display: flex; gap: 10px; flex-wrap: wrap; }
.stack li { display: flex; gap: 6px; align-items: center; }
.stack .targets { max-width: 160px; }
.effects ul { margin: 0; padding-left: 18px; }
.line { border-top: 1px solid var(--mtgr-card-border); padding-top: 8px; }
.line code { font: 13px var(--mtgr-mono); white-space: pre-wrap; }
.line .number { color: var(--mtgr-muted); margin-right: 8px; }
.diagnostics { margin: 6px 0 0; padding: 0; list-style: none; }
.diagnostic { border-left: 3px solid var(--mtgr-hint); padding: 2px 8px; margin: 2px 0; }
.diagnostic .code { font: 600 12px var(--mtgr-mono); }
.diagnostic.error { border-color: var(--mtgr-error); }
.diagnostic.warning { border-color: var(--mtgr-warning); }
.diagnostic.information { border-color: var(--mtgr-information); }
.problems { color: var(--mtgr-muted); }
"""

REPLAY_CSS = """
.mtgr-replay { min-height: 100vh; display: flex; flex-direction: column; }
.controls { position: sticky; top: 0; z-index: 1; background: var(--mtgr-bg);
  padding: 10px 12px 4px; border-bottom: 1px solid var(--mtgr-card-border);
  display: grid; grid-template-columns: auto 1fr auto auto auto; gap: 4px 10px;
  align-items: center; }
.controls button, .controls select { font: inherit; color: inherit;
  background: var(--mtgr-zone); border: 1px solid var(--mtgr-card-border);
  border-radius: 4px; padding: 2px 8px; }
.controls input[type=range] { width: 100%; accent-color: var(--mtgr-accent); }
.timeline { grid-column: 2; position: relative; height: 12px; }
.keys { grid-column: 3 / 6; font-size: 11px; color: var(--mtgr-muted); }
.tick { position: absolute; top: 0; width: 4px; height: 12px; padding: 0; border: 0;
  margin-left: -2px; background: var(--mtgr-hint); cursor: pointer; }
.tick.error { background: var(--mtgr-error); }
.tick.warning { background: var(--mtgr-warning); }
.tick.information { background: var(--mtgr-information); }
.replay-main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(220px, 32%); }
.record { margin: 0; padding: 8px 8px 8px 48px; font: 12px/1.5 var(--mtgr-mono);
  max-height: calc(100vh - 70px); overflow: auto; position: sticky; top: 60px;
  border-left: 1px solid var(--mtgr-card-border); }
.record li { white-space: pre; cursor: pointer; color: var(--mtgr-muted); }
.record li.current { color: var(--mtgr-fg); background: var(--mtgr-zone); }
.record li.error::marker { color: var(--mtgr-error); font-weight: 700; }
.record li.warning::marker { color: var(--mtgr-warning); font-weight: 700; }
@media (max-width: 800px) { .replay-main { grid-template-columns: 1fr; } }
"""

REPLAY_JS = r"""
(() => {
  const data = JSON.parse(document.getElementById('mtgr-replay-data').textContent);
  const total = data.boards.length;
  const board = document.getElementById('board');
  const slider = document.getElementById('slider');
  const where = document.getElementById('where');
  const turn = document.getElementById('turn');
  const rows = document.querySelectorAll('#record li');
  let current = 0;
  function show(line) {
    line = Math.max(1, Math.min(total, line | 0));
    if (line === current) return;
    if (current) rows[current - 1].classList.remove('current');
    current = line;
    board.innerHTML = data.boards[line - 1].map((i) => data.fragments[i]).join('');
    slider.value = String(line);
    where.textContent = `line ${line} of ${total}`;
    const row = rows[line - 1];
    row.classList.add('current');
    const list = row.parentElement;  // keep the line in the middle of the listing
    list.scrollTop = row.offsetTop - list.clientHeight / 2;
    let chosen = '';
    for (const option of turn.options) {
      if (option.value && Number(option.value) <= line) chosen = option.value;
    }
    turn.value = chosen;
    document.body.dataset.line = String(line);
    history.replaceState(null, '', `#line-${line}`);
  }
  function turnStart(direction) {
    const starts = [...turn.options].map((o) => Number(o.value)).filter((n) => n);
    const found = direction > 0
      ? starts.find((n) => n > current)
      : [...starts].reverse().find((n) => n < current);
    return found || (direction > 0 ? total : 1);
  }
  slider.addEventListener('input', () => show(Number(slider.value)));
  document.getElementById('prev').addEventListener('click', () => show(current - 1));
  document.getElementById('next').addEventListener('click', () => show(current + 1));
  turn.addEventListener('change', () => { if (turn.value) show(Number(turn.value)); });
  for (const tick of document.querySelectorAll('.tick')) {
    tick.addEventListener('click', () => show(Number(tick.dataset.line)));
  }
  rows.forEach((row, i) => row.addEventListener('click', () => show(i + 1)));
  document.addEventListener('keydown', (event) => {
    if (event.target === slider || event.target === turn) return;
    const keys = {
      ArrowLeft: current - 1, ArrowRight: current + 1, ArrowUp: current - 1,
      ArrowDown: current + 1, Home: 1, End: total,
      PageUp: turnStart(-1), PageDown: turnStart(1),
    };
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });
  const asked = /^#line-(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) : 1);
})();
"""

_SEVERITY_ORDER = ["error", "warning", "information", "hint"]

# what the page may load: nothing from the network, its own inline style and script
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def _card(card: CardView, size: str = "") -> str:
    classes = ["card", size] if size else ["card"]
    if card.hidden:
        classes.append("back")
    if card.tapped:
        classes.append("tapped")
    if card.kind != "card":
        classes.append(card.kind)
    described = [f"#{card.number} {card.label()}"]
    badges = []
    if card.tapped:
        described.append("tapped")
        badges.append('<span class="badge">tapped</span>')
    for mark in card.marks:
        described.append(mark)
        badges.append(f'<span class="badge">{escape(mark)}</span>')
    counters = []
    for kind, count in card.counters:
        described.append(f"{count} {kind}")
        counters.append(f'<span class="counter">{count} {escape(kind)}</span>')
    name = "" if card.hidden else f'<span class="name">{escape(card.label())}</span>'
    return (
        f'<div class="{" ".join(classes)}" data-number="{card.number}"'
        f' title="{escape(", ".join(described))}">'
        f'<span class="num">#{card.number}</span>{name}{"".join(badges)}{"".join(counters)}</div>'
    )


def _cards(cards: Sequence[CardView], size: str = "") -> str:
    if not cards:
        return '<div class="cards"><span class="empty">empty</span></div>'
    return '<div class="cards">' + "".join(_card(c, size) for c in cards) + "</div>"


def _zone(kind: str, title: str, body: str, count: int | None = None, note: str = "") -> str:
    shown = f' <span class="count">{count}</span>' if count is not None else ""
    noted = f' · <span class="note">{note}</span>' if note else ""
    return f'<div class="zone {kind}"><h3>{title}{shown}{noted}</h3>{body}</div>'


def _player(player: PlayerView, position: str) -> list[str]:
    """The player's fragments: head, hand and library, other zones, battlefield."""
    classes = ["player", position]
    if "active player" in player.marks:
        classes.append("active")
    if "lost" in player.marks:
        classes.append("lost")
    counters = "".join(
        f'<span class="counter">{count} {escape(kind)}</span>' for kind, count in player.counters
    )
    marks = "".join(f'<span class="mark">{escape(m)}</span>' for m in player.marks)
    head = (
        f'<section class="{" ".join(classes)}" data-player="{escape(player.name)}"'
        f' aria-label="{escape(player.name)}">'
        f'<div class="player-head"><span class="name">{escape(player.name)}</span>'
        f'<span class="life" title="life">{player.life}</span>'
        f'<span class="life-label">life</span>{counters}{marks}</div>'
    )
    hidden = player.hidden_in_hand
    library = player.library
    size = "?" if library.size is None else str(library.size)
    slots = [
        f'<div class="slot"><span class="slot-label">top {i}</span>{_card(c)}</div>'
        for i, c in library.top
    ] + [
        f'<div class="slot"><span class="slot-label">bottom {i}</span>{_card(c)}</div>'
        for i, c in library.bottom
    ]
    zones = (
        '<div class="zones">'
        + _zone(
            "hand",
            "Hand",
            _cards(player.hand),
            len(player.hand),
            f"{hidden} hidden" if hidden else "",
        )
        + _zone(
            "library",
            "Library",
            f'<div class="cards"><span class="pile"><span class="size">{size}</span>'
            f" cards</span>{''.join(slots)}</div>",
        )
        + _zone("graveyard", "Graveyard", _cards(player.graveyard, "mini"), len(player.graveyard))
        + _zone("exile", "Exile", _cards(player.exile, "mini"), len(player.exile))
        + (_zone("command", "Command", _cards(player.command, "mini")) if player.command else "")
        + "</div>"
    )
    rows = "".join(
        f'<div class="row {row.name.replace(" ", "-")}"><h3>{escape(row.name.capitalize())}</h3>'
        f"{_cards(row.cards)}</div>"
        for row in player.battlefield
        if row.cards
    )
    battlefield = (
        f'<div class="battlefield" aria-label="battlefield of {escape(player.name)}">'
        + (rows or '<h3>Battlefield</h3><span class="empty">empty</span>')
        + "</div>"
    )
    # the battlefields face each other across the stack, as the players sit
    if position == "near":
        return [head, battlefield, zones, "</section>"]
    return [head, zones, battlefield, "</section>"]


def _stack(board: Board) -> str:
    items = []
    for card in board.stack:
        targets = (
            f'<span class="targets">→ {escape(", ".join(card.targets))}</span>'
            if card.targets
            else ""
        )
        items.append(f"<li>{_card(card)}{targets}</li>")
    body = f"<ol>{''.join(items)}</ol>" if items else '<span class="empty">empty</span>'
    return f'<section class="stack" aria-label="stack"><h2>Stack (top first)</h2>{body}</section>'


def _line(board: Board) -> str:
    line = board.line
    found = "".join(
        f'<li class="diagnostic {d.severity}"><span class="code">{d.code}</span> '
        f'<span class="severity">{d.severity}</span>, column {d.column}: {escape(d.message)}</li>'
        for d in line.diagnostics
    )
    count = board.problems_so_far
    problems = (
        f'<div class="problems">{count} problem{"s" if count != 1 else ""} up to here</div>'
        if count
        else ""
    )
    return (
        f'<footer class="line"><span class="number">line {line.number}</span>'
        f"<code>{escape(line.text)}</code>"
        + (f'<ul class="diagnostics">{found}</ul>' if found else "")
        + f"{problems}</footer>"
    )


def board_fragments(board: Board) -> list[str]:
    """The board's HTML as fragments; their concatenation is the body of the page."""
    title = f'<div class="title">{escape(board.title)}</div>' if board.title else ""
    game = f"game {board.game}, " if board.game > 1 else ""
    fragments = [
        f'<header class="board-head">{title}<div class="where">after line {board.line.number}'
        f" of {board.total_lines} · {game}{escape(board.turn.text)}</div></header>"
    ]
    for index, player in enumerate(board.players):
        last = index == len(board.players) - 1
        if last:
            fragments.append(_stack(board))
        fragments.extend(_player(player, "near" if last else "far"))
    if not board.players:
        fragments.append(_stack(board))
    if board.effects:
        effects = "".join(f"<li>{escape(e)}</li>" for e in board.effects)
        fragments.append(
            f'<section class="effects"><h2>Lasting effects</h2><ul>{effects}</ul></section>'
        )
    fragments.append(_line(board))
    return fragments


def board_body(board: Board) -> str:
    """The board alone, for a page or an editor's webview to style."""
    return '<div class="mtgr-board">' + "".join(board_fragments(board)) + "</div>"


def _page(title: str, body: str, css: str, script: str = "") -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{escape(title)}</title><style>{css}</style></head>\n"
        f"<body>{body}{script}</body></html>\n"
    )


def render_html(board: Board) -> str:
    title = f"{board.title or 'mtgr'}: after line {board.line.number}"
    return _page(title, board_body(board), CSS)


def render_replay(boards: Iterable[Board], texts: Sequence[str]) -> str:
    """One page stepping through every line: slider, arrow keys, turns, diagnostics."""
    fragments: dict[str, int] = {}
    per_line: list[list[int]] = []
    turns: list[tuple[int, str]] = []
    marks: list[tuple[int, str, str]] = []  # (line, worst severity, summary)
    title = None
    last_turn = (0, 0)
    first: Board | None = None
    for board in boards:
        first = first or board
        title = board.title
        per_line.append([fragments.setdefault(f, len(fragments)) for f in board_fragments(board)])
        turn = (board.game, board.turn.number)
        if board.turn.number and turn != last_turn:
            game = f"game {board.game}, " if board.game > 1 else ""
            turns.append(
                (board.line.number, f"{game}turn {board.turn.number} ({board.turn.player})")
            )
        last_turn = turn
        if board.line.diagnostics:
            severities = [d.severity for d in board.line.diagnostics]
            worst = min(severities, key=_SEVERITY_ORDER.index)
            summary = "; ".join(f"{d.code} {d.message}" for d in board.line.diagnostics)
            marks.append((board.line.number, worst, summary))
    total = len(per_line)
    data = json.dumps(
        {"fragments": list(fragments), "boards": per_line},
        ensure_ascii=False,
        separators=(",", ":"),
    ).replace("</", "<\\/")
    worst_of = {line: worst for line, worst, _ in marks}
    listing = "".join(
        f'<li class="{worst_of.get(n, "")}">{escape(text) or " "}</li>'
        for n, text in enumerate(texts[:total], 1)
    )
    ticks = "".join(
        f'<button class="tick {worst}" data-line="{line}"'
        f' style="left:{(line - 1) / max(total - 1, 1) * 100:.3f}%"'
        f' title="line {line}: {escape(summary)}" aria-label="line {line}: {escape(summary)}">'
        "</button>"
        for line, worst, summary in marks
    )
    options = '<option value="">turn…</option>' + "".join(
        f'<option value="{line}">{escape(label)}</option>' for line, label in turns
    )
    first_body = "".join(board_fragments(first)) if first else ""
    body = (
        '<div class="mtgr-replay">'
        '<div class="controls">'
        '<button id="prev" type="button" aria-label="previous line">◀</button>'
        f'<input id="slider" type="range" min="1" max="{max(total, 1)}" value="1"'
        ' aria-label="line">'
        '<button id="next" type="button" aria-label="next line">▶</button>'
        f'<output id="where">line 1 of {total}</output>'
        f'<select id="turn" aria-label="jump to turn">{options}</select>'
        f'<div class="timeline" aria-label="lines with diagnostics">{ticks}</div>'
        '<div class="keys">← → a line · PgUp PgDn a turn · Home End</div>'
        "</div>"
        '<div class="replay-main">'
        f'<div id="board" class="mtgr-board">{first_body}</div>'
        f'<ol id="record" class="record">{listing}</ol>'
        "</div></div>"
    )
    script = (
        f'<script type="application/json" id="mtgr-replay-data">{data}</script>'
        f"<script>{REPLAY_JS}</script>"
    )
    return _page(f"{title or 'mtgr'}: replay", body, CSS + REPLAY_CSS, script)
