"""A die roll in the pregame of a later game of a match.

## What it flags
A `roll` line in the pregame of game 2 or a later game (after a `game N` line with N of 2
or more), including a later game recorded alone. A roll during the game is an effect's
(Contact Other Plane, decision 0110) and is not reported.

## Why
Only the first game of a match decides by an agreed method, such as a die roll, who
chooses the starting player. In every later game the loser of the previous game chooses,
or after a drawn game the player who chose in it (CR 103.1). A roll there records a
decision that never happened.

## Example
```mtgr
game 2
"Alice" roll d20 6
"Bob" roll d20 17
start "Bob" by "Bob"
```

## Use instead
```mtgr
game 2
start "Alice" by "Alice"
```

## Rules basis
- Decision 0030 item 2: only the first game of a match has the pregame die roll; decision 0009
  item 2: the roll decides who chooses the starting player.
- CR 103.1: "In the first game of a match (including a single-game match), the players may use any mutually agreeable method (flipping a coin, rolling dice, etc.) to do so."
- Decision 0110 item 2: a roll during the game is an effect's instruction.
- CR 103.1: "In a match of several games, the loser of the previous game chooses who takes the first turn. If the previous game was a draw, the player who made the choice in that game makes the choice in this game."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "P508",
    "Die roll in a later game of a match",
    severity=Severity.ERROR,
    decisions=("0030.2", "0009.2", "0110.2"),
    cr=("103.1",),
    doc=__doc__,
)


@RULE.on(t.Roll)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Roll)
    state = ctx.state
    if state.game < 2 or not state.decides_who_chooses(statement):
        return
    chooser = state.next_chooser
    who = (
        f'"{chooser}" chooses'
        if chooser is not None
        else "the loser of the previous game chooses (after a draw, the player who chose in it)"
    )
    ctx.report(
        RULE,
        f"game {state.game} is a later game of the match: no die is rolled, {who} who "
        f'starts (CR 103.1); remove the roll and write `start "P" by "Q"`',
        statement.verb.span,
    )
