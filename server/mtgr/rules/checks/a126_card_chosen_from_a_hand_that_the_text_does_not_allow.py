"""A card taken from a revealed hand that the spell's description does not allow.

## What it flags
A card moved out of a hand, while it resolves, by a spell or ability whose text says "You choose a nonland
card from it" (Thoughtseize), "a noncreature, nonland card" (Duress, Kitesail
Freebooter), "an instant or sorcery card", when the card's type line does not match: a
land discarded to Thoughtseize. Reads the front face's type line (both halves' for a split
card). Silent without a card index, for a card the lines do not name, and for a
description this rule does not read wholly; what follows "card" ("with mana value 3 or
less") is not read, so it reports only what types alone rule out.

## Why
A choice a spell tells a player to make must be one its text allows (CR 608.2c: the
instructions are followed as written). Thoughtseize's "nonland card" cannot be a land; a
record that discards one has the wrong card, or an illegal play.

## Example
```mtgr
#2 resolve
#2 choose #9
#9 move hand -> graveyard as discard by #2
```
(#2 Thoughtseize; #9 Spire of Industry, a land.)

## Use instead
```mtgr
#2 choose #12
#12 move hand -> graveyard as discard by #2
```
(#12 a nonland card.)

## Rules basis
- Decision 0017 item 1: a choice made as a spell resolves follows its resolve line.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 608.2c: "The controller of the spell or ability follows its instructions in the order written."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import could_be_given, moved_by_an_object, whose_text
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A126",
    "Card chosen from a hand that the text does not allow",
    severity=Severity.ERROR,
    decisions=("0017.1", "0050.3"),
    cr=("608.2c",),
    doc=__doc__,
)

_CHOOSE = re.compile(r"\bchooses? an? ([a-z, ]+?) card\b[^.]*? from (?:it|their hand)")
_GIVES_TYPES = (
    "in addition to its other types",
    "in addition to their other types",
    "aren't on the battlefield",
)
_TYPES = frozenset(
    ["land", "creature", "artifact", "enchantment", "instant", "sorcery", "planeswalker", "battle"]
)


@RULE.on(t.Move, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.source.zone.value != "hand":
        return
    objects = moved_by_an_object(ctx, statement)
    if objects is None or ctx.state.resolving != objects[0].number:
        return  # a cost paid in casting (escalate's discard) is no choice from a revealed hand
    causing, moved = objects
    text_of = whose_text(ctx, causing)
    card = ctx.card(text_of) if text_of is not None else None
    moved_card = ctx.card(moved, statement.name)
    if card is None or moved_card is None:
        return
    wanted = _described(card.front.oracle_text.casefold())
    if not wanted:
        return
    faces = moved_card.faces if moved_card.layout == "split" else moved_card.faces[:1]
    types = {word.casefold() for face in faces for word in face.types()}
    if any(all(_has(types, word) for word in words) for words in wanted):
        return
    if could_be_given(ctx, moved, _GIVES_TYPES):
        return
    described = " or ".join(", ".join(words) for words in wanted)
    type_line = " // ".join(face.type_line for face in faces)
    ctx.report(
        RULE,
        f"{text_of.label()} lets its player choose a {described} card, and {moved.label()} "
        f"is a {type_line} (CR 608.2c): name a card its text allows",
        statement.verb.span,
        related=ctx.where(causing),
    )


def _described(text: str) -> list[list[str]] | None:
    """The alternatives (" or ") of the description, each the words a card must all match
    (", "); None where a word is not a card type."""
    match = _CHOOSE.search(text)
    if match is None:
        return None
    alternatives = []
    for alternative in match.group(1).split(" or "):
        words = [word.strip() for word in alternative.split(",") if word.strip()]
        if not words or any(word.removeprefix("non") not in _TYPES for word in words):
            return None
        alternatives.append(words)
    return alternatives


def _has(types: set[str], word: str) -> bool:
    if word.startswith("non"):
        return word.removeprefix("non") not in types
    return word in types
