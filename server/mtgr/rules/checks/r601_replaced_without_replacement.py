"""A replaced event written without `replacement`.

## What it flags
A `move ... as discard`, `as destroy`, `as mill` or `as sacrifice` whose destination is
not a graveyard, with no `replacement #N` naming what changed it.

## Why
Discarding, destroying, milling and sacrificing all put the card into its owner's
graveyard (CR 701.9a, 701.8a, 701.17a, 701.21a). When the card goes somewhere else, a
replacement effect changed the event: the line records the modified event, keeps its
cause, and names the object whose replacement effect applied (decision 0018 item 5).

## Example
```mtgr
#4 move hand -> exile as discard by #18
```

## Use instead
```mtgr
#4 move hand -> exile as discard by #18 replacement #15
```

## Rules basis
- Decision 0018 item 5: a replaced event keeps its cause and adds `replacement #N`.
- Decision 0007 item 3: a kind with a destination other than its own is an error unless the line
  lists a replacement.
- CR 614.6: "If an event is replaced, it never happens. A modified event occurs instead, which may in turn trigger abilities."
- CR 701.9a: "To discard a card, move it from its owner's hand to that player's graveyard."
- CR 701.8a: "To destroy a permanent, move it from the battlefield to its owner's graveyard."
- CR 701.17a: "For a player to mill a number of cards, that player puts that many cards from the top of their library into their graveyard."
- CR 701.21a: "To sacrifice a permanent, its controller moves it from the battlefield directly to its owner's graveyard."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "R601",
    "Replaced event without replacement",
    severity=Severity.ERROR,
    decisions=("0018.5", "0007.3"),
    cr=("614.6", "701.9a", "701.8a", "701.17a", "701.21a"),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.kind is None or statement.replacements:
        return
    zone = statement.destination.zone.value
    if zone == "graveyard":
        return
    kind = statement.kind.value
    ctx.report(
        RULE,
        f"{_label(ctx, statement)} goes to {zone} as {kind}: a {kind} puts a card into "
        f"its owner's graveyard, so a replacement effect changed this event; name it with "
        f"`replacement #N` after the cause (decision 0018 item 5)",
        statement.destination.span,
    )


def _label(ctx: Context, statement: t.Move) -> str:
    obj = ctx.state.obj(statement.subject.number)
    return obj.label() if obj is not None else f"#{statement.subject.number}"
