"""A flip of what is not an unflipped permanent.

## What it flags
`#N flip` (decision 0064) when, in the rebuilt state, #N is not on the battlefield, or is
a permanent that has already flipped since it entered. Without card data the checker
cannot tell whether #N is a flip card.

## Why
A flip card's alternative characteristics are used only while its permanent is on the
battlefield and flipped (CR 710.1b); flipping is one way, so a flipped permanent cannot
flip again, and one that leaves the battlefield forgets it was flipped (CR 710.4).

## Example
```mtgr
#7 flip by #7
#7 flip by #7
```

## Use instead
```mtgr
#7 flip by #7
```

## Rules basis
- Decision 0064 items 3 and 5: flipping, and what the checker reports.
- CR 710.1b: "These characteristics are used only if the permanent is on the battlefield and only if the permanent is flipped."
- CR 710.4: "Flipping a permanent is a one-way process. Once a permanent is flipped, it's impossible for it to become unflipped."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE
from mtgr.syntax import tree as t

RULE = define(
    "O232",
    "Flip not possible",
    severity=Severity.ERROR,
    decisions=("0064.3", "0064.5"),
    cr=("710.1b", "710.4"),
    doc=__doc__,
)


@RULE.on(t.Flip)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    assert isinstance(statement, t.Flip)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201, O204
    if obj.zone != "battlefield":
        problem = f"{obj.label()} is {where_is(ctx.state, obj)}: only a permanent flips"
    elif obj.flipped:
        problem = f"{obj.label()} has flipped already: flipping is one way"
    else:
        return
    ctx.report(RULE, f"{problem} (CR 710.1b, 710.4)", statement.verb.span, related=ctx.where(obj))
