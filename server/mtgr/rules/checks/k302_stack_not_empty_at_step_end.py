"""A step or phase ends while the stack is not empty.

## What it flags
A `turn`, `phase` or `step` line while objects are still on the stack: a spell or
ability that was never recorded resolving, fizzling or being countered. It is reported
once, at the first such line; an object left on the stack is not reported again at
each later step.

## Why
A phase or step ends only when the stack is empty and all players pass in succession
(CR 500.2); the steps without priority (untap, most cleanup steps) have no stack to
speak of (CR 500.3). So every spell and ability put on the stack during a step leaves
it before the step ends, and the line that says how is missing.

## Example
```mtgr
#22 cast
step end
```

## Use instead
```mtgr
#22 cast
#22 resolve
step end
```

## Rules basis
- Decision 0010 item 6.
- CR 500.2: "A phase or step in which players receive priority ends when the stack is empty and all players pass in succession."
- CR 500.3: "A step in which no players receive priority ends when all specified actions that take place during that step are completed."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER
from mtgr.syntax import tree as t

RULE = define(
    "K302",
    "Stack not empty when a step or phase ends",
    severity=Severity.ERROR,
    decisions=("0010.6",),
    cr=("500.2", "500.3"),
    doc=__doc__,
)


@RULE.on(t.Turn, t.PhaseOrStep, stages=NOT_OVER, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if not state.stack:
        return
    objects = [o for n in reversed(state.stack) if (o := state.obj(n)) is not None]
    if not any(o.entered_moment == state.moment for o in objects):
        return  # all of them were already on the stack at the last step boundary: reported there
    names = ", ".join(o.label() for o in objects)
    verb = "is" if len(objects) == 1 else "are"
    related = tuple(
        Related(o.last_moved or o.introduced, None, f"{o.label()} put on the stack here")
        for o in objects
    )
    ctx.report(
        RULE,
        f"{names} {verb} still on the stack (top first): a step or phase ends only with the stack "
        "empty (CR 500.2); record how each leaves it (`resolve`, `fizzle`, `countered by`) "
        "before this line",
        statement.verb.span,
        related=related,
    )
