"""A transform or convert of an object that is not a permanent.

## What it flags
A `transform` or `convert` line (decision 0029) for an object that is not on the
battlefield. Without card data the checker cannot see whether the permanent is a
double-faced card or token, nor a meld card, which cannot transform (CR 712.4c).

## Why
To transform a permanent is to turn it over so that its other face is up; only
permanents represented by double-faced cards or tokens can transform or convert
(CR 701.27a, 712.9). A card in another zone has only its front face's characteristics
(CR 712.8a).

## Example
```mtgr
#30 move battlefield -> graveyard by sba
#30 transform by #31
```

## Use instead
```mtgr
#30 transform by #31
#30 move battlefield -> graveyard by sba
```

## Rules basis
- Decision 0029 item 1: `transform` and `convert` turn a double-faced permanent over.
- CR 701.27a: "To transform a permanent, turn it over so that its other face is up."
- CR 712.8a: "While a double-faced card is outside the game or in a zone other than the battlefield or stack, it has only the characteristics of its front face."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE
from mtgr.syntax import tree as t

RULE = define(
    "O226",
    "Transform of something not on the battlefield",
    severity=Severity.ERROR,
    decisions=("0029.1",),
    cr=("701.27a", "712.8a"),
    doc=__doc__,
)


@RULE.on(t.Transform)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    assert isinstance(statement, t.Transform)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone in ("battlefield", GONE):
        return  # O201, O204
    ctx.report(
        RULE,
        f"{obj.label()} is {where_is(ctx.state, obj)}: only a permanent transforms or converts "
        "(CR 701.27a)",
        statement.verb.span,
        related=ctx.where(obj),
    )
