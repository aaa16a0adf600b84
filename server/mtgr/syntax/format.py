"""The canonical layout of a .mtgr text, so that diffs show changes of meaning only.

A line that parses is rewritten as its tokens joined by single spaces, with no
indentation, and its comment (if any) one space after the statement and with one space
after `//`. A line that does not parse is kept exactly as written: the formatter must
never guess at text it does not understand. Only ASCII spaces and tabs are layout: a
line whose other characters (a no-break space, a control character) the layout would
move or drop is kept as written too. Every line break becomes the text's first one,
trailing blank lines go, and the text ends with one line break. Formatting is idempotent
and keeps every line's meaning (`meaning` of each line is unchanged); the tests prove both.
"""

from __future__ import annotations

import dataclasses
import re

from mtgr.syntax import tree as t
from mtgr.syntax.document import LINE_BREAK, parse_line, split_lines

_SLASHES = re.compile(r"/{2,}")
# the only characters formatting may add, remove or change: every other character
# (no-break and other Unicode spaces, a byte order mark, control characters) is text
_BLANKS = " \t"
_NOT_BLANK = re.compile(r"[^ \t]+")
_LEADING = frozenset(" \t\ufeff")


def format_line(line: str, parsed: t.ParsedLine | None = None) -> str:
    """One line in canonical layout; a line that does not parse comes back unchanged.
    `parsed` is the line's parse when the caller holds it (an open document does)."""
    if parsed is None:
        parsed = parse_line(line)
    if parsed.error is not None:
        return line
    offset = parsed.offset
    words = [line[offset + start : offset + end] for start, end, _ in parsed.token_columns]
    if parsed.comment is not None:
        words.append(_format_comment(line[parsed.comment.start : parsed.comment.end]))
    # a byte order mark the parser reads past stays where it is: it is text, not layout
    marks = (
        _without_blanks(line[: len(line) - len(line.lstrip(" \t\ufeff"))])
        if line[:1] in _LEADING
        else ""
    )
    formatted = marks + " ".join(words)
    if formatted == line:  # already in layout, most lines of a formatted record
        return line
    if _without_blanks(formatted) != _without_blanks(line):
        return line  # text outside the tokens that is not a blank: keep it where it is
    if meaning(parse_line(formatted)) != meaning(parsed):
        return line  # never reached while the grammar's tokens end at blanks; kept as a guard
    return formatted


def format_text(text: str) -> str:
    """The whole text in canonical layout, ending with exactly one line break (or empty).

    Every line break becomes the text's first one (CRLF stays CRLF, as black and ruff do),
    so that a file keeps the line endings its platform or repository wants."""
    lines = [format_line(line) for line in split_lines(text)]
    while lines and lines[-1] == "":
        lines.pop()
    newline = first_line_break(text)
    return newline.join(lines) + newline if lines else ""


def first_line_break(text: str) -> str:
    """The text's first line break, or LF for a text of one line."""
    match = LINE_BREAK.search(text)
    return match.group() if match else "\n"


def format_lines(lines: list[str]) -> list[str]:
    """Each line formatted on its own, for range formatting: line count unchanged."""
    return [format_line(line) for line in lines]


def meaning(parsed: t.ParsedLine) -> object:
    """A parsed line with every span removed: what formatting must keep."""
    return (
        _without_spans(parsed.statement),
        None if parsed.error is None else parsed.error.code,
        tuple(token.kind for token in parsed.tokens),
        parsed.allowed,
    )


# ---- helpers -------------------------------------------------------------------------


def _without_blanks(text: str) -> str:
    return "".join(_NOT_BLANK.findall(text))


def _format_comment(comment: str) -> str:
    marker = _SLASHES.match(comment)
    assert marker is not None
    body = comment[marker.end() :].strip(_BLANKS)
    return marker.group() + (" " + body if body else "")


def _without_spans(value: object) -> object:
    if isinstance(value, t.Span):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple(
                (f.name, _without_spans(getattr(value, f.name)))
                for f in dataclasses.fields(value)
                if f.compare and not f.name.startswith("_")  # caches are not meaning
            ),
        )
    if isinstance(value, tuple | list):
        return tuple(_without_spans(v) for v in value)
    return value
