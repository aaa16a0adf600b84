"""An object introduced in a gap that its keyframe shows somewhere else.

## What it flags
An entry of the keyframe that ends a gap for an object introduced by a `new` line after
`incomplete`, when the entry puts it in another zone, under another player, or at
another library position than the `new` line did; and, at its `end`, an object
introduced in the gap that the keyframe leaves out.

## Why
After `incomplete`, `new` lines introduce objects where the next keyframe shows them
(decision 0019 item 8): the `new` line and the entry describe the same moment, so they
must agree. A difference is a typo in one of them.

## Example
```mtgr
incomplete
#40 new card "Forest" battlefield "Alice"
keyframe
#40 graveyard "Alice"
end
```

## Use instead
```mtgr
incomplete
#40 new card "Forest" graveyard "Alice"
keyframe
#40 graveyard "Alice"
end
```

## Rules basis
- Decision 0019 item 8: `new` lines before the next keyframe introduce objects where that keyframe
  shows them.
- Decision 0015 item 2: the `new` lines of a gap introduce objects where the keyframe shows them:
  the same zone, player and position.
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.describe import holder_of, in_zone, library_position
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, Stage
from mtgr.syntax import tree as t

RULE = define(
    "F904",
    "Gap object shown elsewhere by its keyframe",
    severity=Severity.ERROR,
    decisions=("0015.2", "0019.8"),
    doc=__doc__,
)


@RULE.on(t.SnapshotObject, stages=(Stage.GAP,))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.SnapshotObject)
    state = ctx.state
    if state.in_keyframe is None:
        return
    obj = state.obj(statement.subject.number)
    if obj is None or not obj.introduced_after_gap or obj.zone == GONE:
        return
    if statement.subject.number in state.keyframe_seen:
        return
    place = statement.place
    zone = place.zone.value
    named = place.player.name if place.player is not None else None
    _role, holder = holder_of(obj, obj.zone)
    if obj.zone != zone:
        span = place.zone.span
    elif named is not None and holder is not None and named != holder:
        span = place.player.span if place.player is not None else place.span
    elif zone == "library" and place.position is not None:
        tracked = library_position(state, obj)
        written = f"{place.position.end.value} {place.position.index}"
        if tracked is None or tracked == written:
            return
        span = place.position.end.span
    else:
        return
    shown = _place_words(zone, named, place.position)
    where = _place_words(obj.zone, holder, None)
    if obj.zone == "library":
        tracked = library_position(state, obj)
        where += f" ({tracked})" if tracked else ""
    ctx.report(
        RULE,
        f"{obj.label()} was introduced {where} after `incomplete`, but its keyframe shows it "
        f"{shown}; a `new` line in a gap puts the object where the keyframe shows it",
        span,
        related=(Related(obj.introduced, None, f"{obj.label()} introduced here"),),
    )


def _place_words(zone: str, player: str | None, position: t.Position | None) -> str:
    if zone == "battlefield" and player is not None:
        return f"on the battlefield under {player}'s control"
    words = in_zone(zone, player if zone in ("library", "hand", "graveyard") else None)
    if position is not None:
        words += f" ({position.end.value} {position.index})"
    return words


@RULE.on(t.Marker, stages=(Stage.GAP,))
def check_end(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if statement.verb.value != "end" or state.in_keyframe is None:
        return
    for obj in sorted(state.objects.values(), key=lambda o: o.number):
        if not obj.introduced_after_gap or obj.zone == GONE or obj.number in state.keyframe_seen:
            continue
        _role, holder = holder_of(obj, obj.zone)
        ctx.report(
            RULE,
            f"{obj.label()} was introduced {_place_words(obj.zone, holder, None)} after "
            "`incomplete`, but its keyframe leaves it out; list it in the keyframe, or leave "
            "out the `new` line",
            statement.verb.span,
            related=(Related(obj.introduced, None, f"{obj.label()} introduced here"),),
        )
