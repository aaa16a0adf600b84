"""A card found in a library that the searching effect's description does not match.

## What it flags
A card moved out of a library during a search (after its `search library` line) by a
spell or ability whose text searches a library "for a Forest or Island card", "a basic
land card", "an Equipment card", "an instant or sorcery card", when the card's type line
has none of the types the description asks for (Misty Rainforest finding a Plains,
Evolving Wilds finding a Tundra). Reads the front face's type line, both halves' for a
split card. Silent without a card index, for a card the lines do not name, for a
changeling (every creature type, in a library too) or while a permanent gives cards
types (Maskwood Nexus, Conspiracy), and for a description this rule does
not read wholly (a color, a mana value, "with", "named", "and"): it reports only what a
card's types alone rule out.

## Why
To search for a card is to find a card that matches the given description (CR 701.23a).
A card that does not match cannot be found by that search; a record that puts it onto
the battlefield or into a hand has recorded an illegal play, or another card.

## Example
```mtgr
#10 resolve
"Alice" search library by #10
#11 new card "Plains" library "Alice"
#11 move library -> battlefield by #10
```
(#10 the ability of Misty Rainforest: "a Forest or Island card".)

## Use instead
```mtgr
#11 new card "Tundra" library "Alice"
#11 move library -> battlefield by #10
```
(Tundra is a Plains Island.)

## Rules basis
- Decision 0042 item 2: what a search finds is written with the lines that follow, caused by the search's cause.
- CR 702.73a: "This ability works everywhere, even outside the game."
- CR 701.23a: "To search for a card in a zone, look at all cards in that zone (even if it's a hidden zone) and find a card that matches the given description."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import could_be_given, moved_by_an_object, whose_text
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A120",
    "Card found that the search does not allow",
    severity=Severity.ERROR,
    decisions=("0042.2",),
    cr=("701.23a", "702.73a"),
    doc=__doc__,
)

_SEARCH = re.compile(r"search (?:your|their) library for ([^,.;]*)", re.IGNORECASE)
_QUANTITY = re.compile(r"^(?:an?|one|two|three|four|up to (?:one|two|three|four|x)|x)\s+")
_ALTERNATIVES = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")
# the words of a type line a description may ask for in lower case; a subtype it writes
# capitalized (Forest, Equipment, Gate)
# a permanent's text that gives cards in a library types (Maskwood Nexus, Conspiracy,
# Arcane Adaptation, Encroaching Mycosynth)
_GIVES_TYPES = (
    "every creature type",
    "chosen type",
    "chosen creature type",
    "aren't on the battlefield",  # Encroaching Mycosynth: "... are artifacts in addition to"
    "in addition to their other types",
)
_TYPE_WORDS = frozenset(
    [
        "basic",
        "legendary",
        "snow",
        "land",
        "creature",
        "artifact",
        "enchantment",
        "instant",
        "sorcery",
        "planeswalker",
        "battle",
        "kindred",
    ]
)


@RULE.on(t.Move, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.source.zone.value != "library" or ctx.state.searching is None:
        return  # a card moved from a library, not found by a search (Undercity's last room)
    objects = moved_by_an_object(ctx, statement)
    if objects is None:
        return
    searcher, found = objects
    text_of = whose_text(ctx, searcher)
    searching_card = ctx.card(text_of) if text_of is not None else None
    found_card = ctx.card(found, statement.name)
    if searching_card is None or found_card is None:
        return
    descriptions = _descriptions(searching_card.front.oracle_text)
    if not descriptions:
        return
    if found_card.has_keyword("Changeling") or could_be_given(ctx, found, _GIVES_TYPES):
        return  # every creature type, in a library too (CR 702.73a); Maskwood Nexus
    # a split card's halves together outside the stack (CR 709.4); else the front face
    faces = found_card.faces if found_card.layout == "split" else found_card.faces[:1]
    type_line = " // ".join(face.type_line for face in faces)
    words = set(type_line.replace("—", " ").replace("//", " ").casefold().split())
    if any(all(word in words for word in wanted) for wanted in descriptions):
        return
    ctx.report(
        RULE,
        f"{found.label()}, a {type_line}, does not match what "
        f"{searcher.label()} searches for ({_described(descriptions)}), so it cannot be found "
        "by it (CR 701.23a)",
        statement.verb.span,
        related=ctx.where(searcher),
    )


def _descriptions(text: str) -> list[tuple[str, ...]] | None:
    """The alternatives the text's searches of a library allow, each the type words a card
    must have all of; None where a description says more than types."""
    alternatives: list[tuple[str, ...]] = []
    for match in _SEARCH.finditer(text):
        phrase = match.group(1).split(" with ")[0].strip()
        if " and" in phrase or not phrase.endswith((" card", " cards")):
            return None
        for alternative in _ALTERNATIVES.split(phrase):
            wanted = _QUANTITY.sub("", alternative.strip()).split()
            if wanted and wanted[-1] in ("card", "cards"):
                wanted.pop()
            if any(
                word.casefold() not in _TYPE_WORDS and not word[:1].isupper() for word in wanted
            ):
                return None
            alternatives.append(tuple(word.casefold() for word in wanted))
    return alternatives or None


def _described(alternatives: list[tuple[str, ...]]) -> str:
    return " or ".join(" ".join(words) + " card" for words in alternatives)
