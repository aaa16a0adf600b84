"""A Room's door unlocked or locked when that cannot be done.

## What it flags
`#N unlock "Door"` (decision 0099) when, in the rebuilt state, #N is not on the battlefield
or that door is unlocked already, and `#N lock "Door"` when it is not on the battlefield or
that door is locked. Without card data the checker cannot tell whether #N is a Room, nor
which its doors are. A Room the lines did not show entering, or one on the battlefield
through a gap (a keyframe lists no doors), may have either door unlocked: the lock of a door
the lines since have not unlocked is not reported.

## Why
Only a permanent has the unlocked designations (CR 709.5c). A player may pay the unlock cost
of a locked half (CR 709.5e), and an effect unlocks a locked half or locks an unlocked one
(CR 709.5f, 709.5g): a door unlocked twice is a line written twice, or one whose lock line
is missing; a Room cast as one door enters with that door unlocked (CR 709.5d), so its
`unlock` line is not written.

## Example
```mtgr
#1 cast half "Bottomless Pool"
#1 pay {U}
#1 resolve -> battlefield
#1 unlock "Bottomless Pool"
#1 pay {U}
```

## Use instead
```mtgr
#1 cast half "Bottomless Pool"
#1 pay {U}
#1 resolve -> battlefield
#1 unlock "Locker Room"
#1 pay {4}{U}
```

## Rules basis
- Decision 0099 items 1 to 3: `unlock` and `lock` lines, and a Room cast as one door.
- CR 709.5c: "Together, they are called the unlocked designations."
- CR 709.5d: "If it's entering the battlefield and neither half was cast as a spell, it enters with neither unlocked designation."
- CR 709.5e: "A player who controls a permanent that has one or more locked halves may pay the mana cost of a locked half of that permanent to give that permanent the appropriate unlocked designation."
- CR 709.5g: "To lock half of a permanent, a player chooses an unlocked half of that permanent, and that permanent loses the appropriate unlocked designation."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE
from mtgr.syntax import tree as t

RULE = define(
    "O235",
    "Door unlocked or locked when it cannot be",
    severity=Severity.ERROR,
    decisions=("0099.1", "0099.2", "0099.3"),
    cr=("709.5c", "709.5d", "709.5e", "709.5g"),
    doc=__doc__,
)


@RULE.on(t.Unlock)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    assert isinstance(statement, t.Unlock)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201, O204
    door = statement.door.value
    unlocking = statement.verb.value == "unlock"
    if obj.zone != "battlefield":
        problem = f"{obj.label()} is {where_is(ctx.state, obj)}: only a permanent has doors"
    elif unlocking and door in obj.unlocked:
        problem = f'the door "{door}" of {obj.label()} is unlocked already'
    elif (
        not unlocking
        and door not in obj.unlocked
        and obj.controlled_since is not None
        and not obj.through_gap
    ):
        # (a Room the lines did not show entering, from a keyframe, may have any door
        # unlocked: a keyframe does not list doors, decision 0099 item 4)
        problem = f'the door "{door}" of {obj.label()} is locked already'
    else:
        return
    ctx.report(
        RULE, f"{problem} (CR 709.5c to 709.5g)", statement.door.span, related=ctx.where(obj)
    )
