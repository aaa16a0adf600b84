"""A permanent with shroud, or an opponent's permanent with hexproof, chosen as a target.

## What it flags
A `target` line that names a permanent whose face up lists shroud among its keywords, or
hexproof when the spell or ability is controlled by another player than the permanent's
controller. Silent without a card index, for a face-down permanent (it has no abilities),
for "hexproof from" a quality, and when the lines show something that could take those
abilities away or let it be targeted anyway (Shadowspear, a lasting effect on it, a
permanent whose text says it loses hexproof or acts as though it didn't have it).

## Why
"Shroud" means the permanent can't be the target of spells or abilities (CR 702.18a), and
"hexproof" that it can't be the target of spells or abilities its controller's opponents
control (CR 702.11b). A target chosen for a spell or ability must be legal (CR 601.2c);
a record that targets one has lost the effect that allowed it, or the play was illegal.

## Example
```mtgr
#9 cast
#9 target #4
```
(#9 Lightning Bolt, cast by Bob; #4 Slippery Bogle, Alice's.)

## Use instead
```mtgr
#9 cast
#9 target "Alice"
```

## Rules basis
- Decision 0011 item 4: `#N target ...` gives the targets of spell or ability N.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 702.18a: shroud means "This permanent or player can't be the target of spells or abilities."
- CR 702.11b: hexproof on a permanent means "This permanent can't be the target of spells or abilities your opponents control."
- CR 601.2c: "The player announces their choice of an appropriate object or player for each target the spell requires."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, face_up
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A116",
    "Target with shroud, or an opponent's with hexproof",
    severity=Severity.ERROR,
    decisions=("0011.4", "0050.3"),
    cr=("702.18a", "702.11b", "601.2c"),
    doc=__doc__,
)

_ALLOWS_IT = (
    "lose hexproof",
    "loses hexproof",
    "lose shroud",
    "loses shroud",
    "didn't have hexproof",
    "didn't have shroud",
    "lose all",  # "loses all abilities", Darksteel Mutation's "loses all other abilities"
    "loses all",
)


@RULE.on(t.Target, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Target)
    state = ctx.state
    source = state.obj(statement.subject.number)
    if source is None:
        return
    targeting = source.controller or source.owner
    for ref in statement.targets:
        if not isinstance(ref, t.ObjectRef):
            continue
        target = state.obj(ref.number)
        if target is None or target.zone != "battlefield" or target.face_down:
            continue
        card = ctx.card(target)
        if card is None:
            continue
        face = face_up(card, target)
        if face.lists_keyword("shroud"):
            why = "it has shroud: it can't be the target of spells or abilities (CR 702.18a)"
        elif (
            face.lists_keyword("hexproof")
            and targeting is not None
            and (targeting != (target.controller or target.owner))
        ):
            why = (
                f"it has hexproof, and {source.label()} is {targeting}'s: it can't be the "
                "target of spells or abilities its controller's opponents control (CR 702.11b)"
            )
        else:
            continue
        if could_be_given(ctx, target, _ALLOWS_IT, any_effect_on_it=True):
            continue
        ctx.report(
            RULE,
            f"{target.label()} cannot be a target here: {why}; name the effect that allowed "
            "it, or another target",
            ref.span,
            related=ctx.where(target),
        )
