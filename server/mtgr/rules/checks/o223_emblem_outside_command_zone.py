"""An emblem anywhere but the command zone, or treated as a card or permanent.

## What it flags
A `new emblem` line whose place is not the command zone, and any later line whose
subject is an emblem (a move, a cast, a tap, counters, damage...). An emblem may still
be the cause of a line and the source of an ability (`#N trigger of #E`).

## Why
An emblem is put into the command zone by the effect that creates it and is neither a
card nor a permanent (CR 114.2, 114.5); its abilities work from the command zone
(CR 114.4) and nothing moves it (decision 0026 item 1).

## Example
```mtgr
#40 new emblem "Elspeth emblem" battlefield "Alice" by #39
#40 move command -> exile by #55
```

## Use instead
```mtgr
#40 new emblem "Elspeth emblem" command "Alice" by #39
```

## Rules basis
- Decision 0026 item 1: an emblem stays in the command zone for the rest of the game.
- CR 114.2: "This means that [player] puts an emblem with [ability] into the command zone. The emblem is both owned and controlled by that player."
- CR 114.4: "Abilities of emblems function in the command zone."
- CR 114.5: "An emblem is neither a card nor a permanent."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O223",
    "Emblem outside the command zone",
    severity=Severity.ERROR,
    decisions=("0026.1",),
    cr=("114.2", "114.4", "114.5"),
    doc=__doc__,
)


@RULE.on(t.ObjectStatement)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectStatement)
    if type(statement) is t.New:
        zone = statement.place.zone
        if statement.what.value == "emblem" and zone.value != "command" and not quiet(ctx):
            ctx.report(
                RULE,
                f"an emblem is created in the command zone, not {zone.value}: write `command`",
                zone.span,
            )
        return
    obj = ctx.state.objects.get(statement.subject.number)
    if obj is None or obj.kind is not ObjectKind.EMBLEM:
        return
    if isinstance(statement, (t.AbilityOf, t.SnapshotObject)) or quiet(ctx):
        return
    ctx.report(
        RULE,
        f"{obj.label()} is an emblem: it stays in the command zone and is neither a card nor "
        "a permanent (CR 114.5); it can only be the source of abilities and effects",
        statement.verb.span,
        related=ctx.where(obj),
    )
