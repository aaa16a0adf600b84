"""A card exiled from hand for a spell that asks for a card of another color.

## What it flags
A `move hand -> exile by #N` while N is on the stack, when N's card asks to exile a card
of a color from its controller's hand (Force of Will's "exile a blue card from your hand",
the evoke cost of Solitude or Fury) and the exiled card is of none of the colors it names.
A card's colors are those of the mana symbols in its mana cost: its front face's, both
halves' for a split card. Silent without a card index, for a card with no colored mana
symbol (a Pact's color is its color indicator's, which the index does not keep), and when the lines show something that could change a card's color (a permanent
or effect whose text speaks of colors: Painter's Servant).

## Why
An object is the color or colors of the mana symbols in its mana cost (CR 105.2). A cost
that asks for a blue card can be paid only with a blue card, and partial or unpayable
costs cannot be paid (CR 601.2h): a record that pitched a red card to Force of Will has
cast a spell it could not cast that way.

## Example
```mtgr
#1 cast
#1 target #20
#1 pay life 1
#3 move hand -> exile by #1
```
(#1 Force of Will, #3 Lightning Bolt.)

## Use instead
```mtgr
#1 cast
#1 target #20
#1 pay life 1
#2 move hand -> exile by #1
```
(#2 Brainstorm, a blue card.)

## Rules basis
- Decision 0017 item 3: a cost that exiles a card is written as that move, caused by the spell.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 105.2: "An object is the color or colors of the mana symbols in its mana cost, regardless of the color of its frame."
- CR 601.2h: "Partial payments are not allowed. Unpayable costs can't be paid."
- CR 709.4b: "A split card's colors and mana value are determined from its combined mana cost."
- CR 712.8a: "While a double-faced card is outside the game or in a zone other than the battlefield or stack, it has only the characteristics of its front face."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import could_be_given, moved_by_an_object
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A115",
    "Card exiled from hand not of the color the spell asks",
    severity=Severity.ERROR,
    decisions=("0017.3", "0050.3"),
    cr=("105.2", "601.2h", "709.4b", "712.8a"),
    doc=__doc__,
)

_COLOR = r"(?:white|blue|black|red|green)"
_ASKS = re.compile(
    rf"exile (?:an?|one|two|three) ({_COLOR}(?: or {_COLOR})*) cards? from your hand",
    re.IGNORECASE,
)
_SYMBOLS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_MANA_SYMBOL = re.compile(r"\{([^}]*)\}")


@RULE.on(t.Move, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.source.zone.value != "hand" or statement.destination.zone.value != "exile":
        return
    objects = moved_by_an_object(ctx, statement)
    if objects is None:
        return
    spell, exiled = objects
    if spell.zone != "stack" or exiled.zone != "hand":
        return
    spell_card = ctx.card(spell)
    if spell_card is None:
        return
    asked = {
        color.casefold()
        for face in spell_card.faces
        for match in _ASKS.finditer(face.oracle_text)
        for color in match.group(1).split(" or ")
    }
    exiled_card = ctx.card(exiled, statement.name)
    if not asked or exiled_card is None:
        return
    # a split card's halves together (CR 709.4b); another card's front face, which is all a
    # card in a hand has (CR 712.8a)
    faces = exiled_card.faces if exiled_card.layout == "split" else exiled_card.faces[:1]
    mana_cost = "".join(face.mana_cost for face in faces)
    symbols = "".join(_MANA_SYMBOL.findall(mana_cost))
    if not any(symbol in symbols for symbol in _SYMBOLS.values()):
        return  # no colored symbol: its color, if any, is a color indicator's (CR 204.2)
    if any(_SYMBOLS[color] in symbols for color in asked):
        return
    if could_be_given(ctx, exiled, ("color",), any_effect_on_it=True):
        return
    wanted = " or ".join(sorted(asked))
    ctx.report(
        RULE,
        f"{spell.label()} asks for a {wanted} card from its caster's hand, and "
        f"{exiled.label()} is not {wanted} (its mana cost is {mana_cost}, "
        "CR 105.2): exile a card of that color, or pay the spell's other cost",
        statement.verb.span,
        related=ctx.where(spell),
    )
