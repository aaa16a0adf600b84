"""A permanent sacrificed or returned for a spell or ability that asks for another type.

## What it flags
A `move battlefield -> ... as sacrifice by #N`, or a `move battlefield -> hand by #N`,
when N's text (a spell's, or the card whose ability N is) asks to "sacrifice a creature",
"sacrifice an artifact or creature", "sacrifice another creature" or to "return an Island
you control to its owner's hand" (Daze), and the permanent's type line has none of the
types asked for: Daze returning Wasteland. Silent without a card index, for a token or a
face-down permanent (their types are not on the lines), for the source itself ("sacrifice
it"), for a text this rule does not read wholly, and when the lines show something that
could change a permanent's types (Dryad of the Ilysian Grove, Urborg, an animated land).

## Why
A cost or effect that says which permanent to sacrifice or return can be paid only with
one of that type (CR 701.21a, 601.2h): Daze's "Return an Island you control to its owner's
hand" cannot be paid with a Wasteland, which is no Island.

## Example
```mtgr
#5 cast
#5 target #8
#2 move battlefield -> hand by #5
```
(#5 Daze; #2 Wasteland.)

## Use instead
```mtgr
#3 move battlefield -> hand by #5
```
(#3 Volcanic Island, an Island Mountain.)

## Rules basis
- Decision 0017 item 3: a cost that sacrifices or returns a permanent is written as that move, caused by the spell or ability.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 701.21a: "To sacrifice a permanent, its controller moves it from the battlefield directly to its owner's graveyard."
- CR 601.2h: "Partial payments are not allowed. Unpayable costs can't be paid."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import (
    BECOMES_A_CREATURE,
    could_be_given,
    face_up,
    moved_by_an_object,
    whose_text,
)
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A123",
    "Permanent sacrificed or returned not of the type asked",
    severity=Severity.ERROR,
    decisions=("0017.3", "0050.3"),
    cr=("701.21a", "601.2h"),
    doc=__doc__,
)

_QUANTITY = r"(?:an?|one|two|three|another)"
_KIND = r"((?:non)?[a-z]+(?:(?:,| or| and/or)+ (?:non)?[a-z]+)*)"
_SACRIFICE = re.compile(rf"\bsacrifices? {_QUANTITY} {_KIND}\b", re.IGNORECASE)
_MINUS = "\u2212"  # as Oracle writes a loyalty cost: "\u22122:"
_ANY_SACRIFICE = re.compile(r"\bsacrifices?\b", re.IGNORECASE)
_RETURN = re.compile(
    rf"\breturn {_QUANTITY} {_KIND} you control to (?:its|their) owner's hand", re.IGNORECASE
)
_TYPES = frozenset(
    [
        "creature",
        "artifact",
        "enchantment",
        "planeswalker",
        "land",
        "battle",
        "permanent",
        "plains",
        "island",
        "swamp",
        "mountain",
        "forest",
    ]
)
# what may give a permanent other types: a land's (Dryad of the Ilysian Grove, Urborg,
# Blood Moon), or a creature's (a crewed Vehicle, an animated land)
_CHANGES_TYPES = (
    *BECOMES_A_CREATURE,
    "in addition to",
    "every basic land type",
    "nonbasic lands are",
    "land is an",  # Spreading Seas: "Enchanted land is an Island"; Quicksilver Fountain
    "land is a",
    "lands are",
    "chosen type",  # Convincing Mirage: "Enchanted land is the chosen type"
)


@RULE.on(t.Move, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.source.zone.value != "battlefield":
        return
    sacrifice = statement.kind is not None and statement.kind.value == "sacrifice"
    if not sacrifice and statement.destination.zone.value != "hand":
        return
    objects = moved_by_an_object(ctx, statement)
    if objects is None:
        return
    causing, moved = objects
    if moved.face_down or moved.kind is not ObjectKind.CARD:
        return
    text_of = whose_text(ctx, causing)
    if text_of is None or text_of.number == moved.number:
        return  # "sacrifice it", "return it"
    card = ctx.card(text_of)
    moved_card = ctx.card(moved, statement.name)
    if card is None or moved_card is None:
        return
    text = _ability_text(card.front.oracle_text, causing.loyalty_cost)
    wanted = _asked(text, _SACRIFICE if sacrifice else _RETURN)
    if not wanted:
        return
    face = face_up(moved_card, moved)
    words = set(face.type_line.replace("—", " ").casefold().split())
    if any(_has(words, kind) for kind in wanted):
        return
    if could_be_given(ctx, moved, _CHANGES_TYPES, any_effect_on_it=True):
        return
    asked = " or ".join(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}" for kind in sorted(wanted))
    ctx.report(
        RULE,
        f"{text_of.label()} asks to {'sacrifice' if sacrifice else 'return'} {asked}, and "
        f"{moved.label()} is a {face.type_line}: it cannot be the one (CR 601.2h)",
        statement.verb.span,
        related=ctx.where(causing),
    )


def _ability_text(text: str, loyalty_cost: int | None) -> str:
    """The text of the loyalty ability whose cost was paid (Liliana of the Veil's "-2:"
    line, not her "-6:"), or the whole text."""
    if loyalty_cost is None:
        return text
    sign = "+" if loyalty_cost > 0 else _MINUS if loyalty_cost < 0 else ""
    cost = f"{sign}{abs(loyalty_cost)}:"
    for line in text.splitlines():
        if line.replace("-", _MINUS).startswith(cost):
            return line
    return text


def _asked(text: str, pattern: re.Pattern[str]) -> set[str] | None:
    """The types the text's sacrifices (or returns) ask for; None for a text not read
    wholly (a word that is no type, or a sacrifice the pattern does not read: Liliana of the
    Veil's -6 "sacrifices all permanents in the pile" beside her -2's "a creature"), or
    that asks for none."""
    if pattern is _SACRIFICE and len(_ANY_SACRIFICE.findall(text)) > len(pattern.findall(text)):
        return None
    kinds: set[str] = set()
    for match in pattern.finditer(text):
        for word in re.split(r",| or | and/or ", match.group(1).casefold()):
            word = word.strip().removesuffix("s")
            if word.removeprefix("non") not in _TYPES:
                return None
            kinds.add(word)
    return kinds or None


def _has(words: set[str], kind: str) -> bool:
    if kind.startswith("non"):
        return not _has(words, kind.removeprefix("non"))
    if kind == "permanent":
        return True
    return kind in words
