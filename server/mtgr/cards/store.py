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
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path

import platformdirs

from mtgr.cards.formats import CardFileError, read_cards
from mtgr.cards.model import Card, Face
from mtgr.cards.names import face_names, name_key

FORMAT = "mtgr-cards"
VERSION = "1"
SQLITE_MAGIC = b"SQLite format 3\x00"

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
        self._cards: dict[str, Card | None] = {}
        self._keys: list[str] | None = None  # sorted name keys, read on the first search
        self._names: list[str] = []  # the name written for each key, in the same order
        self._by_initial: dict[str, list[int]] = {}

    @property
    def count(self) -> int:
        return int(self._meta("count") or 0)

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def lookup(self, name: str) -> Card | None:
        key = name_key(name)
        if key in self._cards:
            return self._cards[key]
        row = self._db.execute(
            "SELECT cards.data FROM names JOIN cards ON cards.id = names.card WHERE names.key = ?",
            (key,),
        ).fetchone()
        card = _card_from_json(row[0]) if row else None
        self._cards[key] = card
        return card

    def _load_names(self) -> list[str]:
        if self._keys is None:
            rows = self._db.execute("SELECT key, name FROM completions ORDER BY key").fetchall()
            self._keys = [key for key, _ in rows]
            self._names = [name for _, name in rows]
            for index, key in enumerate(self._keys):
                self._by_initial.setdefault(key[:1], []).append(index)
        return self._keys

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
        if len(found) < limit and query:  # 2. every typed word starts a word of the name
            for index, key in enumerate(keys):
                if index not in found and _words_start(words, key):
                    found[index] = None
                    if len(found) >= limit:
                        break
        if len(found) < limit and len(query) >= 3:  # 3. a misspelt start: the closest ones
            size = len(query)
            scored = []
            matcher = difflib.SequenceMatcher(autojunk=False)
            matcher.set_seq2(query)
            for index in self._by_initial.get(query[:1], ()):
                if index in found:
                    continue
                matcher.set_seq1(keys[index][:size])
                if matcher.real_quick_ratio() >= 0.75 and matcher.quick_ratio() >= 0.75:
                    ratio = matcher.ratio()
                    if ratio >= 0.75:
                        scored.append((-ratio, index))
            for _, index in sorted(scored)[: limit - len(found)]:
                found[index] = None
        return [self._names[index] for index in found]

    def close_names(self, name: str, limit: int) -> list[str]:
        keys = self._load_names()
        key = name_key(name)
        close = difflib.get_close_matches(key, keys, n=limit, cutoff=0.8)
        if not close:
            return []
        return [self._names[bisect.bisect_left(keys, found)] for found in close]

    def close(self) -> None:
        self._db.close()


def _words_start(words: list[str], key: str) -> bool:
    name_words = key.split()
    return all(any(w.startswith(word) for w in name_words) for word in words)


def _card_from_json(data: str) -> Card:
    raw = json.loads(data)
    raw["faces"] = tuple(Face(**face) for face in raw["faces"])
    raw["keywords"] = tuple(raw["keywords"])
    return Card(**raw)


# ---- opening --------------------------------------------------------------------------


def open_index(path: Path) -> SqliteCardIndex:
    """An index file, or a Scryfall or MTGJSON card file imported into memory."""
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
            data = asdict(card)
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
        # what completion offers: every full name, and each face of a two-faced card
        connection.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, name TEXT NOT NULL)")
        connection.executemany(
            "INSERT OR IGNORE INTO completions (key, name) VALUES (?, ?)",
            [(name_key(name), name) for name in names],
        )
        connection.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [("format", FORMAT), ("version", VERSION), ("source", source), ("count", str(count))],
        )
    return count
