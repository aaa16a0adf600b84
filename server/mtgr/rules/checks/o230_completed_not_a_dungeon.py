"""A `complete` line for an object that is not a dungeon in the command zone.

## What it flags
`#N complete [by C]` (decision 0063) when, in the rebuilt state, #N is not a card in the
command zone, or is a commander (an emblem is O223's). Without card data the checker cannot tell whether the
venture marker is on the dungeon's bottommost room.

## Why
A player completes a dungeon as that dungeon card is removed from the game (CR 309.7), from
the command zone where dungeons stay (CR 309.2c). A `complete` of anything else records an
event that cannot happen; the number is often wrong.

## Example
```mtgr
#20 complete by sba
```

## Use instead
```mtgr
#41 complete by sba
```

## Rules basis
- Decision 0063 items 3 and 5: a dungeon is completed as it is removed from the game.
- CR 309.7: "A player completes a dungeon as that dungeon card is removed from the game."
- CR 309.2c: "Dungeon cards can't leave the command zone except as they leave the game."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O230",
    "Completed object not a dungeon",
    severity=Severity.ERROR,
    decisions=("0063.3", "0063.5"),
    cr=("309.7", "309.2c"),
    doc=__doc__,
)


@RULE.on(t.Complete)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Complete)
    if quiet(ctx):
        return
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None:
        return  # O201
    if obj.zone == "command" and obj.kind is ObjectKind.CARD:
        if obj.number not in state.commanders:
            return
        what = "a commander"
    elif obj.kind is ObjectKind.EMBLEM:
        return  # O223: an emblem stays in the command zone
    elif obj.zone == "command":
        what = "not a card"
    else:
        what = where_is(state, obj)
    ctx.report(
        RULE,
        f"{obj.label()} is {what}: only a dungeon, a card in the command zone, is completed "
        "as it is removed from the game (CR 309.7)",
        statement.subject.span,
        related=ctx.where(obj),
    )
