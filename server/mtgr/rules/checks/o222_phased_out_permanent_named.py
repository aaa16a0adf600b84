"""A line about a phased-out permanent, as though it existed.

## What it flags
A line whose subject, target, attacked or blocked creature, damaged object or host is a
permanent that is phased out (decision 0025), other than the `phase in` that brings it
back and a keyframe entry. The checker cannot see abilities that mention phased-out
permanents specifically.

## Why
A phased-out permanent is treated as though it does not exist: it cannot affect or be
affected by anything else in the game (CR 702.26b) until it phases in (CR 702.26c).

## Example
```mtgr
#30 phase out by #60
#30 tap by #30
```

## Use instead
```mtgr
#30 tap by #30
#30 phase out by #60
```

## Rules basis
- Decision 0025 item 3: a phased-out permanent is named by no line but its `phase in`.
- CR 702.26b: "Except for rules and effects that specifically mention phased-out permanents, a phased-out permanent is treated as though it does not exist."
- CR 702.26c: "The game once again treats it as though it exists."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O222",
    "Phased-out permanent named",
    severity=Severity.ERROR,
    decisions=("0025.3",),
    cr=("702.26b", "702.26c"),
    doc=__doc__,
)


@RULE.on(t.ObjectStatement, with_phased=True, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectStatement)
    state = ctx.state
    if isinstance(statement, t.SnapshotObject):
        return
    cause = statement.cause.agent if statement.cause else None
    for ref in statement.objects:
        if ref is cause or ref in statement.replacements:
            continue
        if isinstance(statement, t.Phasing) and ref is statement.subject:
            continue  # its own phase in (or a second phase out, which the state shows)
        obj = state.obj(ref.number)
        if obj is None or not obj.phased_out:
            continue
        ctx.report(
            RULE,
            f"{obj.label()} is phased out and treated as though it does not exist "
            "(CR 702.26b); only its `phase in` names it",
            ref.span,
            related=ctx.where(obj),
        )
