"""A spell cast from a graveyard with flashback, jump-start, harmonize or aftermath that
leaves the stack to another zone than exile.

## What it flags
A `resolve`, `fizzle` or `countered` line of a spell cast from a graveyard with the cast
mode `flashback`, `jump-start`, `harmonize` or `aftermath` (decision 0081) whose
destination is not exile (`#N resolve` alone goes to the graveyard), without
`replacement #R`.

## Why
Each of these keywords exiles the card instead of putting it anywhere else any time it
would leave the stack (CR 702.34a, 702.133a, 702.180a, 702.127a): resolved, countered or
without legal targets, it goes to exile, and cannot be cast from the graveyard again.
Another destination takes a replacement effect the record names (decision 0040).

## Example
```mtgr
#3 cast from graveyard flashback
#3 resolve
```

## Use instead
```mtgr
#3 cast from graveyard flashback
#3 resolve -> exile
```

## Rules basis
- Decision 0081 item 1: every way to cast a spell is a cast mode on its `cast` line; decision 0040 item 1: an event a replacement effect changed names it.
- CR 702.34a: "If the flashback cost was paid, exile this card instead of putting it anywhere else any time it would leave the stack."
- CR 702.133a: "If this spell was cast using its jump-start ability, exile this card instead of putting it anywhere else any time it would leave the stack."
- CR 702.180a: "If the harmonize cost was paid, exile this card instead of putting it anywhere else any time it would leave the stack."
- CR 702.127a: "If this spell was cast from a graveyard, exile it instead of putting it anywhere else any time it would leave the stack."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import leaves_stack_elsewhere, quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "K335",
    "Spell cast from a graveyard not exiled",
    severity=Severity.ERROR,
    decisions=("0081.1", "0040.1"),
    cr=("702.34a", "702.133a", "702.180a", "702.127a"),
    doc=__doc__,
)


@RULE.on(t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Leave)
    if statement.replacements or quiet(ctx):
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "stack" or not obj.exiled_from_stack:
        return
    where = leaves_stack_elsewhere(statement)
    if where is None:
        return
    ctx.report(
        RULE,
        f"{obj.label()} was cast from a graveyard with a keyword that exiles it whenever it "
        "would leave the stack (flashback, jump-start, harmonize, aftermath: CR 702.34a, "
        f"702.133a, 702.180a, 702.127a); write `{statement.verb.value} -> exile`",
        where,
        related=ctx.where(obj),
    )
