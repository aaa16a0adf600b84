"""An object is not where the line says it is, or not where the line's action can happen.

## What it flags
- `move ZONE -> ...` for an object that is not in that zone, or whose owner (controller
  on the battlefield) is not the player named after the zone;
- `cast` or `play` of an object that is not in the zone given after `from` (hand when
  none is given);
- `resolve`, `fizzle`, `countered` or `target` for an object that is not on the stack;
- `tap`, `untap`, `attack` or `block` for an object not on the battlefield, and `control`
  for one neither on the battlefield nor on the stack (decision 0105);
- `counters` on a card in a library or a hand;
- `reveal` of an object that is not in a hand or a library, nor face down (a face-down
  permanent or exiled card is revealed where it is: CR 708.12);
- `damage` to an object that is not on the battlefield (unless it is a target of the
  resolving spell or ability that left its zone since: K344 and K331 judge those).

## Why
The checker rebuilds where every object is. A line that takes an object from a zone it
is not in describes a game that did not happen: usually the number is wrong, or a line
that moved the object is missing. Only the object on the stack can resolve (CR 608.1)
or be targeted for (CR 601.2c); only permanents can be tapped, attack and block
(CR 701.26a, 508.1a), and be dealt damage (CR 120.1); revealing shows a card from a
hidden zone, or a face-down card where it is (CR 701.20b, 708.12).

## Example
```mtgr
#21 move hand -> exile by #18
#21 move hand -> graveyard as discard by #30
```

## Use instead
```mtgr
#21 move hand -> exile by #18
#22 move hand -> graveyard as discard by #30
```

## Rules basis
- Decision 0007 item 1: FROM is the zone the object is in.
- Decision 0006 item 3: a player written on the side a move comes from must agree with where the
  object is.
- Decision 0011 items 4 and 6: targets are given for the spell or ability on the stack; the object
  on top of the stack resolves.
- Decision 0105 item 1: `control` stands for a spell on the stack too.
- CR 400.7: "An object that moves from one zone to another becomes a new object with no memory of, or relation to, its previous existence."
- CR 601.2a: "To propose the casting of a spell, a player first moves that card (or that copy of a card) from where it is to the stack."
- CR 608.1: "Each time all players pass in succession, the spell or ability on top of the stack resolves."
- CR 701.26a: "To tap a permanent, turn it sideways from an upright position."
- CR 110.1: "A permanent is a card or token on the battlefield."
- CR 701.20b: "Revealing a card doesn't cause it to leave the zone it's in."
- CR 120.1: "Objects can deal damage to battles, creatures, planeswalkers, and players."
- CR 708.12: "If a spell or ability that instructs a player to reveal a face-down permanent needs information about the revealed object, it uses the characteristics of that object ignoring any continuous effects that may be applying to it."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import KIND_SOURCE, holder_of, in_zone, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, GameObject, target_illegal
from mtgr.syntax import tree as t

RULE = define(
    "O203",
    "Object not where the line says",
    severity=Severity.ERROR,
    decisions=("0007.1", "0006.3", "0011.4", "0011.6", "0105.1"),
    cr=("400.7", "601.2a", "608.1", "701.26a", "110.1", "701.20b", "120.1", "708.12"),
    doc=__doc__,
)

# the zone a line needs its object in
_ZONE_NEEDED: dict[type, str] = {
    t.Leave: "stack",
    t.Target: "stack",
    t.TapChange: "battlefield",
    t.Attack: "battlefield",
    t.Block: "battlefield",
    t.Control: "battlefield",
}
_WHY = {
    "resolve": "only the object on top of the stack resolves",
    "fizzle": "only the object on top of the stack fizzles",
    "countered": "only a spell or ability on the stack can be countered",
    "target": "targets are chosen for a spell or ability as it is put on the stack",
    "tap": "only a permanent can be tapped",
    "untap": "only a permanent can be untapped",
    "attack": "only a creature on the battlefield attacks",
    "block": "only a creature on the battlefield blocks",
    "control": "control changes are for permanents and spells (decision 0105)",
}


@RULE.on(
    t.Damage,
    t.Move,
    t.Cast,
    t.Play,
    t.Leave,
    t.Target,
    t.TapChange,
    t.Attack,
    t.Block,
    t.Control,
    t.ObjectCounters,
    t.Reveal,
    outside_gaps_and_keyframes=True,
)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectStatement)
    if isinstance(statement, t.Damage):
        _check_recipient(ctx, statement)
        return
    obj = ctx.state.objects.get(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201 and O204 report those
    kind = type(statement)  # the types registered have no subclasses
    if kind is t.Move or kind is t.Cast or kind is t.Play:
        _check_source(ctx, statement, obj)  # type: ignore[arg-type]
        return
    wanted = _ZONE_NEEDED.get(kind)
    if wanted is not None:
        if obj.zone != wanted and not (kind is t.Control and obj.zone == "stack"):
            where = f"on the {wanted}"
            verb = statement.verb
            _report(ctx, obj, where, verb.span, _WHY[verb.value])
    elif kind is t.ObjectCounters:
        if obj.zone in ("library", "hand"):
            ctx.report(
                RULE,
                f"{obj.label()} is {where_is(ctx.state, obj)}: counters can't be put on or "
                "removed from a card in a hidden zone",
                statement.verb.span,
                related=ctx.where(obj),
            )
    elif kind is t.Reveal and obj.zone not in ("hand", "library") and not obj.face_down:
        _report(
            ctx,
            obj,
            "in a hand or a library",
            statement.verb.span,
            "only a card in a hidden zone is revealed",
        )


def _check_source(ctx: Context, statement: t.Move | t.Cast | t.Play, obj: GameObject) -> None:
    source = statement.source
    zone = source.zone.value if source is not None else "hand"
    span = source.span if source is not None else statement.verb.span
    kind = statement.kind.value if isinstance(statement, t.Move) and statement.kind else None
    if kind is not None and KIND_SOURCE[kind] != zone:
        return  # R602: the kind does not fit the zone written
    if obj.zone != zone:
        verb = statement.verb.value
        how = (
            ""
            if source is not None or verb == "move"
            else f" ({verb} takes it from a hand unless `from ZONE` says otherwise)"
        )
        _report(ctx, obj, in_zone(zone), span, "", suffix=how)
        return
    named = source.player if source is not None else None
    if named is None:
        return
    role, holder = holder_of(obj, zone)
    if holder is not None and holder != named.name:
        ctx.report(
            RULE,
            f"{obj.label()} is {where_is(ctx.state, obj)}, not {in_zone(zone, named.name)}: "
            f"its {role} is {holder}",
            named.span,
            related=ctx.where(obj),
        )


def _report(
    ctx: Context, obj: GameObject, wanted: str, span: t.Span, why: str, suffix: str = ""
) -> None:
    message = f"{obj.label()} is {where_is(ctx.state, obj)}, not {wanted}{suffix}"
    if why:
        message += f"; {why}"
    ctx.report(RULE, message, span, related=ctx.where(obj))


def _check_recipient(ctx: Context, statement: t.Damage) -> None:
    """Damage goes to permanents and players: a card in another zone is dealt none."""
    recipient = statement.recipient
    if not isinstance(recipient, t.ObjectRef):
        return
    state = ctx.state
    obj = state.objects.get(recipient.number)
    if obj is None or obj.zone in (GONE, "battlefield"):
        return
    resolving = state.obj(state.resolving) if state.resolving is not None else None
    if resolving is not None and any(
        mark[0] == obj.number and target_illegal(state, mark) for mark in resolving.targets
    ):
        return  # a target that left its zone: K344's and K331's
    _report(ctx, obj, "on the battlefield", recipient.span, "only a permanent is dealt damage")
