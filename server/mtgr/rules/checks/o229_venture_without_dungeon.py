"""A venture by a player who owns no dungeon in the command zone.

## What it flags
`"P" venture "Room" by C` (decision 0063) when, in the rebuilt state, P owns no card in the
command zone other than a commander: the dungeon the venture moves the marker in has not
been brought into the game. Without card data the checker cannot tell a dungeon from
another card in the command zone, nor check the room's name.

## Why
A player who ventures while they own no dungeon card in the command zone first puts one
into it from outside the game, with the venture marker on its topmost room (CR 309.2a,
309.4a); the record introduces that dungeon with a `new card` line so that its room
abilities have a source (decision 0063 item 1).

## Example
```mtgr
#40 resolve
"Alice" venture "Secret Entrance" by #40
```

## Use instead
```mtgr
#40 resolve
#41 new card "Undercity" command "Alice" by #40
"Alice" venture "Secret Entrance" by #40
```

## Rules basis
- Decision 0063 items 1, 2 and 5: the dungeon, the venture, what the checker reports.
- CR 309.2a: "If a player ventures into the dungeon while they don't own a dungeon card in the command zone, they choose a dungeon card they own from outside the game and put it into the command zone."
- CR 309.4a: "As a player puts a dungeon they own into the command zone, they put their venture marker on the topmost room."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O229",
    "Venture without a dungeon",
    severity=Severity.ERROR,
    decisions=("0063.1", "0063.2", "0063.5"),
    cr=("309.2a", "309.4a"),
    doc=__doc__,
)


@RULE.on(t.Venture)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Venture)
    state = ctx.state
    name = statement.subject.name
    if quiet(ctx) or state.player(name) is None or state.dungeon_of(name) is not None:
        return
    agent = statement.cause.agent if statement.cause is not None else None
    by = f" by #{agent.number}" if isinstance(agent, t.ObjectRef) else ""
    ctx.report(
        RULE,
        f"{name} owns no dungeon in the command zone: a venture without one first brings a "
        f"dungeon in (CR 309.2a); write "
        f'`#{state.next_free_number()} new card "Dungeon" command "{name}"{by}` above',
        statement.verb.span,
    )
