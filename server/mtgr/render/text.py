"""The board as plain text for a terminal: every line at most 80 columns."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from mtgr.render.board import Board, CardView, PlayerView

WIDTH = 80


def card_text(card: CardView) -> str:
    """`[#3 Dragon's Rage Channeler, tapped, 1 +1/+1]`; a hidden card is `[#9 hidden]`."""
    parts = [f"#{card.number} {card.label() if not card.hidden else 'hidden'}"]
    if card.tapped:
        parts.append("tapped")
    parts.extend(f"{count} {kind}" for kind, count in card.counters)
    parts.extend(card.marks)
    if card.targets:
        parts.append("targets " + ", ".join(card.targets))
    return "[" + ", ".join(parts) + "]"


def _fit(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _wrap(prefix: str, items: Iterable[str], indent: int = 4) -> list[str]:
    """Items packed greedily after `prefix`, continued lines indented."""
    out: list[str] = []
    current, placed = prefix, 0  # items on the current line
    for item in items:
        joined = f"{current} {item}" if current.strip() else current + item
        if len(joined) <= WIDTH or not placed:
            current, placed = joined, placed + 1
            continue
        out.append(_fit(current))
        current, placed = " " * indent + item, 1
    out.append(_fit(current))
    return out


def _player(player: PlayerView) -> list[str]:
    counters = "".join(f" · {count} {kind}" for kind, count in player.counters)
    size = "?" if player.library.size is None else str(player.library.size)
    marks = f" ({', '.join(player.marks)})" if player.marks else ""
    out = [
        _fit(
            f"{player.name}{marks}  life {player.life}{counters} · hand {len(player.hand)}"
            f" · library {size}"
        )
    ]
    known = [card_text(c) for c in player.hand if not c.hidden]
    hidden = [c for c in player.hand if c.hidden]
    if hidden:
        backs = " ".join(f"#{c.number}" for c in hidden)
        known.append(f"{len(hidden)} hidden ({backs})")
    out += _wrap("  Hand:", known or ["empty"])
    library = [f"top {i}: {card_text(c)}" for i, c in player.library.top]
    library += [f"bottom {i}: {card_text(c)}" for i, c in player.library.bottom]
    out += _wrap(f"  Library: {size} cards" + (";" if library else ""), library)
    for zone, cards in (
        ("Graveyard", player.graveyard),
        ("Exile", player.exile),
        ("Command", player.command),
    ):
        if cards:
            out += _wrap(f"  {zone}:", [card_text(c) for c in cards])
    for row in player.battlefield:
        if row.cards:
            out += _wrap(f"  {row.name.capitalize()}:", [card_text(c) for c in row.cards])
    if not any(row.cards for row in player.battlefield):
        out.append("  Battlefield: empty")
    return out


def render_text(board: Board) -> str:
    out = [_fit(board.title)] if board.title else []
    game = f"game {board.game}, " if board.game > 1 else ""
    out.append(
        _fit(f"After line {board.line.number} of {board.total_lines} · {game}{board.turn.text}")
    )
    out.append("=" * WIDTH)
    for index, player in enumerate(board.players):
        if index:
            out.append("-" * WIDTH)
            if index == len(board.players) - 1:
                out += _stack(board)
                out.append("-" * WIDTH)
        out += _player(player)
    if len(board.players) < 2:
        out += _stack(board)
    if board.effects:
        out.append("Lasting effects:")
        out += [_fit(f"  {effect}") for effect in board.effects]
    out.append("=" * WIDTH)
    out.append(_fit(f"Line {board.line.number}: {board.line.text}".rstrip()))
    for d in board.line.diagnostics:
        out += textwrap.wrap(
            f"{d.severity} {d.code} (column {d.column}): {d.message}",
            WIDTH,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    if board.problems_so_far:
        count = board.problems_so_far
        out.append(f"{count} problem{'s' if count != 1 else ''} up to here (mtgr check lists them)")
    return "\n".join(out) + "\n"


def _stack(board: Board) -> list[str]:
    if not board.stack:
        return ["Stack: empty"]
    out = ["Stack (top first):"]
    for place, card in enumerate(board.stack, 1):
        out += _wrap(f"  {place}.", [card_text(card)], indent=5)
    return out
