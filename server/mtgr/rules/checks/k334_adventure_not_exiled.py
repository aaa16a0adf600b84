"""A spell cast as an Adventure that resolves to another zone than exile.

## What it flags
A `resolve` line of a spell cast with `cast adventure` (decision 0064) whose destination
is not exile (`#N resolve` alone goes to the graveyard), without `replacement #R`.
Countered or fizzled, an Adventure goes to the graveyard as any spell, and is not flagged.

## Why
Instead of putting a spell cast as an Adventure into its owner's graveyard as it resolves,
its controller exiles it, and may then cast it from exile (CR 715.3d). Another destination
takes a replacement effect the record names (decision 0040).

## Example
```mtgr
#2 cast adventure
#2 resolve
```

## Use instead
```mtgr
#2 cast adventure
#2 resolve -> exile
```

## Rules basis
- Decision 0064 item 2: an Adventure resolves into exile.
- CR 715.3d: "Instead of putting a spell that was cast as an Adventure into its owner's graveyard as it resolves, its controller exiles it."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import leaves_stack_elsewhere, quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "K334",
    "Adventure not exiled as it resolves",
    severity=Severity.ERROR,
    decisions=("0064.2",),
    cr=("715.3d",),
    doc=__doc__,
)


@RULE.on(t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Leave)
    if statement.verb.value != "resolve" or statement.replacements or quiet(ctx):
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "stack" or not obj.adventure:
        return
    where = leaves_stack_elsewhere(statement)
    if where is None:
        return
    ctx.report(
        RULE,
        f"{obj.label()} was cast as an Adventure: as it resolves its controller exiles it "
        f"instead of putting it into the graveyard (CR 715.3d); write `resolve -> exile`",
        where,
        related=ctx.where(obj),
    )
