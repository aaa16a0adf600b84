"""The document model: one parsed line per line of text, re-parsing only what an edit touched.

Each line has a stable id. An edit keeps the ids of the lines it did not touch and of the
first line it touched, so that the rule checker's saved states (which name lines by id)
stay valid above and below the edit. Columns here are code points; the server converts
the client's UTF-16 or UTF-8 positions before calling in.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections import deque
from collections.abc import Iterator
from itertools import count
from operator import attrgetter

from mtgr.syntax import tree as t
from mtgr.syntax.cache import ParseCache
from mtgr.syntax.parser import BROAD_SHAPES, SHAPES, direct_constructor
from mtgr.syntax.parser import parse_line as _parse_line
from mtgr.syntax.tree import Line

# each line parsed lately, by its text (see mtgr.syntax.cache). An open document holds its
# lines' results anyway; what the cache alone keeps alive is the versions edits replaced,
# so it is kept small: 4 MB (about 2,600 short lines) shares equal lines on opening a
# 50,000-line record as well as 32 MB did (measured: 23,718 results against 23,624).
LINES: ParseCache[t.ParsedLine] = ParseCache(max_entries=16384, max_bytes=4 * 2**20)


def parse_line(text: str, owner: object = None) -> t.ParsedLine:
    """Equal lines parse alike, so they share one result, kept for `owner` (a document)."""
    found = LINES.get(text, owner)
    if found is not None:
        return found
    return LINES.put(text, _parse_line(text, owner), owner)


# a Line made without the frozen dataclass's __init__, which took a fifth of opening a record
_new_line = direct_constructor(Line)


def clear_parse_caches() -> None:
    """Forgets every parsed line and shape, so the next parse starts cold (benchmarks)."""
    LINES.clear()
    SHAPES.clear()
    BROAD_SHAPES.clear()


def release_parse_caches(owner: object) -> None:
    """Frees what a closed document kept in the caches and no other document used since."""
    LINES.release(owner)
    SHAPES.release(owner)
    BROAD_SHAPES.release(owner)


_line_id = attrgetter("id")
# an edit that replaces more lines than this drops the line-number table rather than
# unnumbering its lines one by one (a paste over a whole record)
_FORGET_TABLE_AT = 4096

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_AND_BREAK = re.compile(r"(\r\n|\r|\n)")


def split_lines(text: str) -> list[str]:
    """Lines as an editor counts them: CRLF, LF and CR each end a line (as in LSP)."""
    return LINE_BREAK.split(text)


def split_with_breaks(text: str) -> tuple[list[str], list[str]]:
    """The lines and, for each, the break that ends it ("" for the last line).

    Keeping the breaks is what lets an edit that joins a lone CR and an LF into one CRLF
    (or splits one) count lines as the client does."""
    if "\r" not in text:  # most texts: split in one pass, every break the one "\n"
        texts = text.split("\n")
        return texts, ["\n"] * (len(texts) - 1) + [""]
    parts = _LINE_AND_BREAK.split(text)
    return parts[::2], [*parts[1::2], ""]


class Document:
    def __init__(self, text: str = "", owner: object = None) -> None:
        # whom this document's parses are kept for: release_parse_caches(owner) frees them
        self.owner = object() if owner is None else owner
        self.texts: list[str]
        self.breaks: list[str]  # the line break after each line, "" after the last
        self.texts, self.breaks = split_with_breaks(text)
        self._ids = count(len(self.texts))  # the ids of lines that edits add
        self.lines: list[Line] = self._open(self.texts)
        # each line id's line number (-1: none), built when first asked and kept through
        # edits; an array: a dict of 50,000 ints cost 4 MB
        self._numbers: array[int] | None = None
        # the first line whose number may have moved since (None: none), renumbered from
        # there when next asked: an edit far down costs the lines below it, not the file
        self._moved_from: int | None = None

    def number_of(self, line_id: int | None) -> int | None:
        """The zero-based line number of a line id, or None for a line no longer there."""
        if line_id is None:
            return None
        numbers = self._numbers
        if numbers is None:
            numbers = self._numbers = self._number_table()
        elif self._moved_from is not None:
            self._renumber(numbers, self._moved_from)
        number = numbers[line_id] if 0 <= line_id < len(numbers) else -1
        return None if number < 0 else number

    def _number_table(self) -> array[int]:
        ids = array("i", map(_line_id, self.lines))
        numbers = array("i", [-1]) * (max(ids, default=-1) + 1)
        deque(map(numbers.__setitem__, ids, range(len(ids))), maxlen=0)  # a loop in C
        return numbers

    def _renumber(self, numbers: array[int], start: int) -> None:
        self._moved_from = None
        ids = array("i", map(_line_id, self.lines[start:]))
        top = max(ids, default=-1)
        if top >= len(numbers):
            numbers.extend(array("i", [-1]) * (top + 1 - len(numbers)))
        deque(map(numbers.__setitem__, ids, range(start, start + len(ids))), maxlen=0)

    def _open(self, texts: list[str]) -> list[Line]:
        """The lines of a whole text: a line repeated in it is parsed (and looked up) once,
        and its text kept once (`texts` takes the first copy: a third of a long record's
        lines repeat an earlier one, "step upkeep", a land's tap, and their strings cost
        more than their parses).

        Parsing makes no reference cycles, so the cyclic collector is paused meanwhile:
        its automatic passes went over the new objects again and again, a quarter of the
        time of opening a long record (the language server pauses it for good)."""
        owner = self.owner
        parsed: dict[str, tuple[str, t.ParsedLine]] = {}
        kept = LINES.get
        lines = []
        collecting = gc.isenabled()
        gc.disable()
        try:
            for line_id, text in enumerate(texts):
                seen = parsed.get(text)
                if seen is None:
                    found = kept(text, owner)
                    if found is None:
                        found = _parse_line(text, owner)
                    parsed[text] = (text, found)
                else:
                    texts[line_id], found = seen
                lines.append(_new_line(line_id, found))
        finally:
            if collecting:
                gc.enable()
        return lines

    def _line(self, text: str, line_id: int | None = None) -> Line:
        line_id = next(self._ids) if line_id is None else line_id
        return _new_line(line_id, parse_line(text, self.owner))

    @property
    def text(self) -> str:
        return "".join(text + end for text, end in zip(self.texts, self.breaks, strict=True))

    @property
    def newline(self) -> str:
        """The document's usual line break, for edits that add one."""
        return self.breaks[0] if len(self.breaks) > 1 else "\n"

    def __len__(self) -> int:
        return len(self.texts)

    def __iter__(self) -> Iterator[Line]:
        return iter(self.lines)

    def edit(self, start: tuple[int, int], end: tuple[int, int], new_text: str) -> int:
        """Replaces the text between two (line, column) positions; returns the first changed line.

        Positions past the end of a line or of the document are clamped, as LSP asks.
        """
        start = self._clamp(start)
        end = self._clamp(end)
        if end < start:
            start, end = end, start
        (first, first_col), (last, last_col) = start, end
        # The lines on either side take part: the new text may join a CR that ends the line
        # above with an LF it starts with, or end with a CR that meets the LF after it.
        low, high = max(first - 1, 0), min(last + 1, len(self.texts) - 1)
        before = "".join(self.texts[i] + self.breaks[i] for i in range(low, first))
        before += self.texts[first][:first_col]
        after = self.texts[last][last_col:] + self.breaks[last]
        after += "".join(self.texts[i] + self.breaks[i] for i in range(last + 1, high + 1))
        texts, breaks = split_with_breaks(before + new_text + after)
        if self.breaks[high]:  # the region ends with a line break: drop the empty remainder
            texts.pop()
            breaks.pop()
        return self._splice(low, high + 1, texts, breaks)

    def replace_all(self, text: str) -> int:
        """Replaces the whole text, keeping the ids of the lines that did not change."""
        new_texts, new_breaks = split_with_breaks(text)
        old = list(zip(self.texts, self.breaks, strict=True))
        new = list(zip(new_texts, new_breaks, strict=True))
        prefix = 0
        limit = min(len(new), len(old))
        while prefix < limit and new[prefix] == old[prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and new[len(new) - 1 - suffix] == old[len(old) - 1 - suffix]:
            suffix += 1
        return self._splice(
            prefix,
            len(old) - suffix,
            new_texts[prefix : len(new) - suffix],
            new_breaks[prefix : len(new) - suffix],
        )

    def _splice(self, start: int, end: int, texts: list[str], breaks: list[str]) -> int:
        """Replaces lines [start, end) with `texts`, keeping the ids of lines whose text
        survives at either end, and the first old id for a line edited in place.

        Returns the first line that changed: every line after it either has a new id or
        the same text as before, which is what lets the checker stop early and be exact.
        """
        old = self.lines[start:end]
        old_texts = self.texts[start:end]
        ids: list[int | None] = [None] * len(texts)
        head = 0
        while head < min(len(old), len(texts)) and old_texts[head] == texts[head]:
            ids[head] = old[head].id
            head += 1
        tail = 0
        while (
            tail < min(len(old), len(texts)) - head
            and old_texts[len(old) - 1 - tail] == texts[len(texts) - 1 - tail]
        ):
            ids[len(texts) - 1 - tail] = old[len(old) - 1 - tail].id
            tail += 1
        if head < len(texts) - tail and head < len(old) - tail:
            ids[head] = old[head].id  # the line edited in place keeps its id
        numbers = self._numbers
        if numbers is not None and len(old) > _FORGET_TABLE_AT:
            numbers = self._numbers = self._moved_from = None  # built again when asked
        elif numbers is not None:
            for line in old:
                if line.id < len(numbers):  # a line added since it was last renumbered is not
                    numbers[line.id] = -1
        self.texts[start:end] = texts
        self.breaks[start:end] = breaks
        self.lines[start:end] = [
            self._line(text, line_id) for text, line_id in zip(texts, ids, strict=True)
        ]
        if numbers is not None and len(texts) != end - start:
            moved = self._moved_from
            self._moved_from = start if moved is None else min(moved, start)
        elif numbers is not None:  # the lines below keep their numbers: typing within lines
            for number in range(start, end):
                line_id = self.lines[number].id
                if line_id >= len(numbers):
                    numbers.extend([-1] * (line_id + 1 - len(numbers)))
                numbers[line_id] = number
        return min(start + head, max(len(self.texts) - 1, 0))

    def _clamp(self, position: tuple[int, int]) -> tuple[int, int]:
        line, column = position
        if line >= len(self.texts):
            return len(self.texts) - 1, len(self.texts[-1])
        line = max(0, line)
        return line, max(0, min(column, len(self.texts[line])))
