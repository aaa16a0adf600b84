"""A creature without first strike deals combat damage in the first-strike damage step.

## What it flags
A combat `damage` line in the first combat damage step of a combat, when another line of
that step has a creature of the other kind deal combat damage: one whose face up lists
first strike or double strike, one that has neither. The first step is only for the
first, the others deal their damage in a second `step combat-damage`. A first-strike step
in which nothing happens may be left out (a first striker whose blocker died deals no
damage), so a step where only creatures without first strike deal damage is not
reported. Silent without a card index, for a face-down creature or a card the index does
not know, and whenever the lines show something that could give the creature first
strike or double strike (a lasting effect on it, a permanent's text, an instant or
sorcery in a graveyard or exile that mentions them) or take the other creature's away
(any lasting effect on it).

## Why
If at least one attacking or blocking creature has first strike or double strike as the
combat damage step begins, only those creatures assign combat damage in it, and the phase
gets a second combat damage step for the others (CR 510.4, 702.7b). A record that has a
creature without first strike deal its damage beside a first striker's has merged the two
steps: the first striker's damage, and the state-based actions after it, came first.

## Example
```mtgr
step combat-damage
#5 damage 2 -> #8
#8 damage 2 -> #5
```
(#5 Thalia, Guardian of Thraben, blocked by #8 Grizzly Bears.)

## Use instead
```mtgr
step combat-damage
#5 damage 2 -> #8
#8 move battlefield -> graveyard by sba
step combat-damage
```

## Rules basis
- Decision 0073 item 1: the second combat damage step is written as a second `step combat-damage`.
- Decision 0010 item 3: a phase or step with nothing recorded may be left out.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 510.4: "If at least one attacking or blocking creature has first strike (see rule 702.7) or double strike (see rule 702.4) as the combat damage step begins, the only creatures that assign combat damage in that step are those with first strike or double strike."
- CR 702.7a: "First strike is a static ability that modifies the rules for the combat damage step."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, face_up
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A114",
    "Combat damage in the first-strike step without first strike",
    severity=Severity.ERROR,
    decisions=("0073.1", "0010.3", "0050.3"),
    cr=("510.4", "702.7a"),
    doc=__doc__,
)

_STRIKES_FIRST = ("first strike", "double strike")
_LOSES_IT = (
    "lose first strike",
    "loses first strike",
    "lose double strike",
    "loses double strike",
    "lose all abilities",
    "loses all abilities",
)


@RULE.on(t.Damage, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    turn = state.turn
    if turn.step != "combat-damage" or turn.repeated or not turn.combat_damage:
        return
    if state.stack or state.resolving is not None:
        return
    source = state.obj(statement.subject.number)
    if source is None or not _in_combat(source):
        return
    strikes = True if statement.double_strike is not None else _strikes_first(ctx, source)
    if strikes is None:
        return
    for earlier_number, _dealt, _gained in turn.combat_damage:
        earlier = state.obj(earlier_number)
        if earlier is None or earlier is source or _strikes_first(ctx, earlier) in (None, strikes):
            continue
        first_striker, other = (source, earlier) if strikes else (earlier, source)
        if could_be_given(ctx, first_striker, _LOSES_IT, any_effect_on_it=True):
            continue
        if could_be_given(ctx, other, _STRIKES_FIRST, any_effect_on_it=True, from_spells=True):
            continue
        ctx.report(
            RULE,
            f"{first_striker.label()} has first strike or double strike and {other.label()} "
            "has neither, so they deal combat damage in two steps: the first for creatures "
            "with first strike or double strike, a second `step combat-damage` for the others "
            "(CR 510.4)",
            statement.verb.span,
            related=ctx.where(earlier),
        )
        return


def _in_combat(obj: GameObject) -> bool:
    return obj.zone == "battlefield" and bool(obj.attacking or obj.blocking)


def _strikes_first(ctx: Context, obj: GameObject) -> bool | None:
    """Whether the face it has up lists first strike or double strike; None when its text is
    not known (no card, or face down)."""
    if any(obj.counter(kind) for kind in ("first-strike", "double-strike")):
        return True  # a keyword counter (CR 122.1b)
    card = ctx.card(obj)
    if card is None or obj.face_down:
        return None
    face = face_up(card, obj)
    return any(face.lists_keyword(keyword) for keyword in _STRIKES_FIRST)
