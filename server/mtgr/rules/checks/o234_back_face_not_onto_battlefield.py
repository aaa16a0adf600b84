"""A move with `back` whose destination is not the battlefield.

## What it flags
A `move` line that says `back` (decision 0082), or a `resolve` line (decision 0088), but
puts the card somewhere other than the battlefield. Only a card put onto the battlefield
can enter with its back face up.

## Why
A spell or ability that puts a double-faced card onto the battlefield "transformed" or
"converted" makes it enter with its back face up (CR 712.14a); in every other zone but
the stack a double-faced card has only its front face's characteristics (CR 712.8a), so
`back` there says nothing true.

## Example
```mtgr
#16 move exile -> graveyard back by #40
```

## Use instead
```mtgr
#16 move exile -> battlefield back by #40
```

## Rules basis
- Decision 0082 item 2: `back` is written only on a move onto the battlefield; decision 0088
  item 1: and on a permanent spell's `resolve -> battlefield`.
- CR 712.14a: "If a spell or ability puts a double-faced card onto the battlefield ... it enters the battlefield with its back face up." (transformed or converted)
- CR 712.8a: "While a double-faced card is outside the game or in a zone other than the battlefield or stack, it has only the characteristics of its front face."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O234",
    "Back face up on a move not onto the battlefield",
    severity=Severity.ERROR,
    decisions=("0082.2", "0088.1"),
    cr=("712.14a", "712.8a"),
    doc=__doc__,
)


@RULE.on(t.Move, t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.Move, t.Leave))
    back = statement.back
    if back is None:
        return
    destination = statement.destination
    zone = destination.zone.value if destination is not None else "graveyard"
    if zone == "battlefield":
        return
    verb = statement.verb.value
    ctx.report(
        RULE,
        f"`back` puts a card onto the battlefield with its back face up (CR 712.14a), but this "
        f"{verb} goes to the {zone}; write `-> battlefield back`, or leave `back` out",
        back.span,
    )
