"""A player name that no `player` line declared.

## What it flags
The first mention of a player name that no `player` line above declared: a typo in a
name (`"Alise"`), or a player missing from the header. Later mentions of the same name
are not flagged again.

## Why
The `player` lines say who plays, in seating order (CR 101.4, 103.1); every other line
refers to those players by name. A name that is not declared is another player as far
as the record goes: a life change for `"Alise"` leaves Alice's life total untouched.

## Example
```mtgr
player "Alice" deck 60
player "Bob" deck 60
"Alise" life -2 by #30
```

## Use instead
```mtgr
player "Alice" deck 60
player "Bob" deck 60
"Alice" life -2 by #30
```

## Rules basis
- Decision 0003 item 4: `player "Name"` declares a player, one line per player.
- CR 102.1: "A player is one of the people in the game."
- CR 103.1: "At the start of a game, the players determine which one of them will choose who takes the first turn."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "N102",
    "Undeclared player",
    severity=Severity.ERROR,
    decisions=("0003.4",),
    cr=("102.1", "103.1"),
    doc=__doc__,
)


@RULE.on(t.Statement)
def check(ctx: Context, statement: t.Statement) -> None:
    players = statement.players
    if not players or isinstance(statement, t.PlayerDeclaration):
        return
    state = ctx.state
    declared = state.declared
    for ref in players:
        if ref.name not in declared and state.player(ref.name) is None:
            break
    else:
        return  # every player is known: the common case, told without building anything
    reported: set[str] = set()
    for ref in players:
        name = ref.name
        if name in state.declared or state.player(name) is not None or name in reported:
            continue
        reported.add(name)
        declared = ", ".join(f'"{n}"' for n in state.declared) or "none"
        ctx.report(
            RULE,
            f'"{name}" is not a declared player (declared: {declared}); declare it with '
            f'`player "{name}"` in the header, or correct the name',
            ref.span,
        )
