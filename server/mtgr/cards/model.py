"""What the tools know about a card, and the protocol through which they ask for one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a card; a card with one face has one (Scryfall's card_faces, or the card)."""

    name: str
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    # worked out once: the rules ask on every line
    _types: frozenset[str] = field(init=False, repr=False, compare=False)
    _folded_text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_types", frozenset(self.type_line.partition("—")[0].split()))
        object.__setattr__(self, "_folded_text", self.oracle_text.casefold())

    def types(self) -> frozenset[str]:
        """The supertypes and card types (the words before the dash of the type line)."""
        return self._types

    def rules_lines(self) -> list[str]:
        """Its lines of rules text, casefolded, reminder text left out."""
        return [_REMINDER.sub("", line).strip() for line in self._folded_text.splitlines()]

    def lists_keyword(self, keyword: str) -> bool:
        """Whether a line of its text lists the keyword ("Flying, vigilance"), rather than
        granting it under a condition ("has flying as long as ...", or a leveler's box
        below "LEVEL 2-6": its level counters decide, CR 711.2a) or naming it in a sentence
        (Grimdancer's counters "from among menace, deathtouch, and lifelink")."""
        keyword = keyword.casefold()
        for line in self.rules_lines():
            if _LEVEL_BOX.match(line):
                return False
            if line.endswith("."):
                continue  # a sentence that names keywords ("from among menace, deathtouch,
                # and lifelink"): a keyword line has none but its reminder text's
            if any(item.strip() == keyword for item in line.split(",")):
                return True
        return False


@dataclass(frozen=True, slots=True)
class Card:
    name: str  # the Oracle name; both faces joined by " // " for a card with two
    layout: str
    faces: tuple[Face, ...]
    keywords: tuple[str, ...] = ()
    scryfall_uri: str | None = None

    @property
    def front(self) -> Face:
        return self.faces[0]

    def any_face_has_type(self, card_type: str) -> bool:
        return any(card_type in face.types() for face in self.faces)

    def every_face_has_type(self, card_type: str) -> bool:
        return all(card_type in face.types() for face in self.faces)

    def has_keyword(self, keyword: str) -> bool:
        keyword = keyword.casefold()
        return any(k.casefold() == keyword for k in self.keywords)

    def text_mentions(self, words: str) -> bool:
        words = words.casefold()
        return any(words in face._folded_text for face in self.faces)

    def text_mentions_beyond_keywords(self, words: str) -> bool:
        """Like `text_mentions`, leaving out the lines that only list the card's own
        keywords ("Flying, haste", with their reminder text): Monastery Swiftspear's haste is
        its own, where "Creatures you control have haste" may give it to others; and, as the
        text of a permanent, the abilities that work only from a hand (bloodrush, channel:
        a cost that discards the card itself, CR 113.6m)."""
        words = words.casefold()
        own = {keyword.casefold() for keyword in self.keywords}
        return any(
            words in line
            for face in self.faces
            for line in face._folded_text.splitlines()
            if not _lists_only(line, own) and not _discards_itself(line, face.name)
        )


_REMINDER = re.compile(r"\([^)]*\)")
_LEVEL_BOX = re.compile(r"level \d")


def _lists_only(line: str, keywords: set[str]) -> bool:
    """Whether a (casefolded) line of rules text is a list of these keywords, each maybe
    with a cost or number after it, reminder text in parentheses left out."""
    bare = _REMINDER.sub("", line).strip()
    items = [item.strip() for item in bare.split(",")]
    return bool(bare) and all(
        any(item == keyword or item.startswith(keyword + " ") for keyword in keywords)
        for item in items
    )


def _discards_itself(line: str, name: str) -> bool:
    """Whether a (casefolded) line is an ability whose cost discards the card it is on."""
    cost, colon, _effect = line.partition(":")
    return bool(colon) and ("discard this card" in cost or f"discard {name.casefold()}" in cost)


def card_data(card: Card) -> dict[str, object]:
    """A card as plain data (what an index stores), without what is worked out from it."""
    return {
        "name": card.name,
        "layout": card.layout,
        "faces": [
            {f.name: getattr(face, f.name) for f in fields(Face) if f.init} for face in card.faces
        ],
        "keywords": list(card.keywords),
        "scryfall_uri": card.scryfall_uri,
    }


class CardIndex(Protocol):
    """Where the rules, the command line and the server find cards by the names players write."""

    def lookup(self, name: str) -> Card | None:
        """The card with this name or the name of one of its faces; case and accents ignored."""
        ...

    def search(self, text: str, limit: int) -> list[str]:
        """Card names for what has been typed so far: prefix matches first, then fuzzy ones."""
        ...

    def close_names(self, name: str, limit: int) -> list[str]:
        """The known names closest to a name the index does not know (for "did you mean")."""
        ...
