"""A planeswalker that enters with other than its printed loyalty.

## What it flags
The loyalty counters line straight after a planeswalker card enters the battlefield
(`#N counters +K loyalty`) when K is not the card's printed loyalty and the line names no
replacement effect that changes it. Silent without a card index, for a planeswalker
whose printed loyalty is not a number, and for cards with two faces.

Reads: the front face's `type_line` and `loyalty`.

## Why
A planeswalker enters with loyalty counters equal to its printed loyalty (CR 306.5b).
An effect that adds to them, such as a counter doubler, is a replacement effect and the
line names it (decision 0018 item 5).

## Example
```mtgr
#12 "Liliana of the Veil" resolve -> battlefield
#12 counters +4 loyalty
```

## Use instead
```mtgr
#12 "Liliana of the Veil" resolve -> battlefield
#12 counters +3 loyalty
```

## Rules basis
- Decision 0013 item 2, decision 0018 item 5, decision 0050 item 3.
- CR 306.5b: "A planeswalker has the intrinsic ability "This permanent enters with a number of loyalty counters on it equal to its printed loyalty number.""
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "A106",
    "Planeswalker enters without its printed loyalty",
    severity=Severity.ERROR,
    decisions=("0013.2", "0018.5", "0050.3"),
    cr=("306.5b",),
    doc=__doc__,
)


@RULE.on(t.ObjectCounters, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectCounters)
    state = ctx.state
    number = statement.subject.number
    if statement.counter.value != "loyalty" or state.last_entered != number:
        return
    if statement.replacements:
        return
    obj = state.obj(number)
    card = ctx.card(obj, statement.name)
    if obj is None or card is None or len(card.faces) > 1:
        return  # a two-faced card: which face entered, the lines do not say
    if "Planeswalker" not in card.front.types():
        return
    printed = card.front.loyalty
    if printed is None or not printed.isdigit() or int(printed) == statement.delta.value:
        return
    ctx.report(
        RULE,
        f"{obj.label()} enters with {printed} loyalty counters, its printed loyalty, not "
        f"{statement.delta.value}; an effect that changes that is a replacement the line "
        "names (CR 306.5b)",
        statement.delta.span,
        related=ctx.where(obj),
    )
