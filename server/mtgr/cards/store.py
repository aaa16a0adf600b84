"""The card index: one SQLite file (the standard library's), looked up by name key.

Opening it reads nothing but its header, so a server starts as fast with it as without;
the list of names that completion searches is read on the first search. An import writes
a new file beside the old one and replaces it with `os.replace`: a file that cannot be
read, or an import that stops half way, leaves the previous index as it was.
"""

from __future__ import annotations

import bisect
import contextlib
import difflib
import heapq
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import platformdirs

from mtgr.cards.formats import CardFileError, read_cards
from mtgr.cards.model import Card, Face, card_data
from mtgr.cards.names import face_names, name_key

if TYPE_CHECKING:
    import sqlite3

FORMAT = "mtgr-cards"
VERSION = "1"
SQLITE_MAGIC = b"SQLite format 3\x00"
# Completion looks at the first PREFIX_SPAN characters typed for a misspelt start; "did you
# mean" compares the letter pairs of those characters, then scores the FUZZY_CANDIDATES best.
PREFIX_SPAN = 12
FUZZY_CANDIDATES = 200

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE names (key TEXT PRIMARY KEY, card INTEGER NOT NULL) WITHOUT ROWID;
"""


def default_index_path() -> Path:
    """Where `mtgr cards import` and `update` keep the index: the user's data folder."""
    return platformdirs.user_data_path("mtgr", appauthor=False) / "cards.sqlite3"


class SqliteCardIndex:
    """A `CardIndex` over an index file (or an in-memory index built from a card file)."""

    def __init__(self, connection: sqlite3.Connection, source: str) -> None:
        self._db = connection
        self.source = source
        self._cards: dict[str, Card | None] = {}  # by name key
        self._written: dict[str, Card | None] = {}  # by the name as written
        self._keys: list[str] | None = None  # sorted name keys, read on the first search
        self._names: list[str] = []  # the name written for each key, in the same order
        self._by_word: tuple[list[str], list[int]] | None = None
        self._by_bigram: dict[str, list[int]] | None = None
        self._close: dict[str, list[str]] = {}
        self._letters: str | None = None

    @property
    def count(self) -> int:
        return int(self._meta("count") or 0)

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def lookup(self, name: str) -> Card | None:
        if name in self._written:  # the rules ask for the same few names on every line
            return self._written[name]
        key = name_key(name)
        if key in self._cards:
            self._written[name] = self._cards[key]
            return self._cards[key]
        row = self._db.execute(
            "SELECT cards.data FROM names JOIN cards ON cards.id = names.card WHERE names.key = ?",
            (key,),
        ).fetchone()
        card = _card_from_json(row[0]) if row else None
        self._cards[key] = self._written[name] = card
        return card

    def _load_names(self) -> list[str]:
        """The sorted name keys and the names as written, stored as two texts (one read)."""
        if self._keys is None:
            rows = dict(self._db.execute("SELECT key, value FROM completions").fetchall())
            self._keys = rows["keys"].split("\n")
            self._names = rows["names"].split("\n")
        return self._keys

    def _word_starts(self) -> tuple[list[str], list[int]]:
        """Each name from the start of each of its words, sorted, and whose name each is: a
        word start is found by bisection, like a name's start."""
        if self._by_word is None:
            texts: list[str] = []
            owners: list[int] = []
            for index, key in enumerate(self._load_names()):
                texts.append(key)
                owners.append(index)
                for i, letter in enumerate(key):
                    if letter == " ":
                        texts.append(key[i + 1 :])
                        owners.append(index)
            order = sorted(range(len(texts)), key=texts.__getitem__)
            self._by_word = ([texts[i] for i in order], [owners[i] for i in order])
        return self._by_word

    def _bigram_index(self) -> dict[str, list[int]]:
        """The names by each pair of letters in their first PREFIX_SPAN characters."""
        if self._by_bigram is None:
            self._by_bigram = {}
            for index, key in enumerate(self._load_names()):
                for gram in set(_bigrams(key)):
                    self._by_bigram.setdefault(gram, []).append(index)
        return self._by_bigram

    def _closest(self, key: str, cutoff: float, span: int, skip: dict[int, None]) -> list[int]:
        """Names sharing the most letter pairs with the key, best ratio first, over their
        first `span` characters."""
        by_bigram = self._bigram_index()
        grams = set(_bigrams(key))
        counts: dict[int, int] = {}
        for gram in grams:
            for index in by_bigram.get(gram, ()):
                counts[index] = counts.get(index, 0) + 1
        enough = len(grams) / 2
        candidates = heapq.nlargest(FUZZY_CANDIDATES, counts.items(), key=lambda item: item[1])
        keys = self._keys or []
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(key[:span])
        scored = []
        for index, count in candidates:
            if count < enough or index in skip:
                continue
            matcher.set_seq1(keys[index][:span])
            if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                ratio = matcher.ratio()
                if ratio >= cutoff:
                    scored.append((-ratio, index))
        return [index for _, index in sorted(scored)]

    def _one_typo_away(self, typed: str) -> Iterator[str]:
        """Every text one typo from what was typed: two letters swapped, one left out, one
        too many, one wrong (the letters are those of the names)."""
        if self._letters is None:
            self._letters = "".join(sorted(set("".join(self._load_names()))))
        letters = self._letters
        for i in range(len(typed) - 1):
            yield typed[:i] + typed[i + 1] + typed[i] + typed[i + 2 :]
        for i in range(len(typed)):
            yield typed[:i] + typed[i + 1 :]
        for i in range(1, len(typed) + 1):
            for letter in letters:
                yield typed[:i] + letter + typed[i:]
        for i in range(1, len(typed)):
            for letter in letters:
                yield typed[:i] + letter + typed[i + 1 :]

    def search(self, text: str, limit: int) -> list[str]:
        keys = self._load_names()
        query = name_key(text)
        found: dict[int, None] = {}
        start = bisect.bisect_left(keys, query)
        for index in range(start, len(keys)):  # 1. names that start with what was typed
            if not keys[index].startswith(query) or len(found) >= limit:
                break
            found[index] = None
        words = query.split()
        if len(found) < limit and words:  # 2. each typed word starts a word of the name
            texts, owners = self._word_starts()
            longest = max(words, key=len)  # the fewest names to try
            spaced_words = [" " + word for word in words]
            for at in range(bisect.bisect_left(texts, longest), len(texts)):
                if not texts[at].startswith(longest):
                    break
                index = owners[at]
                spaced = " " + keys[index]
                if index not in found and all(word in spaced for word in spaced_words):
                    found[index] = None
                    if len(found) >= limit:
                        break
        if not found and len(query) >= 3:  # 3. nothing starts so: a start one typo away
            for variant in self._one_typo_away(query[:PREFIX_SPAN]):
                for index in range(bisect.bisect_left(keys, variant), len(keys)):
                    if not keys[index].startswith(variant) or len(found) >= limit:
                        break
                    found[index] = None
        return [self._names[index] for index in found]

    def close_names(self, name: str, limit: int) -> list[str]:
        key = name_key(name)
        if key not in self._close:
            self._load_names()
            closest = self._closest(key, 0.8, max(len(key), PREFIX_SPAN), {})
            self._close[key] = [self._names[index] for index in closest[:limit]]
        return self._close[key]

    def close(self) -> None:
        self._db.close()


def _bigrams(key: str) -> list[str]:
    text = " " + key[:PREFIX_SPAN]
    return [text[i : i + 2] for i in range(len(text) - 1)]


def _card_from_json(data: str) -> Card:
    raw = json.loads(data)
    raw["faces"] = tuple(Face(**face) for face in raw["faces"])
    raw["keywords"] = tuple(raw["keywords"])
    return Card(**raw)


# ---- opening --------------------------------------------------------------------------


def _sqlite3() -> ModuleType:
    """The standard library's SQLite, loaded with the first index (a server without one
    does without its 0.9 MB); a Python built without it has no card index, and every
    other feature works."""
    try:
        import sqlite3
    except ImportError:
        raise CardFileError(
            "this Python has no sqlite3 module, which the card index needs; every other "
            "feature works without it"
        ) from None
    return sqlite3


def open_index(path: Path) -> SqliteCardIndex:
    """An index file, or a Scryfall or MTGJSON card file imported into memory."""
    sqlite3 = _sqlite3()
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise CardFileError(f"{path}: {error.strerror or error}") from None
    if head != SQLITE_MAGIC:
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        _fill(connection, read_cards(path), str(path))
        return SqliteCardIndex(connection, str(path))
    try:
        connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
        )
        rows = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError as error:
        raise CardFileError(f"{path}: not an mtgr card index ({error})") from None
    if rows.get("format") != FORMAT or rows.get("version") != VERSION:
        connection.close()
        raise CardFileError(
            f"{path}: not an mtgr card index of version {VERSION}; build it again with "
            "`mtgr cards import FILE`"
        )
    return SqliteCardIndex(connection, str(path))


# ---- building -------------------------------------------------------------------------


def build_index(source: Path, target: Path, progress: Callable[[int], None] | None = None) -> int:
    """Imports a card file into an index at `target`, replacing it only once the new one is
    complete; returns how many cards it holds."""
    sqlite3 = _sqlite3()
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    os.close(handle)
    try:
        connection = sqlite3.connect(temporary)
        try:
            count = _fill(connection, read_cards(source, progress), str(source))
        finally:
            connection.close()
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return count


def _fill(connection: sqlite3.Connection, cards: Iterable[Card], source: str) -> int:
    connection.executescript(_SCHEMA)
    faces: list[tuple[str, int]] = []
    names: list[str] = []
    seen: set[str] = set()
    count = 0
    with connection:
        for card in cards:
            key = name_key(card.name)
            if key in seen:  # another printing of a card already read (default_cards, all_cards)
                continue
            seen.add(key)
            count += 1
            data = card_data(card)
            connection.execute(
                "INSERT INTO cards (id, name, data) VALUES (?, ?, ?)",
                (count, card.name, json.dumps(data, ensure_ascii=False, separators=(",", ":"))),
            )
            connection.execute("INSERT INTO names (key, card) VALUES (?, ?)", (key, count))
            names.append(card.name)
            for face in face_names(card.name):
                faces.append((name_key(face), count))
                names.append(face)
        if count == 0:
            raise CardFileError(
                f"{source}: no cards in it; expected Scryfall bulk data or AtomicCards.json"
            )
        # a face alone finds its card, unless another card has that name (full names first)
        connection.executemany("INSERT OR IGNORE INTO names (key, card) VALUES (?, ?)", faces)
        # what completion offers: every full name, and each face of a two-faced card, by key
        written = {name_key(name): name for name in reversed(names)}
        ordered = sorted(written)
        connection.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        connection.executemany(
            "INSERT INTO completions (key, value) VALUES (?, ?)",
            [("keys", "\n".join(ordered)), ("names", "\n".join(written[k] for k in ordered))],
        )
        connection.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [("format", FORMAT), ("version", VERSION), ("source", source), ("count", str(count))],
        )
    return count
