"""A spell or ability deals more damage than its card says.

## What it flags
A `damage` line from the spell that is resolving (or from the permanent whose ability is),
when the card's text deals fixed amounts ("deals 3 damage", "deals 2 damage ... If this
spell was kicked, it deals 4 damage instead") and the line's amount is more than the
largest of them: Lightning Bolt dealing 4. Less is not reported (prevention lowers
damage, and the line writes what was dealt, decision 0012 item 6). Silent without a card
index, for a text with a variable or divided amount ("X damage", "damage equal to",
"divided", "for each") or modes that may repeat ("choose"), and when the lines show
something that could raise damage (Torbran, Furnace of Rath: a permanent or effect whose
text says "that much damage", "double", "triple" or "would deal"), or the line names
the replacement effect that changed it (`replacement #R`).

## Why
The controller of a resolving spell or ability follows its instructions as written (CR
608.2c): a spell that says it deals 3 damage deals 3, unless a replacement effect
modifies the event. A record that writes more has a wrong number, or has lost the effect
that changed it.

## Example
```mtgr
#5 resolve
#5 damage 4 -> #9
```
(#5 Lightning Bolt.)

## Use instead
```mtgr
#5 resolve
#5 damage 3 -> #9
```

## Rules basis
- Decision 0012 items 3 and 6: a damage line writes the damage actually dealt, after prevention.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 608.2c: "The controller of the spell or ability follows its instructions in the order written. However, replacement effects may modify these actions."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import GIVES_ABILITIES, could_be_given, may_gain_abilities
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A124",
    "Damage beyond what the card says",
    severity=Severity.ERROR,
    decisions=("0012.3", "0012.6", "0050.3"),
    cr=("608.2c",),
    doc=__doc__,
)

_FIXED = re.compile(r"\bdeals? (\d+) damage\b")
_VARIABLE = ("x damage", "damage equal to", "divided", "for each", "choose", "that much damage")
_RAISES = ("that much damage", "double", "triple", "would deal", "twice that")


@RULE.on(t.Damage, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    if statement.replacements:
        return  # the line names the replacement effect that changed the amount
    resolving = state.obj(state.resolving) if state.resolving is not None else None
    source = state.obj(statement.subject.number)
    if resolving is None or source is None:
        return
    if resolving is not source and not (
        resolving.kind is ObjectKind.ABILITY and resolving.source == source.number
    ):
        return
    card = ctx.card(source)
    if card is None or "Arcane" in card.front.type_line:
        return  # a spliced spell has other cards' text too (CR 702.47c)
    if resolving is not source and (
        may_gain_abilities(ctx, source.number) or could_be_given(ctx, source, GIVES_ABILITIES)
    ):
        return  # an ability Sorcerer's Wand gives it, not its own
    text = " ".join(face.oracle_text for face in card.faces).casefold()
    amounts = [int(found) for found in _FIXED.findall(text)]
    if not amounts or any(phrase in text for phrase in _VARIABLE):
        return
    dealt = statement.amount.value
    if dealt <= max(amounts) or could_be_given(ctx, source, _RAISES, any_effect_on_it=True):
        return
    ctx.report(
        RULE,
        f"{source.label()} deals {max(amounts)} damage by its text, and this line writes "
        f"{dealt} (CR 608.2c): write the damage it dealt, or the effect that raised it",
        statement.amount.span,
        related=ctx.where(source),
    )
