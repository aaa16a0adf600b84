"""A meld of what cannot be melded, or a melded permanent transformed.

## What it flags
`#N meld #M by C` (decision 0065) when N and M are the same object, when either is not a
card (a token, a copy, an emblem), or when either is already part of a melded permanent;
and a `transform` or `convert` of a melded permanent. Without card data the checker cannot
tell whether N and M form a meld pair.

## Why
Only two cards of the same meld pair can be melded; tokens and cards that are not meld
cards cannot (CR 701.42b). Unlike other double-faced cards, meld cards cannot be
transformed or converted, and instructions to do so are ignored (CR 712.4c), so no such
event happens.

## Example
```mtgr
#30 meld #30 by #32
```

## Use instead
```mtgr
#30 meld #31 by #32
```

## Rules basis
- Decision 0065 items 1, 3 and 5: meld, what it applies to, what the checker reports.
- CR 701.42b: "Only two cards belonging to the same meld pair can be melded. Tokens, cards that aren't meld cards, or meld cards that don't form a meld pair can't be melded."
- CR 712.4c: "Unlike other double-faced cards, meld cards cannot be transformed or converted. Any instructions to do so are ignored."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O233",
    "Meld not possible",
    severity=Severity.ERROR,
    decisions=("0065.1", "0065.3", "0065.5"),
    cr=("701.42b", "712.4c"),
    doc=__doc__,
)


@RULE.on(t.Meld)
def check_meld(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Meld)
    if quiet(ctx):
        return
    state = ctx.state
    if statement.other.number == statement.subject.number:
        ctx.report(
            RULE,
            "a meld puts two cards of a meld pair together: name the other card (CR 701.42b)",
            statement.other.span,
        )
        return
    for ref in (statement.subject, statement.other):
        obj = state.obj(ref.number)
        problem = _not_meldable(obj) if obj is not None else None
        if problem is not None and obj is not None:
            ctx.report(RULE, f"{obj.label()} {problem} (CR 701.42b)", ref.span)


def _not_meldable(obj: GameObject) -> str | None:
    if obj.kind is not ObjectKind.CARD:
        return (
            f"is {'an' if obj.kind is ObjectKind.EMBLEM else 'a'} {obj.kind.value}: only cards meld"
        )
    if obj.melded_into is not None or obj.melded_with is not None:
        return "is part of a melded permanent already"
    return None


@RULE.on(t.Transform)
def check_transform(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Transform)
    if quiet(ctx):
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.melded_with is None:
        return
    ctx.report(
        RULE,
        f"{obj.label()} is a melded permanent: meld cards cannot be transformed or converted, "
        "and an instruction to do so is ignored (CR 712.4c)",
        statement.verb.span,
    )
