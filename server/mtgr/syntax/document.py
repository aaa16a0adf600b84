"""The document model: one parsed line per line of text, re-parsing only what an edit touched.

Each line has a stable id. An edit keeps the ids of the lines it did not touch and of the
first line it touched, so that the rule checker's saved states (which name lines by id)
stay valid above and below the edit. Columns here are code points; the server converts
the client's UTF-16 or UTF-8 positions before calling in.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import count

from mtgr.rules.walk import Line
from mtgr.syntax import tree as t
from mtgr.syntax.parser import _parse_shape
from mtgr.syntax.parser import parse_line as _parse_line


@lru_cache(maxsize=65536)
def parse_line(text: str) -> t.ParsedLine:
    """Equal lines parse alike, so they share one result."""
    return _parse_line(text)


def clear_parse_caches() -> None:
    """Forgets every parsed line and shape, so the next parse starts cold (benchmarks)."""
    parse_line.cache_clear()
    _parse_shape.cache_clear()


def split_lines(text: str) -> list[str]:
    """Lines as an editor counts them: CRLF, LF and CR each end a line (as in LSP)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Document:
    def __init__(self, text: str = "") -> None:
        self._ids = count()
        self.texts: list[str] = split_lines(text)
        self.lines: list[Line] = [self._line(s) for s in self.texts]
        self._numbers: dict[int, int] | None = None  # line id -> line number, until an edit

    def number_of(self, line_id: int | None) -> int | None:
        """The zero-based line number of a line id, or None for a line no longer there."""
        if line_id is None:
            return None
        if self._numbers is None:
            self._numbers = {line.id: number for number, line in enumerate(self.lines)}
        return self._numbers.get(line_id)

    def _line(self, text: str, line_id: int | None = None) -> Line:
        return Line(next(self._ids) if line_id is None else line_id, parse_line(text))

    @property
    def text(self) -> str:
        return "\n".join(self.texts)

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
        before = self.texts[first][:first_col]
        after = self.texts[last][last_col:]
        replacement = split_lines(before + new_text + after)
        return self._splice(first, last + 1, replacement)

    def replace_all(self, text: str) -> int:
        """Replaces the whole text, keeping the ids of the lines that did not change."""
        new_texts = split_lines(text)
        prefix = 0
        limit = min(len(new_texts), len(self.texts))
        while prefix < limit and new_texts[prefix] == self.texts[prefix]:
            prefix += 1
        suffix = 0
        while (
            suffix < limit - prefix
            and new_texts[len(new_texts) - 1 - suffix] == self.texts[len(self.texts) - 1 - suffix]
        ):
            suffix += 1
        return self._splice(
            prefix, len(self.texts) - suffix, new_texts[prefix : len(new_texts) - suffix]
        )

    def _splice(self, start: int, end: int, texts: list[str]) -> int:
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
        if numbers is not None and len(texts) == end - start:
            for line in old:  # the lines below keep their numbers: typing within lines
                numbers.pop(line.id, None)
        else:
            numbers = self._numbers = None
        self.texts[start:end] = texts
        self.lines[start:end] = [
            self._line(text, line_id) for text, line_id in zip(texts, ids, strict=True)
        ]
        if numbers is not None:
            for number in range(start, end):
                numbers[self.lines[number].id] = number
        return min(start + head, max(len(self.texts) - 1, 0))

    def _clamp(self, position: tuple[int, int]) -> tuple[int, int]:
        line, column = position
        if line >= len(self.texts):
            return len(self.texts) - 1, len(self.texts[-1])
        line = max(0, line)
        return line, max(0, min(column, len(self.texts[line])))
