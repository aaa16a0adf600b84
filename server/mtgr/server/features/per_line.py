"""Values derived from each line of an open document, kept between requests.

A request on a long record reads every line, but between two requests an edit changes a
few: only the lines between the unchanged start and end of the text are derived again.
A value must depend on the line's text alone (its parse is a function of it). Finding
the unchanged ends compares the line texts a chunk at a time (the document's own
strings, so mostly as the same objects), so an unchanged document costs a copy of the
list of its texts, not a call a line.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import compress
from operator import attrgetter, not_
from typing import TYPE_CHECKING, Generic, TypeVar
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from mtgr.server.session import OpenDocument
    from mtgr.syntax.document import Document
    from mtgr.syntax.tree import Line

V = TypeVar("V")

_CHUNK = 512


class PerLine(Generic[V]):
    """A value derived from each line, brought up to date by `update`."""

    def __init__(self) -> None:
        self._texts: list[str] = []  # the texts the values were derived from
        self.values: list[V] = []
        # what the last update that changed anything left as it was: as many lines from
        # the start, and from the end
        self.head = 0
        self.tail = 0

    def update(self, texts: Sequence[str], derive: Callable[[int, int], list[V]]) -> bool:
        """Derives the values of the lines whose text changed since the last update
        (`derive(first, end)`: those of the lines from `first` to before `end`, in one
        call, so that the first update of a long record runs one loop, not a call a line);
        False when nothing changed."""
        old = self._texts
        if len(old) == len(texts) and old == texts:
            return False
        head = common_length(old, texts, 1)
        tail = min(common_length(old, texts, -1), min(len(old), len(texts)) - head)
        end = len(texts) - tail
        self.values[head : len(old) - tail] = derive(head, end)
        self._texts = list(texts)
        self.head, self.tail = head, tail
        return True


def common_length(a: Sequence[object], b: Sequence[object], direction: int) -> int:
    """How many items the sequences share from the start (direction 1) or the end (-1);
    whole chunks are compared as slices first (at C speed)."""
    limit = min(len(a), len(b))
    done = 0
    while done + _CHUNK <= limit and _slice(a, done, _CHUNK, direction) == _slice(
        b, done, _CHUNK, direction
    ):
        done += _CHUNK
    while done < limit and a[_index(done, direction)] == b[_index(done, direction)]:
        done += 1
    return done


def _slice(items: Sequence[object], done: int, chunk: int, direction: int) -> Sequence[object]:
    if direction == 1:
        return items[done : done + chunk]
    return items[len(items) - done - chunk : len(items) - done]


def _index(done: int, direction: int) -> int:
    return done if direction == 1 else -1 - done


# Long answers are kept in chunks of lines: one starts at each line whose id is a multiple
# of this (ids stay with their lines, so the chunks move with an edit and keep what they
# hold), and where the document starts.
CHUNK_EVERY = 64


def chunk_starts(ids: Sequence[int]) -> list[int]:
    """Where the chunks of lines with these ids start, and the end of the last."""
    return _normalized(_marks(ids, 0), len(ids))


_LINE_ID = attrgetter("id")


class _Chunks:
    """An open document's line ids and chunk starts, and the lines they were read from."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = list(lines)
        self.ids = list(map(_LINE_ID, lines))
        self.marks = _marks(self.ids, 0)  # where a line's id starts a chunk
        self.starts = _normalized(self.marks, len(lines))
        self.edits = -1

    def update(self, lines: list[Line]) -> None:
        """Reads again only the lines between those the edits left at the start and end."""
        old = self.lines
        head = common_length(old, lines, 1)
        tail = min(common_length(old, lines, -1), min(len(old), len(lines)) - head)
        moved = len(lines) - len(old)
        end = len(lines) - tail
        ids = list(map(_LINE_ID, lines[head:end]))
        marks = self.marks
        low, high = bisect_left(marks, head), bisect_left(marks, len(old) - tail)
        self.marks = [*marks[:low], *_marks(ids, head), *(mark + moved for mark in marks[high:])]
        self.ids = [*self.ids[:head], *ids, *self.ids[len(old) - tail :]]  # a new list: shared
        self.lines = list(lines)
        self.starts = _normalized(self.marks, len(lines))


def _marks(ids: Sequence[int], first: int) -> list[int]:
    """The places of the ids that start a chunk, counted from `first`."""
    return list(compress(range(first, first + len(ids)), map(not_, map(CHUNK_EVERY.__rmod__, ids))))


def _normalized(marks: list[int], size: int) -> list[int]:
    """`chunk_starts` from the marks of a document of `size` lines."""
    starts = marks.copy()
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(size)
    return starts


# Each open document's line ids and chunk starts, with the text and edit count they hold for.
_CHUNKS: WeakKeyDictionary[OpenDocument, tuple[Document, _Chunks]] = WeakKeyDictionary()


def line_chunks(document: OpenDocument) -> tuple[list[int], list[int]]:
    """The ids of the document's lines and `chunk_starts` of them, kept until the next
    edit and then read again only where the edits were: highlighting and the inlay hints
    of the whole file both ask for them after an edit, and on 50,000 lines reading them
    all cost 10 ms. The lists are shared: not to be changed."""
    kept = _CHUNKS.get(document)
    text = document.document
    if kept is None or kept[0] is not text:
        kept = _CHUNKS[document] = (text, _Chunks(text.lines))
    chunks = kept[1]
    if chunks.edits != document.edits:
        if chunks.edits >= 0:
            chunks.update(text.lines)
        chunks.edits = document.edits
    return chunks.ids, chunks.starts
