"""An unknown card leaves a hand, or becomes known there, out of number order.

## What it flags
A line that takes a hidden card out of a hand (`move hand -> ...`, `cast`, `play`), or
makes one known in a hand (`identify`, or a name right after the number), when another
hidden card in the same hand has a lower number.

## Why
The perspective player can't tell the unknown cards in another player's hand apart, so
which number leaves first is fixed by the notation, not by the writer: an unknown card
leaving a hand, or becoming known in a hand, is the lowest-numbered hidden object in that
hand (decision 0019 item 2). One rule gives one encoding. Libraries are different: their
tracked cards have positions (CR 400.5).

## Example
```mtgr
"Bob" draw #3
"Bob" draw #4
#4 "Lightning Bolt" cast
```

## Use instead
```mtgr
"Bob" draw #3
"Bob" draw #4
#3 "Lightning Bolt" cast
```

## Rules basis
- Decision 0019 item 2: the lowest-numbered hidden object rule applies only to hands.
- Decision 0008 item 6: an unknown card leaving a hand, or becoming known in a hand, is the
  lowest-numbered hidden object in that hand.
- CR 402.3: "A player can't look at the cards in another player's hand but may count those cards at any time."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "V701",
    "Hidden card out of number order",
    severity=Severity.ERROR,
    decisions=("0019.2", "0008.6"),
    cr=("402.3",),
    doc=__doc__,
)

_LEAVING = (t.Move, t.Cast, t.Play)


@RULE.on(t.ObjectStatement, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectStatement)
    state = ctx.state
    obj = state.objects.get(statement.subject.number)
    if obj is None or obj.zone != "hand" or not obj.hidden or obj.owner is None:
        return
    if isinstance(statement, (t.New, t.AbilityOf, t.SnapshotObject)):
        return
    leaving = False
    if isinstance(statement, _LEAVING):
        source = statement.source
        leaving = (source.zone.value if source is not None else "hand") == "hand"
    known = isinstance(statement, t.Identify) or statement.name is not None
    if not (leaving or known):
        return
    lowest = state.hidden_in_hand(obj.owner)[0]
    if lowest == obj.number:
        return
    lowest_obj = state.obj(lowest)
    assert lowest_obj is not None
    what = "leaves" if leaving else "becomes known in"
    rule = "leaving a hand" if leaving else "becoming known in a hand"
    ctx.report(
        RULE,
        f"#{obj.number} {what} {obj.owner}'s hand, but #{lowest} is the lowest-numbered "
        f"hidden card there; an unknown card {rule} is written as the lowest-numbered "
        f"one: #{lowest}",
        statement.subject.span,
        related=ctx.where(lowest_obj),
    )
