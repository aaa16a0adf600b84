"""The cards put on the bottom after keeping do not match the number of mulligans.

## What it flags
A player who kept after taking mulligans and put a different number of cards from their
hand on the bottom of their library (`#N move hand -> library bottom by "Alice"`), one
for each mulligan. In a game of more than two players the first mulligan is free. It is
reported on the first `turn` line, when the pregame is over, or, in a record with no
turn, on the player's `keep` line.

## Why
Taking a mulligan costs a card each time: the player draws a new hand of seven and puts
as many of those cards on the bottom as the mulligans they have taken (CR 103.5). A
different number leaves the opening hand, and the library, the wrong size for the rest
of the game.

## Example
```mtgr
"Alice" mulligan
"Alice" keep
turn 1 "Bob"
```

## Use instead
```mtgr
"Alice" mulligan
"Alice" keep
#20 move hand -> library bottom by "Alice"
turn 1 "Bob"
```

## Rules basis
- Decision 0009 item 6: that many cards from the kept hand, one line each, right after the `keep`.
- CR 103.5: "To take a mulligan, a player shuffles the cards in their hand back into their library, draws a new hand of cards equal to their starting hand size, then puts a number of those cards equal to the number of times that player has taken a mulligan on the bottom of their library in any order."
- CR 103.5c: "In a multiplayer game and in any Brawl game, the first mulligan a player takes doesn't count toward the number of cards that player will put on the bottom of their library or the number of mulligans that player may take."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, LineId, PlayerState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "P506",
    "Cards put on the bottom differ from the mulligans taken",
    severity=Severity.ERROR,
    decisions=("0009.6",),
    cr=("103.5", "103.5c"),
    doc=__doc__,
)


def _mismatches(state: GameState) -> list[tuple[PlayerState, int]]:
    """Players whose bottomed cards differ from what their mulligans ask, with that number."""
    if state.incomplete_since_turn or state.stage is not Stage.PREGAME:
        return []
    free = 1 if len(state.players) > 2 else 0
    found = []
    for player in state.players:
        if not player.kept or player.lost:
            continue
        expected = max(0, player.mulligans - free)
        if player.bottomed != expected:
            found.append((player, expected))
    return found


def _message(player: PlayerState, expected: int) -> str:
    mulligans = f"{player.mulligans} mulligan" + ("" if player.mulligans == 1 else "s")
    put = f"{player.bottomed} card" + ("" if player.bottomed == 1 else "s")
    wanted = f"{expected} card" + ("" if expected == 1 else "s")
    return (
        f'"{player.name}" took {mulligans} and put {put} on the bottom of their library: '
        f"after keeping they put {wanted} from their hand on the bottom "
        f'(`#N move hand -> library bottom by "{player.name}"`, CR 103.5)'
    )


def _related(player: PlayerState) -> tuple[Related, ...]:
    if player.kept_line is None:
        return ()
    return (Related(player.kept_line, None, f'"{player.name}" kept here'),)


@RULE.on(t.Turn)
def check(ctx: Context, statement: t.Statement) -> None:
    if ctx.state.turn.line is not None:
        return
    for player, expected in _mismatches(ctx.state):
        ctx.report(RULE, _message(player, expected), related=_related(player))


@RULE.at_end
def check_end(ctx: Context) -> None:
    if ctx.state.turn.line is not None:
        return
    for player, expected in _mismatches(ctx.state):
        line: LineId | None = player.kept_line
        if line is not None:
            ctx.report(RULE, _message(player, expected), line=line)
