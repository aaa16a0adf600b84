"""A ninjutsu ability that returns a creature that is not an unblocked attacker of its player.

## What it flags
A `#M move battlefield -> hand by #A`, where A is an ability activated from a card in hand
(or the command zone) that has ninjutsu or commander ninjutsu, when M is not attacking, was
blocked, or is not controlled by A's controller. Silent without a card index, and when a gap
ended in this turn's combat (a keyframe does not record combat, decision 0020 item 6).

## Why
Ninjutsu's cost includes returning "an unblocked attacking creature you control to its
owner's hand" (CR 702.49a, 702.49d). An attacking creature with a blocker declared for it
is a blocked creature until combat ends, even if its blockers leave combat (CR 509.1h):
it cannot pay the cost, and a cost that cannot be paid is not paid (CR 601.2h, which
activation follows, CR 602.2b).

## Example
```mtgr
step declare-blockers
#6 block #2
#10 activate of #3
#10 pay {U}{B}
#3 reveal by #10
#2 move battlefield -> hand by #10
```
(#3 Ingenious Infiltrator; #2 is blocked by #6.)

## Use instead
```mtgr
#1 move battlefield -> hand by #10
```
(#1, an attacker that no creature blocked.)

## Rules basis
- Decision 0020 item 4: ninjutsu's costs are written as the lines of decision 0011 item 5, the unblocked attacker returned by the ability.
- Decision 0020 item 6: an attacker with a blocker is blocked until the combat phase ends.
- CR 702.49a: "Return an unblocked attacking creature you control to its owner's hand"
- CR 509.1h: "A creature remains blocked even if all the creatures blocking it are removed from combat."
- CR 602.2b: "The remainder of the process for activating an ability is identical to the process for casting a spell listed in rules 601.2b"
"""

from __future__ import annotations

from mtgr.rules.card_facts import moved_by_an_object
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A119",
    "Ninjutsu returns a creature that is not an unblocked attacker",
    severity=Severity.ERROR,
    decisions=("0020.4", "0020.6"),
    cr=("702.49a", "509.1h", "602.2b"),
    doc=__doc__,
)

_NINJUTSU = ("Ninjutsu", "Commander ninjutsu")


@RULE.on(t.Move, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.source.zone.value != "battlefield" or statement.destination.zone.value != "hand":
        return
    state = ctx.state
    if state.turn.combat_unseen:
        return  # a keyframe does not show who attacks or is blocked (decision 0020 item 6)
    objects = moved_by_an_object(ctx, statement)
    if objects is None:
        return
    ability, returned = objects
    if ability.kind is not ObjectKind.ABILITY:
        return
    if ability.zone != "stack" or ability.source is None:
        return
    ninja = state.obj(ability.source)
    if ninja is None or ninja.zone not in ("hand", "command"):
        return
    card = ctx.card(ninja)
    if card is None or not any(card.has_keyword(keyword) for keyword in _NINJUTSU):
        return
    if not returned.attacking:
        problem = "it is not attacking"
    elif returned.blocked:
        problem = "it is blocked (a blocked creature stays blocked until combat ends)"
    elif ability.controller is not None and returned.controller not in (None, ability.controller):
        problem = f"it is {returned.controller}'s, not {ability.controller}'s"
    else:
        return
    ctx.report(
        RULE,
        f"{ability.label()} is the ninjutsu of {ninja.label()}, whose cost returns an unblocked "
        f"attacking creature its controller controls, and {returned.label()} cannot pay it: "
        f"{problem} (CR 702.49a)",
        statement.verb.span,
        related=ctx.where(ninja),
    )
