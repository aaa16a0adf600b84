"""The starting player draws in the draw step of the first turn of a two-player game.

## What it flags
A draw with no cause (the draw step's turn-based draw) by the starting player in the
draw step of turn 1, in a game of two players.

## Why
In a two-player game the player who plays first skips the draw step of their first
turn (CR 103.8a), to make up for the advantage of playing first. Draws from effects
(`by #N`) during that turn are not affected.

## Example
```mtgr
start "Bob" by "Bob"
turn 1 "Bob"
step draw
"Bob" draw #30
```

## Use instead
```mtgr
start "Bob" by "Bob"
turn 1 "Bob"
phase main
```

## Rules basis
- Decision 0009 item 9.
- CR 103.8a: "In a two-player game, the player who plays first skips the draw step" of their first turn.
- CR 504.1: "First, the active player draws a card. This turn-based action doesn't use the stack."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "T404",
    "The starting player draws on the first turn",
    severity=Severity.ERROR,
    decisions=("0009.9",),
    cr=("103.8a", "504.1"),
    doc=__doc__,
)


@RULE.on(t.Draw)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Draw)
    state = ctx.state
    turn = state.turn
    if statement.cause is not None or quiet(ctx) or state.stage is Stage.OVER:
        return
    if turn.number != 1 or turn.step != "draw" or len(state.players) != 2:
        return
    player = statement.subject.name
    if state.starting_player is None or player != state.starting_player or player != turn.player:
        return
    related = (
        (Related(state.start_line, None, f'"{player}" chosen to start here'),)
        if state.start_line is not None
        else ()
    )
    ctx.report(
        RULE,
        f'"{player}" plays first in a two-player game and skips the draw step of turn 1 '
        "(CR 103.8a): remove this draw",
        statement.verb.span,
        related=related,
    )
