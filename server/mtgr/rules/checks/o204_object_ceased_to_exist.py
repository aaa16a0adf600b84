"""A line about an object that has ceased to exist or is no longer tracked.

## What it flags
A line whose subject is an object that is gone: a token that left the battlefield, a
copy of a spell that left the stack, an ability that resolved or was countered, or a
card that went back to the untracked part of a library (a shuffle, a mulligan, a move
into a library with no position, or left out of the keyframe after a gap). The lines
that record a resolution (`choose`, `pay`, `damage`, `effect` right after `resolve`)
may still name the ability or copy that is resolving, and a `damage` line may name as
its source the gone object whose ability is resolving (a Devil token's dies trigger).

## Why
A token in a zone other than the battlefield ceases to exist (CR 111.7, 704.5d), and so
does a copy of a spell off the stack (CR 704.5e, 707.10a) and an ability that finished
resolving (CR 608.2n). Nothing can happen to them afterwards. A card shuffled into a
library is indistinguishable from the others (CR 400.5): a card drawn or found later is
a new object (CR 400.7) and gets a new number.

## Example
```mtgr
#28 new card "Swamp" library "Alice" top 1
"Alice" shuffle library by #27
#28 move library -> hand by #30
```

## Use instead
```mtgr
#28 new card "Swamp" library "Alice" top 1
"Alice" shuffle library by #27
#31 new card "Swamp" library "Alice" top 1
#31 move library -> hand by #30
```

## Rules basis
- Decision 0019 item 9: copies that cease to exist are CR 704.5e and 707.10a.
- Decision 0019 item 2: an unknown card leaving a library is a new object from the untracked pool.
- Decision 0004 item 5: a later statement about a number that ended is an error; it may still be
  named as a cause, or as the source of an ability.
- Decision 0014 item 4: a token off the battlefield, a copy of a spell off the stack, an ability
  once it has left the stack cease to exist.
- Decision 0006 item 7: a shuffle or a mulligan returns tracked cards to the untracked pool, and
  their numbers end.
- CR 111.7: "A token that's in a zone other than the battlefield ceases to exist."
- CR 704.5d: "If a token is in a zone other than the battlefield, it ceases to exist."
- CR 704.5e: "If a copy of a spell is in a zone other than the stack, it ceases to exist."
- CR 707.10a: "If a copy of a spell is in a zone other than the stack, it ceases to exist."
- CR 608.2n: "As the final part of an ability's resolution, the ability is removed from the stack and ceases to exist."
- CR 400.7: "An object that moves from one zone to another becomes a new object with no memory of, or relation to, its previous existence."
- CR 113.7a: "Once activated or triggered, an ability exists on the stack independently of its source."
"""

from mtgr.rules.apply import by_sba
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O204",
    "Object ceased to exist",
    severity=Severity.ERROR,
    decisions=("0004.5", "0014.4", "0019.9", "0019.2", "0006.7"),
    cr=("111.7", "704.5d", "704.5e", "707.10a", "608.2n", "400.7", "113.7a"),
    doc=__doc__,
)

# Lines that record what a resolving object does (CR 608.2c).
_RESOLUTION = (t.Choose, t.Pay, t.Damage, t.Effect)
# Lines that introduce their subject, and keyframe entries (F901 compares those).
_NOT_SUBJECT = (t.New, t.AbilityOf, t.SnapshotObject)


@RULE.on(t.ObjectStatement, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectStatement)
    obj = ctx.state.objects.get(statement.subject.number)
    if obj is None or obj.zone != GONE or isinstance(statement, _NOT_SUBJECT):
        return
    if obj.number == ctx.state.resolving and isinstance(statement, _RESOLUTION):
        return
    if isinstance(statement, t.Damage) and _source_of_the_resolving_ability(ctx, obj.number):
        return  # a dies trigger's damage, dealt by the token as it last existed (CR 113.7a)
    if obj.number in ctx.state.left_with_sba and by_sba(statement):
        return  # a state-based action of the event its owner lost in (CR 704.3)
    if obj.kind is ObjectKind.TOKEN:
        what = "is a token that left the battlefield and ceased to exist (CR 111.7, 704.5d)"
    elif obj.kind is ObjectKind.COPY:
        what = "is a copy of a spell that left the stack and ceased to exist (CR 704.5e, 707.10a)"
    elif obj.kind is ObjectKind.ABILITY:
        what = "left the stack and ceased to exist (CR 608.2n)"
    elif obj.melded_into is not None:
        what = (
            f"is one of the two cards of the melded permanent #{obj.melded_into}: write "
            f"#{obj.melded_into} (CR 712.4a)"
        )
    else:
        how = obj.gone_by or "put back into a library with no known position"
        what = (
            f"was {how} and is no longer tracked; a card drawn or found later is a new "
            "object with a new number (CR 400.7)"
        )
    ctx.report(
        RULE,
        f"{obj.label()} {what}",
        statement.subject.span,
        related=ctx.where(obj),
    )


def _source_of_the_resolving_ability(ctx: Context, number: int) -> bool:
    resolving = ctx.state.obj(ctx.state.resolving) if ctx.state.resolving is not None else None
    return (
        resolving is not None
        and resolving.kind is ObjectKind.ABILITY
        and resolving.source == number
    )
