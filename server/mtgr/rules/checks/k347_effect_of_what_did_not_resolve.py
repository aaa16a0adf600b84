"""An effect of a spell or ability that was countered or did not resolve.

## What it flags
A turn, a draw, a life change, a search, a control change, a destruction, a token or
damage caused by a spell or ability (`by #N`, or the source of the damage) that left the
stack with `countered` or `fizzle` and has not moved since: an extra turn of a countered
Time Walk, the damage of a Lightning Bolt whose target left. A card cast again (with
flashback, after a Remand) moves, and its effects count again; a turn it gave when an
earlier casting resolved comes even after a later casting is countered (CR 500.7).
Nothing is judged in a gap or inside a keyframe.

## Why
A countered spell or ability does not resolve and none of its effects occur (CR 701.6a);
one whose targets all became illegal does not resolve either (CR 608.2b). The record says
so with `countered by` and `fizzle` (decision 0011 items 7 and 8), so a later line that
gives it an effect contradicts the record: the counter did not happen, or the effect has
another cause (a copy, a second casting, a triggered ability of the card).

## Example
```mtgr
#3 cast
#3 pay {1}{U}
#4 cast
#4 target #3
#4 pay {U}{U}
#4 resolve
#3 countered by #4

turn 7 "Alice" by #3
```

## Use instead
```mtgr
#3 cast
#3 pay {1}{U}
#4 cast
#4 target #3
#4 pay {U}{U}
#4 resolve
#3 countered by #4

turn 7 "Bob"
```

## Rules basis
- Decision 0011 item 6: the lines of a resolving object's effects follow its resolve line, each with it as cause.
- Decision 0011 item 7: an object that fizzles does not resolve; none of its effects happen.
- Decision 0011 item 8: `#N countered by C`.
- CR 701.6a: "To counter a spell or ability means to cancel it, removing it from the stack. It doesn't resolve and none of its effects occur."
- CR 608.2b: "are now illegal, the spell or ability doesn't resolve. It's removed from the stack and, if it's a spell, put into its owner's graveyard."
- CR 500.7: "Some effects can give a player extra turns. They do this by adding the turns directly after the specified turn."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import resolution_sources
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "K347",
    "Effect of a spell or ability that did not resolve",
    severity=Severity.ERROR,
    decisions=("0011.6", "0011.7", "0011.8"),
    cr=("701.6a", "608.2b", "500.7"),
    doc=__doc__,
)


@RULE.on(
    t.Turn,
    t.Draw,
    t.Life,
    t.Damage,
    t.Move,
    t.New,
    t.LibraryAction,
    t.Control,
    stages=(Stage.PLAYING,),
    outside_gaps_and_keyframes=True,
)
def check(ctx: Context, statement: t.Statement) -> None:
    # a move other than a destruction is a card's own ability (Emrakul's shuffle), not a
    # resolution's effect
    ref = next((r for r in resolution_sources(statement) if _did_not_resolve(ctx, r.number)), None)
    if ref is not None and isinstance(statement, t.Turn) and _resolved_before(ctx, ref.number):
        return  # the extra turn an earlier casting gave (CR 500.7)
    if ref is None:
        return
    obj = ctx.state.obj(ref.number)
    assert obj is not None
    how = (
        "was countered (CR 701.6a)"
        if obj.unresolved == "countered"
        else "fizzled: all its targets were illegal (CR 608.2b)"
    )
    ctx.report(
        RULE,
        f"{obj.label()} {how}, so none of its effects happen: name the cause that did this, "
        "or write the lines that cast it again and resolve it",
        ref.span,
        related=ctx.where(obj),
    )


def _resolved_before(ctx: Context, number: int) -> bool:
    obj = ctx.state.obj(number)
    return obj is not None and obj.resolved_before


def _did_not_resolve(ctx: Context, number: int) -> bool:
    obj = ctx.state.obj(number)
    return obj is not None and obj.unresolved is not None
