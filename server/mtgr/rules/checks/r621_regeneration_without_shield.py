"""A regeneration that does not name the effect that regenerated.

## What it flags
A `regenerate` line (decision 0027) with no `replacement #R`, or with no cause.

## Why
Regeneration is a replacement effect: the destruction it replaces never happens, and the
permanent's damage is removed and it is tapped instead (CR 701.19a, 614.8). Like every
replaced event (decision 0018 item 5), the line keeps the cause of the destruction it
replaced (`by sba` for lethal damage, `by #N` for a spell) and names the regeneration
shield's object after `replacement`.

## Example
```mtgr
#41 regenerate by sba
```

## Use instead
```mtgr
#41 regenerate by sba replacement #50
```

## Rules basis
- Decision 0027 item 2: `#N regenerate by C replacement #R`.
- Decision 0018 item 5: a replaced event keeps its original cause and adds `replacement #N`.
- CR 701.19a: "If the effect of a resolving spell or ability regenerates a permanent, it creates a replacement effect that protects the permanent the next time it would be destroyed this turn."
- CR 614.8: "Regeneration is a destruction-replacement effect."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "R621",
    "Regeneration without its shield",
    severity=Severity.ERROR,
    decisions=("0027.2", "0018.5"),
    cr=("701.19a", "614.8"),
    doc=__doc__,
)


@RULE.on(t.Regenerate)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    if statement.cause is None:
        ctx.report(
            RULE,
            "a regeneration replaces a destruction: write what would have destroyed it, "
            "`by sba` or `by #N`, then `replacement #R`",
            statement.verb.span,
        )
    elif not statement.replacements:
        ctx.report(
            RULE,
            "name the regeneration shield's object: `replacement #R` after the cause "
            "(decision 0018 item 5)",
            statement.verb.span,
        )
