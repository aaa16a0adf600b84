"""A face-down object where it cannot be, turned face up when it is not face down, or
not named when it is shown.

## What it flags
- `face-down` on a line that puts an object anywhere but the battlefield or exile;
- `turn face-up` of an object that is not face down;
- `turn face-up` of a face-down permanent whose name the perspective player does not
  know, without the name on the line (`#N "Name" turn face-up`);
- a face-down permanent whose name the perspective player does not know leaving the
  battlefield without the name on the line.
Decision 0028. Without card data the checker cannot see whether the card may be turned
face up (a morph or disguise cost, a manifested creature card).

## Why
Cards are face down on the battlefield (morph, disguise, manifest, cloak), as spells cast
face down, and in exile (foretell, hideaway) (CR 708.1, 702.143a). Turning a face-down
permanent face up shows it to all players (CR 708.7, 702.37e), and a face-down permanent
that leaves the battlefield is revealed as it moves (CR 708.9): from then on every player
knows its name, so the line gives it (decision 0008 item 4).

## Example
```mtgr
#40 turn face-up
#41 move battlefield -> graveyard by sba
```

## Use instead
```mtgr
#40 "Den Protector" turn face-up
#41 "Hystrodon" move battlefield -> graveyard by sba
```

## Rules basis
- Decision 0028 items 1, 2 and 4: where objects are face down, turning them face up, and
  naming them when every player sees them; decision 0083 item 1: a spell cast with
  `morph` or `disguise` is face down.
- CR 708.1: "Some cards allow spells and permanents to be face down."
- CR 708.7: "The ability or rules that allow a permanent to be face down may also allow the permanent's controller to turn it face up."
- CR 708.9: "If a face-down permanent or a face-down component of a merged permanent moves from the battlefield to any other zone, its owner must reveal it to all players as they move it."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O225",
    "Face-down object not as the rules have it",
    severity=Severity.ERROR,
    decisions=("0028.1", "0028.2", "0028.4", "0083.1"),
    cr=("708.1", "708.7", "708.9"),
    doc=__doc__,
)

_FACE_DOWN_ZONES = frozenset({"battlefield", "exile"})


@RULE.on(t.New, t.Move)
def check_placed(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.New, t.Move))
    if quiet(ctx):
        return
    place = statement.place if isinstance(statement, t.New) else statement.destination
    face_down = statement.face_down
    if face_down is not None and place.zone.value not in _FACE_DOWN_ZONES:
        ctx.report(
            RULE,
            f"nothing is face down in {place.zone.value}: a card is face down on the "
            "battlefield or in exile (CR 708.1)",
            face_down.span,
        )
    if not isinstance(statement, t.Move) or statement.name is not None:
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or not obj.face_down or not obj.hidden or obj.zone != "battlefield":
        return
    if statement.source.zone.value != "battlefield" or place.zone.value == "battlefield":
        return
    ctx.report(
        RULE,
        f"{obj.label()} is face down and is revealed as it leaves the battlefield (CR 708.9): "
        f'name it, `#{obj.number} "Name" move ...`',
        statement.verb.span,
        related=ctx.where(obj),
    )


@RULE.on(t.TurnFaceUp)
def check_turned(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.TurnFaceUp)
    if quiet(ctx):
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return  # O201, O203
    if not obj.face_down:
        ctx.report(
            RULE,
            f"{obj.label()} is face up: only a face-down permanent is turned face up (CR 708.7)",
            statement.verb.span,
            related=ctx.where(obj),
        )
    elif obj.hidden and statement.name is None:
        ctx.report(
            RULE,
            f"turning {obj.label()} face up shows it to every player: name it, "
            f'`#{obj.number} "Name" turn face-up`',
            statement.verb.span,
            related=ctx.where(obj),
        )
