"""The same object listed twice after `replacement`.

## What it flags
A line whose `replacement` list names one object more than once:
`replacement #15 #15`.

## Why
The list names the objects whose replacement effects changed the event, in the order
they applied (decision 0018 item 5, CR 616.1). A replacement effect gets only one
opportunity to affect an event (CR 614.5), so an object's effect can't apply to it twice.

## Example
```mtgr
#4 move hand -> exile as discard by #18 replacement #15 #15
```

## Use instead
```mtgr
#4 move hand -> exile as discard by #18 replacement #15
```

## Rules basis
- Decision 0018 item 5: several replacements are listed in the order applied.
- CR 614.5: "A replacement effect doesn't invoke itself repeatedly; it gets only one opportunity to affect an event or any modified events that may replace that event."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "R603",
    "Replacement listed twice",
    severity=Severity.ERROR,
    decisions=("0018.5",),
    cr=("614.5", "616.1"),
    doc=__doc__,
)


@RULE.on(t.Statement, with_replacements=True)
def check(ctx: Context, statement: t.Statement) -> None:
    seen: set[int] = set()
    for ref in statement.replacements:
        if ref.number in seen:
            ctx.report(
                RULE,
                f"#{ref.number} is already listed as a replacement on this line; a replacement "
                "effect applies to an event at most once (CR 614.5): list it once",
                ref.span,
            )
        seen.add(ref.number)
