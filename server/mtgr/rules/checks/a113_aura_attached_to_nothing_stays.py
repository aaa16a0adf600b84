"""An Aura attached to nothing left on the battlefield.

## What it flags
A turn, phase or step line while an Aura stays on the battlefield after the permanent it
was attached to left it in the step just ending: state-based actions put it into its
owner's graveyard (`#N move battlefield -> graveyard by sba`).
Reads the type line of the face the Aura has up. Silent without a card index, for a
face-down permanent, for an Aura that is also a creature and for a card with bestow (it
stays as a creature, CR 702.103f), and for an Equipment or Fortification, which stays
attached to nothing.

## Why
When a permanent leaves the battlefield, what was attached to it becomes unattached (CR
701.3d). State-based actions are checked whenever a player would get priority (CR 704.3),
and an Aura attached to nothing is put into its owner's graveyard (CR 704.5m). Without
card data the checker cannot tell an Aura from an Equipment (decision 0023 item 4); with
it, a record that goes on with the Aura on the battlefield has lost a line.

## Example
```mtgr
#2 resolve -> battlefield attached #1
#6 damage 3 -> #1
#1 move battlefield -> graveyard by sba
phase combat
```
(#2 Rancor, attached to #1 Grizzly Bears.)

## Use instead
```mtgr
#2 resolve -> battlefield attached #1
#6 damage 3 -> #1
#1 move battlefield -> graveyard by sba
#2 move battlefield -> graveyard by sba
phase combat
```

## Rules basis
- Decision 0023 item 4: an Aura attached to nothing moves with `by sba`.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 704.5m: "If an Aura is attached to an illegal object or player, or is not attached to an object or player, that Aura is put into its owner's graveyard."
- CR 701.3d: "If an Aura, Equipment, or Fortification that was attached to an object or player ceases to be attached to it, that counts as" becoming unattached; "this includes if that Aura, Equipment, or Fortification leaves the battlefield, the object leaves the zone it was in, or that player leaves the game."
- CR 704.3: "Whenever a player would get priority (see rule 117, "Timing and Priority"), the game checks for any of the listed conditions for state-based actions, then performs all applicable state-based actions simultaneously as a single event."
"""

from __future__ import annotations

from mtgr.rules.card_facts import face_up
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A113",
    "Aura attached to nothing left on the battlefield",
    severity=Severity.ERROR,
    decisions=("0023.4", "0050.3"),
    cr=("704.5m", "701.3d", "704.3"),
    doc=__doc__,
)


@RULE.on(t.Turn, t.PhaseOrStep, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if quiet(ctx):
        return
    for obj in sorted(ctx.state.objects.values(), key=lambda o: o.number):
        if obj.detached_moment != ctx.state.moment or obj.zone != "battlefield" or obj.face_down:
            continue
        card = ctx.card(obj)
        if card is None or card.has_keyword("Bestow"):
            continue
        face = face_up(card, obj)
        if "Aura" not in face.type_line.partition("—")[2].split() or "Creature" in face.types():
            continue
        ctx.report(
            RULE,
            f"{obj.label()} is an Aura attached to nothing, so it goes to its owner's graveyard "
            "before anyone gets priority (CR 704.5m): "
            f"`#{obj.number} move battlefield -> graveyard by sba`",
            related=ctx.where(obj),
        )
