"""Parse results by text, bounded in entries and in bytes, and freed with their document.

Equal lines and lines of one shape parse alike, so their results are kept and shared. An
entry's cost grows with its text: a 100,000-character line keeps its text and a result
of about the same size, so a bound in entries alone would let typing into such a line keep
100 KB a key. Each entry also remembers the document that used it last (its owner); a
document that closes releases what it owned, and what other documents used since stays.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

_V = TypeVar("_V")

# What an entry costs besides its text: the result's objects for a short line (about
# 1.3 KB measured with tracemalloc on generated records), rounded up.
ENTRY_BYTES = 1536
# A result holds a few copies of its text (the key, the statement's strings and spans):
# measured up to 3.7 bytes for each character of a long line, rounded up.
BYTES_PER_CHARACTER = 4


def entry_cost(text: str) -> int:
    """The bytes an entry for `text` is counted at."""
    return ENTRY_BYTES + BYTES_PER_CHARACTER * len(text)


class ParseCache(Generic[_V]):
    """The least recently used entries go first once there are more than `max_entries` or
    they cost more than `max_bytes`; a result that alone costs more is not kept."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0  # what the entries cost now
        # text -> [result, cost, owner]
        self._entries: OrderedDict[str, list[object]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, text: str) -> bool:
        return text in self._entries

    def get(self, text: str, owner: object = None) -> _V | None:
        """The result kept for `text`, which `owner` now owns; None if none is kept."""
        entry = self._entries.get(text)
        if entry is None:
            return None
        self._entries.move_to_end(text)
        entry[2] = owner
        return entry[0]  # type: ignore[return-value]

    def put(self, text: str, result: _V, owner: object = None) -> _V:
        """Keeps `result` for `text` on behalf of `owner`, and returns it."""
        cost = entry_cost(text)
        if cost > self.max_bytes:
            return result
        old = self._entries.pop(text, None)
        if old is not None:
            self.bytes -= old[1]  # type: ignore[operator]
        self._entries[text] = [result, cost, owner]
        self.bytes += cost
        while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
            _, (_, dropped, _) = self._entries.popitem(last=False)
            self.bytes -= dropped  # type: ignore[operator]
        return result

    def release(self, owner: object) -> None:
        """Drops every entry `owner` used last (a document that closed)."""
        for text in [text for text, entry in self._entries.items() if entry[2] is owner]:
            self.bytes -= self._entries.pop(text)[1]  # type: ignore[operator]

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0
