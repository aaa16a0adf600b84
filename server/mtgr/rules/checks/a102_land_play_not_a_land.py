"""A card played as a land that is not a land card.

## What it flags
A `play` line for a card none of whose faces is a land (a modal double-faced card with a
land face may be played as that land). Silent without a card index, for a hidden card,
and for a name the index does not know (A101 says so).

Reads: each face's `type_line`.

## Why
Playing a land is the special action of putting a land card onto the battlefield
(CR 305.1); any other card is cast, and its line is `cast` (decision 0011 item 2).

## Example
```mtgr
phase main
#9 "Lightning Bolt" play
```

## Use instead
```mtgr
phase main
#9 "Mountain" play
```

## Rules basis
- Decision 0011 item 2, decision 0050 item 3.
- CR 305.1: "A player who has priority may play a land card from their hand during a main phase of their turn when the stack is empty."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "A102",
    "Played card is not a land",
    severity=Severity.ERROR,
    decisions=("0011.2", "0050.3"),
    cr=("305.1",),
    doc=__doc__,
)


@RULE.on(t.Play, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Play)
    obj = ctx.state.obj(statement.subject.number)
    card = ctx.card(obj, statement.name)
    if card is None or card.any_face_has_type("Land"):
        return
    ctx.report(
        RULE,
        f"#{statement.subject.number} ({card.name}) is not a land card ({card.front.type_line}), "
        "so it cannot be played as a land; a spell is cast (CR 305.1)",
        statement.verb.span,
    )
