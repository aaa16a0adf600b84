"""A creature removed from combat that is not in combat.

## What it flags
A `leaves combat` line (decision 0076) for a permanent that is neither attacking, blocking
nor blocked as the rebuilt state stands: it was never declared, or it already left
combat.

## Why
Removing a creature from combat makes it stop being an attacking, blocking, blocked or
unblocked creature (CR 506.4); a creature that is none of these cannot be removed. The
line usually stands for the wrong creature, or a line that put it in combat is missing.
After a creature leaves combat it deals no combat damage (D831).

## Example
```mtgr
step declare-attackers
#30 attack "Bob"
#31 leaves combat by #50        // #31 did not attack
```

## Use instead
```mtgr
step declare-attackers
#30 attack "Bob"
#30 leaves combat by #50
```

## Rules basis
- Decision 0076 items 1 and 2.
- CR 506.4: "A creature that's removed from combat stops being an attacking, blocking, blocked, and/or unblocked creature."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "D835",
    "Leaves combat, not in it",
    severity=Severity.ERROR,
    decisions=("0076.1", "0076.2"),
    cr=("506.4",),
    doc=__doc__,
)


@RULE.on(t.LeavesCombat, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if quiet(ctx) or state.incomplete_since_step:
        return
    assert isinstance(statement, t.LeavesCombat)
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield" or obj.in_combat or obj.blocked:
        return
    ctx.report(
        RULE,
        f"{obj.label()} is neither attacking nor blocking, so it cannot be removed from "
        "combat (CR 506.4): name the creature in combat, or write the line that put it there",
        statement.verb.span,
        related=ctx.where(obj),
    )
