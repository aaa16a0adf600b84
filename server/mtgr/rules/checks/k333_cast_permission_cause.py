"""A madness cast without its trigger as cause, or a spell cast by itself.

## What it flags
A `cast ... madness` line that does not name, with `by`, the madness trigger that is
resolving; and a `cast` line whose cause is the cast card itself (`#9 cast flashback by #9`).

## Why
Madness is two abilities: a replacement effect that exiles the discarded card, and a
triggered ability whose resolution lets its owner cast it (CR 702.35a). The spell is cast
while that trigger resolves, so, like a cascade trigger, the trigger is the cause of the
cast (decision 0011 item 1, decision 0045 item 3). A card's own keywords (flashback,
escape, dash, evoke) are permissions of the card, written as the mode and never as a
cause; `by` names only another object whose effect casts the card or lets it be cast
(Snapcaster Mage's trigger giving flashback). One encoding each (decision 0001 item 4).
The quick fix adds the resolving trigger, or removes the card's own number.

## Example
```mtgr
#9 move hand -> exile as discard by #6 replacement #9
#20 trigger of #9
#20 resolve
#9 cast from exile madness
```

## Use instead
```mtgr
#9 move hand -> exile as discard by #6 replacement #9
#20 trigger of #9
#20 resolve
#9 cast from exile madness by #20
```

## Rules basis
- Decision 0045 item 3, decision 0011 item 1.
- CR 702.35a: "Madness is a keyword that represents two abilities. The first is a static ability that functions while the card with madness is in a player's hand. The second is a triggered ability that functions when the first ability is applied."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "K333",
    "Cast with the wrong cause for its permission",
    severity=Severity.ERROR,
    decisions=("0045.3", "0011.1"),
    cr=("702.35a",),
    doc=__doc__,
)


@RULE.on(t.Cast)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Cast)
    if quiet(ctx):
        return
    number = statement.subject.number
    cause = statement.cause
    agent = cause.agent if cause is not None else None
    if isinstance(agent, t.ObjectRef) and agent.number == number:
        ctx.report(
            RULE,
            f"#{number} is cast under its own keyword: that is the mode, not a cause; remove "
            f"`by #{number}` (decision 0045 item 3)",
            agent.span,
        )
        return
    if not any(mode.value == "madness" for mode in statement.modes):
        return
    state = ctx.state
    resolving = state.obj(state.resolving) if state.resolving is not None else None
    trigger = (
        resolving
        if resolving is not None
        and resolving.kind is ObjectKind.ABILITY
        and resolving.source == number
        else None
    )
    if trigger is not None and isinstance(agent, t.ObjectRef) and agent.number == trigger.number:
        return
    advice = (
        f"write `by #{trigger.number}`, the madness trigger resolving"
        if trigger is not None
        else "write it while its madness trigger resolves, with `by` that trigger"
    )
    ctx.report(
        RULE,
        f"#{number} is cast for madness, which its madness trigger allows as it resolves "
        f"(CR 702.35a): {advice} (decision 0045 item 3)",
        statement.verb.span,
    )
