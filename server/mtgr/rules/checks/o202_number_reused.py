"""An object number used again for a new object.

## What it flags
A line that introduces an object (`new`, `draw`, `activate of`, `trigger of`) with a
number that an earlier line of the file already gave to an object, in this game or an
earlier one. A draw that takes the tracked top card of the library, with that card's
number, is not a reuse.

## Why
Every object has its own number for the whole file, so that each line says exactly
which object it means (decision 0004). An object that changes zones becomes a new
object (CR 400.7), and a card that went back to the untracked part of a library (a
shuffle, a mulligan) is no longer tracked: a card drawn or found later is a new object
and needs a new number.

## Example
```mtgr
"Alice" draw #8 "Lightning Bolt"
#9 activate of #5
#8 new card "Swamp" library "Alice" top 1
```

## Use instead
```mtgr
"Alice" draw #8 "Lightning Bolt"
#9 activate of #5
#10 new card "Swamp" library "Alice" top 1
```

## Rules basis
- Decision 0004 items 1 and 2: one number for one object.
- Decision 0004 item 5: a number ends when its object ceases to exist or returns to the untracked
  part of a library.
- CR 400.7: "An object that moves from one zone to another becomes a new object with no memory of, or relation to, its previous existence."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, Stage
from mtgr.syntax import tree as t

RULE = define(
    "O202",
    "Object number reused",
    severity=Severity.ERROR,
    decisions=("0004.1", "0004.2", "0004.5"),
    cr=("400.7",),
    doc=__doc__,
)


@RULE.on(t.New, t.AbilityOf, t.Draw)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.in_keyframe is not None or (
        state.stage is Stage.GAP and not isinstance(statement, t.New)
    ):
        return  # F902 and F903 report lines out of place there
    if isinstance(statement, t.Draw):
        ref = statement.drawn
        player = state.player(statement.subject.name)
        if player is not None and player.library.top_card() is not None:
            return  # the tracked top card is drawn, or V703 reports the skipped one
    else:
        assert isinstance(statement, t.ObjectStatement)
        ref = statement.subject
    number = ref.number
    if not state.number_used(number):
        return
    obj = state.obj(number)
    fix = f"give the new object a number of its own (next free: #{state.next_free_number()})"
    if obj is None:
        ctx.report(RULE, f"#{number} was used in an earlier game of this file; {fix}", ref.span)
        return
    if obj.zone == GONE and obj.gone_by:
        ctx.report(
            RULE,
            f"#{number} was {obj.gone_by} and is no longer tracked; a card drawn or found "
            f"later is a new object (CR 400.7): {fix}",
            ref.span,
            related=ctx.where(obj),
        )
        return
    where = "has ceased to exist" if obj.zone == GONE else f"is {where_is(state, obj)}"
    ctx.report(
        RULE,
        f"{obj.label()} already exists and {where}; {fix}",
        ref.span,
        related=ctx.where(obj),
    )
