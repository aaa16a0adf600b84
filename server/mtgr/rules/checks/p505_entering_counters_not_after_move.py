"""Counters a permanent is given as it enters are not written straight after its move.

## What it flags
A `#N counters +K KIND by #N` line (counters the permanent gives itself) when the line
before is not the line that put #N onto the battlefield or turned it face up (a
megamorph's counter, CR 702.37b), nor another counters line of #N right after it. Only a permanent that entered in the current step, or in the
pregame, is checked: later counters it gives itself are not entering counters.

## Why
A permanent that enters with counters (Gemstone Caverns' luck counter, a planeswalker's
loyalty, a creature's +1/+1 counters) has them as it enters: they are part of the same
event (CR 122.6). Written anywhere else, the line would say the permanent spent a while
on the battlefield without them, and triggers or effects in between would see the wrong
permanent (decision 0018 item 2).

## Example
```mtgr
#16 move hand -> battlefield by #16
#20 move hand -> exile by #16
#16 counters +1 luck by #16
```

## Use instead
```mtgr
#16 move hand -> battlefield by #16
#16 counters +1 luck by #16
#20 move hand -> exile by #16
```

## Rules basis
- Decision 0018 item 2, decision 0013 item 2; decision 0083 item 2: the counters a permanent gets as it is turned face up follow its `turn face-up` line.
- CR 122.6: "Some spells and abilities refer to counters being put on an object. This refers to putting counters on that object while it's on the battlefield and also to an object that's given counters as it enters the battlefield."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "P505",
    "Entering counters not straight after the move",
    severity=Severity.ERROR,
    decisions=("0018.2", "0013.2", "0083.2"),
    cr=("122.6",),
    doc=__doc__,
)


@RULE.on(t.ObjectCounters)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectCounters)
    number = statement.subject.number
    cause = statement.cause
    if statement.delta.value <= 0 or cause is None or quiet(ctx):
        return
    if not isinstance(cause.agent, t.ObjectRef) or cause.agent.number != number:
        return
    state = ctx.state
    obj = state.obj(number)
    if obj is None or obj.zone != "battlefield" or state.last_entered == number:
        return
    if obj.entered_moment != state.moment:
        return  # it entered in an earlier step: these are not entering counters
    ctx.report(
        RULE,
        f"{obj.label()} is given these counters as it enters: write this line straight after "
        "the line that put it onto the battlefield (decision 0018 item 2, CR 122.6)",
        statement.verb.span,
        related=ctx.where(obj),
    )
