"""A Class's level set where it cannot be.

## What it flags
`#N level K by C` (decision 0108) when, in the rebuilt state, #N is not on the battlefield,
and, when C is an ability of #N itself (its class level bar's), when K skips a level: the
ability for level K can be activated only while the Class is level K-1, and #N is below
that. A permanent never given a level counts as level 1. A Class the lines did not show
entering (a keyframe lists no levels) may have any level, and so may one that stayed on
the battlefield through a gap: its levels are not judged until a `level` line gives one.

## Why
A level is a designation of a permanent (CR 716.2b). A class level bar is an activated
ability that makes the level N, which may be activated only while the Class is level N-1
and only as a sorcery (CR 716.2a): levels are gained one at a time, so a Class at level 1
cannot go to level 3 by its own ability. A permanent without a level is treated as level 1
(CR 716.2d). Levels never go down while the Class stays on the battlefield, so one below
K-1 as the ability resolves was below it when the ability was activated too.

## Example
```mtgr
#1 cast
#1 pay {1}{G}
#1 resolve -> battlefield
#5 activate of #1
#5 pay {3}{G}
#5 resolve
#1 level 3 by #5
```

## Use instead
```mtgr
#1 cast
#1 pay {1}{G}
#1 resolve -> battlefield
#5 activate of #1
#5 pay {1}{G}
#5 resolve
#1 level 2 by #5
```

## Rules basis
- Decision 0108 items 1 and 2: `level` lines, and the levels the checker keeps.
- CR 716.2a: "This Class's level becomes N. Activate only if this Class is level N-1 and only as a sorcery"
- CR 716.2b: "A level is a designation that any permanent can have."
- CR 716.2d: "If a rule or effect refers to a permanent's level and that permanent doesn't have a level, it is treated as though its level is 1."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O236",
    "Class level set when it cannot be",
    severity=Severity.ERROR,
    decisions=("0108.1", "0108.2"),
    cr=("716.2a", "716.2b", "716.2d"),
    doc=__doc__,
)


@RULE.on(t.ClassLevel)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    assert isinstance(statement, t.ClassLevel)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201, O204
    if obj.zone != "battlefield":
        ctx.report(
            RULE,
            f"{obj.label()} is {where_is(ctx.state, obj)}: only a permanent has a level "
            "(CR 716.2b)",
            statement.subject.span,
            related=ctx.where(obj),
        )
        return
    level = statement.value.value
    known = (
        obj.level
        if obj.level is not None
        else 1
        if obj.controlled_since is not None and not obj.through_gap
        else None
    )
    if known is None or level <= known + 1 or not _its_own_ability(ctx, statement, obj.number):
        return
    ctx.report(
        RULE,
        f"{obj.label()} is level {known}: its ability for level {level} can be activated "
        f"only while it is level {level - 1}; write its level {known + 1} first "
        "(CR 716.2a)",
        statement.value.span,
        related=ctx.where(obj),
    )


def _its_own_ability(ctx: Context, statement: t.ClassLevel, number: int) -> bool:
    """Whether the level's cause is an ability of the Class itself: its level bar's."""
    cause = statement.cause
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return False
    ability = ctx.state.obj(cause.agent.number)
    return ability is not None and ability.kind is ObjectKind.ABILITY and ability.source == number
