"""Texts for the reliability tests: the examples, lines of them, and UTF-16 positions."""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from mtgr.syntax.document import split_lines

ROOT = Path(__file__).resolve().parents[2]
_LINE_END = re.compile(r"\r\n|\n|\r")
EXAMPLES = sorted((ROOT / "examples").glob("*.mtgr"))


def example_texts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in EXAMPLES}


def example_lines() -> list[str]:
    """Every distinct non-blank line of the examples, in a stable order."""
    seen: dict[str, None] = {}
    for path in EXAMPLES:
        for line in split_lines(path.read_text(encoding="utf-8")):
            if line.strip():
                seen.setdefault(line, None)
    return list(seen)


def utf16_units(text: str) -> int:
    """How many UTF-16 code units a text takes (lone surrogates count one, as in editors)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_character(line: str, column: int) -> int:
    """A code-point column as a UTF-16 character offset."""
    return utf16_units(line[:column])


def utf16_to_offset(text: str, line: int, character: int) -> int:
    """An LSP (line, UTF-16 character) position as an offset into text, clamped as LSP asks."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
    if line >= len(starts):
        return len(text)
    content = split_lines(text)[line]
    units = 0
    for column, ch in enumerate(content):
        if units >= character:
            return starts[line] + column
        units += utf16_units(ch)
    return starts[line] + len(content)


def apply_change(text: str, start: tuple[int, int], end: tuple[int, int], new_text: str) -> str:
    """The text after an LSP change whose range is in (line, UTF-16 character) positions."""
    first = utf16_to_offset(text, *start)
    last = utf16_to_offset(text, *end)
    if last < first:
        first, last = last, first
    return text[:first] + new_text + text[last:]


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """The text after a server's edits (UTF-16 positions), applied from the last one up."""
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start, end = edit.range.start, edit.range.end
        text = apply_change(
            text, (start.line, start.character), (end.line, end.character), edit.new_text
        )
    return text
