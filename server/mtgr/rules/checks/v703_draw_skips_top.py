"""A draw that skips the tracked top card of the library.

## What it flags
A `draw` when the top card of the player's library is a tracked object (introduced with
`new ... top 1`, or put there by a move; or, once the library holds only the cards
tracked at its bottom, the highest of them) and the draw names another number.

## Why
A player draws the top card of their library (CR 121.1). Tracked cards in a library keep
their positions and are not interchangeable (CR 400.5, decision 0019 items 2 and 3), so
when the top card is known to the record, the draw takes that object, with its number.

## Example
```mtgr
#41 new card "Mycospawn" library "Alice" top 1
"Alice" draw #42
```

## Use instead
```mtgr
#41 new card "Mycospawn" library "Alice" top 1
"Alice" draw #41
```

## Rules basis
- Decision 0019 items 2 and 3: tracked library cards have positions; cards looked at from the top
  are recorded as the top cards.
- Decision 0006 item 6: a draw takes the tracked card at `top 1` of the library if there is one.
- CR 121.1: "A player draws a card by putting the top card of their library into their hand."
- CR 400.5: "The order of objects in a library, in a graveyard, or on the stack can't be changed except when effects or rules allow it."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "V703",
    "Draw skips the tracked top card",
    severity=Severity.ERROR,
    decisions=("0019.2", "0019.3", "0006.6"),
    cr=("121.1", "400.5"),
    doc=__doc__,
)


@RULE.on(t.Draw, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Draw)
    name = statement.subject.name
    player = ctx.state.player(name)
    top = player.library.top_card() if player is not None else None
    if top is None or top == statement.drawn.number:
        return
    top_obj = ctx.state.obj(top)
    label = top_obj.label() if top_obj is not None else f"#{top}"
    ctx.report(
        RULE,
        f"{name} draws #{statement.drawn.number}, but {label} is the tracked top card of "
        f"{name}'s library; a draw takes the top card: draw #{top}",
        statement.drawn.span,
        related=ctx.where(top_obj) if top_obj is not None else (),
    )
