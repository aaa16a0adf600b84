"""Reading the card files players download: Scryfall bulk data (`oracle_cards`,
`default_cards`, `all_cards`: one JSON array of card objects) and MTGJSON `AtomicCards.json`
(`{"meta": ..., "data": {name: [face, ...]}}`).

The files are read as a stream, one card object at a time, so that `all_cards` (gigabytes)
never has to fit in memory. Anything that is not one of these formats, or that ends early,
raises `CardFileError` with what is wrong and where.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from mtgr.cards.model import Card, Face

CHUNK = 1 << 20
# Scryfall layouts that are not cards a player puts in a deck.
_NOT_CARDS = frozenset(
    {"art_series", "token", "double_faced_token", "emblem", "vanguard", "scheme", "planar"}
)


class CardFileError(Exception):
    """A card file that cannot be read; the message says what is wrong and what would be right."""


class _Reader:
    """A pull reader over a JSON text: whole values at a time, the buffer refilled as needed."""

    def __init__(self, stream: IO[str], path: Path, progress: Callable[[int], None] | None) -> None:
        self.stream, self.path, self.progress = stream, path, progress
        self.buffer = ""
        self.position = 0  # in the buffer
        self.consumed = 0  # characters dropped from the front of the buffer so far
        self.ended = False
        self.decoder = json.JSONDecoder()

    def _fill(self) -> bool:
        if self.ended:
            return False
        chunk = self.stream.read(CHUNK)
        if not chunk:
            self.ended = True
            return False
        self.consumed += self.position
        self.buffer = self.buffer[self.position :] + chunk
        self.position = 0
        if self.progress:
            self.progress(len(chunk))
        return True

    def peek(self) -> str:
        while True:
            while self.position < len(self.buffer) and self.buffer[self.position] in " \t\r\n":
                self.position += 1
            if self.position < len(self.buffer):
                return self.buffer[self.position]
            if not self._fill():
                return ""

    def expect(self, char: str, what: str) -> None:
        found = self.peek()
        if found != char:
            self.fail(f"expected {what}", found)
        self.position += 1

    def value(self) -> Any:
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.position)
            except json.JSONDecodeError as error:
                if self._fill():
                    continue
                if error.pos >= len(self.buffer) - 1 or "Unterminated" in error.msg:
                    raise CardFileError(
                        f"{self.path}: the file ends early (at character {self.consumed + len(self.buffer)}): "
                        "an interrupted download? Download it again."
                    ) from None
                raise CardFileError(
                    f"{self.path}: broken JSON at character {self.consumed + error.pos}: {error.msg}"
                ) from None
            self.position = end
            return value

    def fail(self, what: str, found: str) -> None:
        at = self.consumed + self.position
        if not found:
            raise CardFileError(
                f"{self.path}: the file ends early (at character {at}), {what}: an interrupted "
                "download? Download it again."
            )
        raise CardFileError(f"{self.path}: {what} at character {at}, found {found!r}")


def read_cards(path: Path, progress: Callable[[int], None] | None = None) -> Iterator[Card]:
    """Every card of a Scryfall bulk file or an MTGJSON AtomicCards file, one card a name."""
    try:
        stream = path.open(encoding="utf-8-sig", newline="")
    except OSError as error:
        raise CardFileError(f"{path}: {error.strerror or error}") from None
    with stream:
        reader = _Reader(stream, path, progress)
        try:
            first = reader.peek()
            if first == "[":
                yield from _scryfall(reader)
            elif first == "{":
                yield from _mtgjson(reader)
            else:
                raise CardFileError(
                    f"{path}: not a card file: expected Scryfall bulk data (a JSON array of cards) "
                    'or MTGJSON AtomicCards.json (a JSON object with "data")'
                    + (f", found {first!r}" if first else ", found an empty file")
                )
        except UnicodeDecodeError as error:
            raise CardFileError(f"{path}: not UTF-8 text ({error.reason})") from None


def _scryfall(reader: _Reader) -> Iterator[Card]:
    reader.expect("[", "a JSON array")
    if reader.peek() == "]":
        return
    while True:
        item = reader.value()
        card = scryfall_card(item, reader.path)
        if card is not None:
            yield card
        following = reader.peek()
        if following == "]":
            return
        if following != ",":
            reader.fail('expected "," or "]" after a card', following)
        reader.position += 1


def scryfall_card(item: object, path: Path) -> Card | None:
    if not isinstance(item, dict) or item.get("object") != "card" or "name" not in item:
        raise CardFileError(
            f"{path}: not Scryfall card data: an item of the array is not a card object "
            '(expected {"object": "card", "name": ...})'
        )
    if item.get("layout") in _NOT_CARDS:
        return None
    raw_faces = item.get("card_faces") or [item]
    faces = tuple(
        Face(
            name=str(face.get("name", item["name"])),
            mana_cost=str(face.get("mana_cost", "") or ""),
            type_line=str(face.get("type_line", "") or item.get("type_line", "")),
            oracle_text=str(face.get("oracle_text", "") or ""),
            power=face.get("power"),
            toughness=face.get("toughness"),
            loyalty=face.get("loyalty"),
        )
        for face in raw_faces
        if isinstance(face, dict)
    )
    return Card(
        name=str(item["name"]),
        layout=str(item.get("layout", "normal")),
        faces=faces,
        keywords=tuple(str(k) for k in item.get("keywords") or ()),
        scryfall_uri=item.get("scryfall_uri"),
    )


def _mtgjson(reader: _Reader) -> Iterator[Card]:
    reader.expect("{", "a JSON object")
    found_data = False
    while reader.peek() != "}":
        key = reader.value()
        reader.expect(":", 'a ":" after a key')
        if key == "data":
            found_data = True
            yield from _mtgjson_data(reader)
        else:
            reader.value()
        if reader.peek() == ",":
            reader.position += 1
    if not found_data:
        raise CardFileError(
            f'{reader.path}: not MTGJSON AtomicCards.json: the object has no "data" '
            "(a Scryfall bulk file is a JSON array)"
        )


def _mtgjson_data(reader: _Reader) -> Iterator[Card]:
    reader.expect("{", 'an object of cards by name after "data"')
    while reader.peek() != "}":
        name = reader.value()
        reader.expect(":", 'a ":" after a card name')
        faces = reader.value()
        if not isinstance(name, str) or not isinstance(faces, list) or not faces:
            raise CardFileError(
                f"{reader.path}: not MTGJSON AtomicCards.json: each card name must map to a "
                "list of its faces"
            )
        card = mtgjson_card(name, faces)
        if card is not None:
            yield card
        if reader.peek() == ",":
            reader.position += 1
    reader.position += 1


def mtgjson_card(name: str, faces: list[Any]) -> Card | None:
    first = faces[0] if isinstance(faces[0], dict) else {}
    if first.get("layout") in _NOT_CARDS:
        return None
    oracle_id = (first.get("identifiers") or {}).get("scryfallOracleId")
    return Card(
        name=name,
        layout=str(first.get("layout", "normal")),
        faces=tuple(
            Face(
                name=str(face.get("faceName") or face.get("name") or name),
                mana_cost=str(face.get("manaCost", "") or ""),
                type_line=str(face.get("type", "") or ""),
                oracle_text=str(face.get("text", "") or ""),
                power=face.get("power"),
                toughness=face.get("toughness"),
                loyalty=face.get("loyalty"),
            )
            for face in faces
            if isinstance(face, dict)
        ),
        keywords=tuple(
            dict.fromkeys(k for f in faces if isinstance(f, dict) for k in f.get("keywords") or ())
        ),
        scryfall_uri=f"https://scryfall.com/search?q=oracleid%3A{oracle_id}" if oracle_id else None,
    )
