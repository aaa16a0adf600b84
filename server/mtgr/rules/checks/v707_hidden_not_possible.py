"""A `hidden` line for a card that cannot become hidden.

## What it flags
`#N hidden` (decision 0100) when #N is not a card in a hand, is hidden already, or is in
the perspective player's own hand; and any `hidden` line in a record from `perspective
all`.

## Why
The perspective player loses track of a card only in another player's hand, whose cards
they may count but not look at (CR 402.3): once that hand mixed the known card with
cards they did not see, they cannot tell which is which. They always see their own hand,
and a card in a public zone or on the stack stays known (decision 0008 item 8). A card
that is hidden already needs no line.

## Example
```mtgr
perspective "Alice"
"Alice" draw #1 "Brainstorm"
#1 hidden
```

## Use instead
```mtgr
perspective "Alice"
"Bob" draw #9
#9 "Force of Will" reveal by #1
#9 hidden by #8
```

## Rules basis
- Decision 0100 item 1: `#N hidden [by C]`, a known card in a player's hand becomes hidden.
- Decision 0100 item 2: only in another player's hand, and not under `perspective all`.
- Decision 0008 item 8: a known object stays known, unless a `hidden` line says otherwise.
- CR 402.3: "A player can't look at the cards in another player's hand but may count those cards at any time."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE
from mtgr.syntax import tree as t

RULE = define(
    "V707",
    "Card made hidden that cannot be",
    severity=Severity.ERROR,
    decisions=("0100.1", "0100.2", "0008.8"),
    cr=("402.3",),
    doc=__doc__,
)


@RULE.on(t.Hidden)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201, O204
    if state.perspective == "":
        problem = (
            "the record is from every player's perspective (`perspective all`): no card is hidden"
        )
    elif obj.zone != "hand":
        problem = f"{obj.label()} is {where_is(state, obj)}: only a card in a hand becomes hidden"
    elif obj.hidden:
        problem = f"{obj.label()} is hidden already"
    elif state.perspective == obj.owner:
        problem = f"{obj.label()} is in {obj.owner}'s own hand, which {obj.owner} sees (CR 402.3)"
    else:
        return
    ctx.report(RULE, f"{problem}; delete the line", statement.verb.span, related=ctx.where(obj))
