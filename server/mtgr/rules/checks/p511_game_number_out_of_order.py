"""A game number that does not come after the previous game's.

## What it flags
A `game N` line after a game of the file whose number N is not greater than that game's:
`game 2` twice, or `game 1` after the first game. A file may begin with any game
(`game 3` straight after the header), and a number may skip games the record leaves out.

## Why
The games of a match are played one after another, and the number says which one this
is: the rules for a later game depend on the previous one (the loser of the previous game
chooses who starts, CR 103.1). A number that goes back or repeats leaves it unclear which
game a line belongs to and which game came before.

## Example
```mtgr
"Bob" concede
game 1
```

## Use instead
```mtgr
"Bob" concede
game 2
```

## Rules basis
- Decision 0030 item 1: a file may begin with any game; later `game N` lines have greater
  numbers; decision 0003 item 8: `game N` starts game N of the match.
- CR 103.1: "In a match of several games, the loser of the previous game chooses who takes the first turn."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P511",
    "Game number does not follow the previous game",
    severity=Severity.ERROR,
    decisions=("0030.1", "0003.8"),
    cr=("103.1",),
    doc=__doc__,
)


@RULE.on(t.GameStart)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.GameStart)
    state = ctx.state
    if state.stage is Stage.HEADER or statement.number.value > state.game:
        return
    ctx.report(
        RULE,
        f"the previous game was game {state.game}: the next one is game {state.game + 1} "
        "(or a later number, when games in between are not recorded)",
        statement.number.span,
    )
