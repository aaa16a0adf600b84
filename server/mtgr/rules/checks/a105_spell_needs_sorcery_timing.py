"""A spell that needs sorcery timing cast at another time.

## What it flags
A `cast` line, without a cause, for a card with no instant face and no flash, at a time
when its caster may cast only instants: not in a main phase of the caster's own turn, or
with something on the stack. Silent when something the lines show could let it be cast
then (its own text, a lasting effect or a permanent that mentions flash or "any time you
could cast an instant", an instant or sorcery in a graveyard or exile that does, as Borne
Upon a Wind, a card gone from the battlefield that let spells be cast "as though they had
flash", as Emergence Zone sacrificed), when a cause casts it (an effect that casts it while resolving
ignores timing), and without a card index.

Reads: each face's `type_line`, the card's `keywords` and `oracle_text`, and the
`oracle_text` of the permanents on the battlefield, of the planeswalkers emblems are named
after, and of cards in graveyards whose text works there; a permanent the index does not know
may say anything, and keeps the rule silent.

## Why
Artifact, creature, enchantment, planeswalker, battle and sorcery spells are cast by a
player who has priority during a main phase of their turn when the stack is empty
(CR 117.1a, 301.1, 302.1, 303.1, 306.1, 307.1, 310.1); only instants and cards with flash
are cast at other times (CR 304.1, 702.8a).

## Example
```mtgr
turn 2 "Bob"
step upkeep
#7 "Thoughtseize" cast by "Alice"
```

## Use instead
```mtgr
turn 2 "Bob"
step upkeep
#7 "Lightning Bolt" cast by "Alice"
```

## Rules basis
- Decision 0011 item 1, decision 0050 item 3.
- CR 117.1a: "A player may cast a noninstant spell during their main phase any time they have priority and the stack is empty."
- CR 307.1: "A player who has priority may cast a sorcery card from their hand during a main phase of their turn when the stack is empty."
- CR 302.1: "A player who has priority may cast a creature card from their hand during a main phase of their turn when the stack is empty."
- CR 301.1, 303.1, 306.1, 310.1: the same for artifact, enchantment, planeswalker and battle cards.
- CR 702.8a: "Flash is a static ability that functions in any zone from which you could play the card it's on."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, sorcery_timing_problems
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A105",
    "Spell cast when only instants may be",
    severity=Severity.ERROR,
    decisions=("0011.1", "0050.3"),
    cr=("117.1a", "301.1", "302.1", "303.1", "306.1", "307.1", "310.1", "702.8a"),
    doc=__doc__,
)

INSTANT_SPEED = ("flash", "any time you could cast an instant")


@RULE.on(t.Cast, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Cast)
    state = ctx.state
    if statement.cause is not None or quiet(ctx):
        return
    obj = state.obj(statement.subject.number)
    card = ctx.card(obj, statement.name)
    if obj is None or card is None or card.any_face_has_type("Instant"):
        return
    if card.any_face_has_type("Land") or card.has_keyword("Flash"):
        return
    caster = statement.caster.name if statement.caster else obj.controller or obj.owner
    problems = sorcery_timing_problems(state, caster)
    if not problems or could_be_given(ctx, obj, INSTANT_SPEED, from_spells=True):
        return
    if _flash_given_by_a_card_gone(ctx):
        return
    kind = card.front.type_line.split("—")[0].strip().lower()
    ctx.report(
        RULE,
        f"#{obj.number} ({card.name}) is {'an' if kind[:1] in 'aeiou' else 'a'} {kind} spell "
        "without flash, cast only in its "
        "caster's main phase with an empty stack, and here "
        + "; ".join(problems)
        + " (CR 117.1a, 307.1)",
        statement.verb.span,
        related=ctx.where(obj),
    )


def _flash_given_by_a_card_gone(ctx: Context) -> bool:
    """A card in a graveyard or exile that gives spells flash for a while (Emergence Zone,
    sacrificed for its ability): the effect outlives it, and a record may leave it out."""
    return ctx.cards is not None and any(
        other.zone in ("graveyard", "exile")
        and (card := ctx.card(other)) is not None
        and card.text_mentions("as though they had flash")
        for other in ctx.state.objects.values()
    )
