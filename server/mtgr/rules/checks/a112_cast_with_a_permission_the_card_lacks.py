"""A card cast from a graveyard with a keyword it does not have.

## What it flags
A `cast` with the mode `flashback`, `jump-start`, `escape`, `retrace`, `harmonize` or
`disturb` for a card whose Oracle keywords do not include it (a Lightning Bolt cast with
flashback). Silent without a card index, when the line names the effect that lets it be
cast (`by C`), when a lasting effect is on the card (Snapcaster Mage's), and when a
lasting effect, a permanent's text, or an instant or sorcery in a graveyard or exile
could give the keyword to cards (Past in Flames, Underworld Breach, Lier).

## Why
These keywords are permissions a card has in its own text: flashback lets its owner cast
it from the graveyard (CR 702.34a), and likewise jump-start, escape, retrace, harmonize
and disturb; a card without one is cast from a graveyard only where an effect gives it
the permission (CR 601.3). The line names the wrong card, or the effect that gave the
permission is missing.

## Example
```mtgr
#1 effect "flashback" on #3 until end-of-turn
#2 cast from graveyard flashback
```
(#2 Lightning Bolt, #3 Opt: Snapcaster Mage gave Opt flashback.)

## Use instead
```mtgr
#1 effect "flashback" on #3 until end-of-turn
#3 cast from graveyard flashback
```

## Rules basis
- Decision 0081 item 1: a cast names the way the spell was cast, by its CR 702 keyword.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 702.34a: "Flashback appears on some instants and sorceries. It represents two static abilities: one that functions while the card is in a player's graveyard and another that functions while the card is on the stack."
- CR 601.3: "A player can begin to cast a spell only if a rule or effect allows that player to cast it and no rule or effect prohibits that player from casting it."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A112",
    "Cast with a graveyard keyword the card lacks",
    severity=Severity.ERROR,
    decisions=("0081.1", "0050.3"),
    cr=("702.34a", "601.3"),
    doc=__doc__,
)

# the cast modes that are a card's own permission to be cast from a graveyard, by keyword
_OWN_PERMISSIONS = {
    "flashback": "Flashback",
    "jump-start": "Jump-start",
    "escape": "Escape",
    "retrace": "Retrace",
    "harmonize": "Harmonize",
    "disturb": "Disturb",
}


@RULE.on(t.Cast, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Cast)
    if ctx.cards is None or statement.cause is not None:
        return
    modes = [m for m in statement.modes if m.value in _OWN_PERMISSIONS]
    if not modes:
        return
    obj = ctx.state.obj(statement.subject.number)
    card = ctx.card(obj, statement.name) if obj is not None else None
    if obj is None or card is None:
        return
    for mode in modes:
        keyword = _OWN_PERMISSIONS[mode.value]
        if card.has_keyword(keyword):
            continue
        if could_be_given(ctx, obj, (mode.value,), any_effect_on_it=True, from_spells=True):
            continue
        ctx.report(
            RULE,
            f"{obj.label()} has no {mode.value} of its own, and no effect on the lines gives "
            f"it (CR 601.3): name the card the effect was on, or the effect that let it be "
            f"cast (`cast ... by #N`)",
            mode.span,
            related=ctx.where(obj),
        )
