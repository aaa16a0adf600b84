"""A permanent that attacks or blocks but is not a creature.

## What it flags
An `attack` or `block` line for a permanent whose card has no creature face, unless
something the lines show could make it a creature: its own text (a vehicle's crew, a
land that becomes a creature), a lasting effect on it, an effect on no object in
particular, or a permanent whose text makes other permanents creatures. Silent without a
card index, for hidden objects, tokens and copies.

Reads: each face's `type_line` and `oracle_text`, and the `oracle_text` of the other
permanents on the battlefield, of the planeswalkers emblems are named after, and of cards
in graveyards whose text works there; a permanent the index does not know
may say anything, and keeps the rule silent.

## Why
Only creatures attack and block (CR 508.1a, 509.1a). A land or an artifact that attacks
has been made a creature by an effect, and the record should show that effect (decision
0050 item 3).

## Example
```mtgr
step declare-attackers
#3 "Mox Opal" attack "Bob"
```

## Use instead
```mtgr
step declare-attackers
#5 "Goblin Guide" attack "Bob"
```

## Rules basis
- Decision 0012 items 1 and 2, decision 0050 item 3.
- CR 508.1a: "The active player chooses which creatures that they control, if any, will attack."
- CR 509.1a: "The defending player chooses which creatures they control, if any, will block."
"""

from __future__ import annotations

from mtgr.rules.card_facts import BECOMES_A_CREATURE, could_be_given, may_gain_abilities
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "A103",
    "Attacker or blocker is not a creature",
    severity=Severity.ERROR,
    decisions=("0012.1", "0012.2", "0050.3"),
    cr=("508.1a", "509.1a"),
    doc=__doc__,
)


@RULE.on(t.Attack, t.Block, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.Attack, t.Block))
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return
    card = ctx.card(obj, statement.name)
    if card is None or card.any_face_has_type("Creature"):
        return
    if could_be_given(ctx, obj, BECOMES_A_CREATURE, any_effect_on_it=True):
        return
    if may_gain_abilities(ctx, obj.number) or any(
        effect.on is None and "creature" in effect.text.casefold() for effect in ctx.state.effects
    ):
        return  # Wind Zendikon on it; "every land is a 2/2 creature" in the writer's words
    verb = "attack" if isinstance(statement, t.Attack) else "block"
    ctx.report(
        RULE,
        f"{obj.label()} is not a creature ({card.front.type_line}), and only creatures {verb} "
        f"(CR {'508.1a' if verb == 'attack' else '509.1a'}); the effect that made it one is "
        "not on the lines",
        statement.verb.span,
        related=ctx.where(obj),
    )
