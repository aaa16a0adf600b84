"""A creature with menace blocked by a single creature.

## What it flags
The line that ends the declare blockers step (the next step or phase) while an attacker
whose face up lists menace is blocked by exactly one creature. Silent without a card
index, for a face-down creature or a card the index does not know, for one blocked face
down and turned face up in the step, when something left the battlefield during the step
(a second blocker that died after blocks were declared keeps the attacker blocked) or a
creature was removed from combat (`leaves combat`: a blocker, maybe), when
a gap ended in this turn's combat (a keyframe does not record blocks), and when the lines
show something that could take its menace away (any lasting effect on it: its text is
the writer's words).

## Why
A creature with menace can't be blocked except by two or more creatures (CR 702.111b);
a declaration of blockers that disobeys a restriction is illegal (CR 509.1b). A record
with one blocker on it has lost a block line, or a block that was not allowed.

## Example
```mtgr
step declare-blockers
#7 block #3
step combat-damage
```
(#3 Boggart Brute, which has menace.)

## Use instead
```mtgr
step declare-blockers
#7 block #3
#8 block #3
step combat-damage
```

## Rules basis
- Decision 0012 item 2: `#N block #M`, one line per attacker blocked.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 702.111b: "A creature with menace can't be blocked except by two or more creatures."
- CR 509.1b: "If any restrictions are being disobeyed, the declaration of blockers is illegal."
- CR 509.1h: "A creature remains blocked even if all the creatures blocking it are removed from combat."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, face_up
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, ObjectKind, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A121",
    "Creature with menace blocked by one creature",
    severity=Severity.ERROR,
    decisions=("0012.2", "0050.3"),
    cr=("702.111b", "509.1b", "509.1h"),
    doc=__doc__,
)

_LOSES_MENACE = ("lose menace", "loses menace", "lose all abilities", "loses all abilities")


@RULE.on(t.Turn, t.PhaseOrStep, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.turn.step != "declare-blockers" or quiet(ctx) or state.turn.combat_unseen:
        return
    objects = state.objects.values()
    if any(
        o.entered_moment == state.moment
        and o.zone not in ("battlefield", "stack")
        and o.kind is not ObjectKind.ABILITY
        for o in objects
    ):
        return  # something left the battlefield in the step: a blocker, maybe
    if any(_removed_from_combat(state.obj(number)) for number in state.in_combat):
        return  # a blocker removed from combat leaves the attacker blocked (CR 509.1h)
    blockers: dict[int, int] = {}
    for obj in objects:
        if obj.zone == "battlefield":
            for attacker in obj.blocking:
                blockers[attacker] = blockers.get(attacker, 0) + 1
    for number, count in sorted(blockers.items()):
        attacker = state.obj(number)
        if count != 1 or attacker is None or not attacker.attacking or attacker.face_down:
            continue
        if attacker.turned_up_moment == state.moment:
            continue  # blocked face down, with no menace, then turned face up (CR 509.1h)
        card = ctx.card(attacker)
        if card is None or not face_up(card, attacker).lists_keyword("menace"):
            continue
        if could_be_given(ctx, attacker, _LOSES_MENACE, any_effect_on_it=True):
            continue
        ctx.report(
            RULE,
            f"{attacker.label()} has menace, and one creature blocks it: it can't be blocked "
            "except by two or more creatures (CR 702.111b); write its other blocker, or no block",
            related=ctx.where(attacker),
        )


def _removed_from_combat(obj: GameObject | None) -> bool:
    """A creature of this combat still on the battlefield but out of it (CR 506.4)."""
    return (
        obj is not None
        and obj.zone == "battlefield"
        and not (obj.attacking or obj.blocking or obj.blocked)
    )
