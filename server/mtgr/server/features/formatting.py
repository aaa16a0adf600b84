"""Formatting and range formatting: the canonical layout of syntax/format.py, as minimal edits.

Only the lines that change get an edit, so the client keeps its cursor and undo history
on every other line. Range formatting never adds or removes lines. Each line's canonical
layout is kept between requests (features/per_line.py): formatting a long record that
needs nothing costs the lines edited since the last request, and answers [].
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from lsprotocol import types

from mtgr.server.features.per_line import PerLine
from mtgr.syntax.format import format_line, format_text
from mtgr.syntax.tree import TokenKind

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument


def _line_edit(document: OpenDocument, line: int, new_text: str) -> types.TextEdit:
    old = document.document.texts[line]
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=line, character=0),
            end=types.Position(line=line, character=document.to_character(line, len(old))),
        ),
        new_text=new_text,
    )


# Each open document's lines in canonical layout (a line already in layout as its text,
# mostly the document's own string); gone with the document when it closes.
_FORMATTED: WeakKeyDictionary[OpenDocument, PerLine[str]] = WeakKeyDictionary()


def formatted_lines(document: OpenDocument) -> list[str]:
    """Every line in canonical layout (`format_line`), derived again only for the lines
    edited since the last call."""
    kept = _FORMATTED.get(document)
    if kept is None:
        kept = _FORMATTED[document] = PerLine()
    texts = document.document.texts
    lines = document.document.lines
    # by the id of a parse's token columns (kept in the value): where a line of that shape
    # ends when it is in layout as written, -1 if no line of it is (`_end_in_layout`)
    ends: dict[int, tuple[tuple[tuple[int, int, TokenKind], ...], int]] = {}

    def layout(first: int, end: int) -> list[str]:
        found: list[str] = []
        for text, line in zip(texts[first:end], lines[first:end], strict=True):
            parsed = line.parsed
            if parsed.offset == 0 and parsed.comment is None and parsed.error is None:
                # most lines: decided by their shape, not by joining their words again
                columns = parsed.token_columns
                known = ends.get(id(columns))
                if known is None or known[0] is not columns:
                    known = ends[id(columns)] = (columns, _end_in_layout(columns, text))
                if known[1] == len(text):
                    found.append(text)
                    continue
            new = format_line(text, parsed)
            found.append(text if new == text else new)
        return found

    kept.update(texts, layout)
    return kept.values


def _end_in_layout(columns: tuple[tuple[int, int, TokenKind], ...], text: str) -> int:
    """Where a line of this shape (token columns) that starts with its statement and has
    no comment ends if it is in layout as written: its tokens one space apart from its
    first column (`format_line` joins them so), -1 if they are not. What lies between two
    tokens is not masked in a shape (digits and strings are, inside tokens), so one line
    of a shape answers for all of them."""
    end = -1
    for start, token_end, _ in columns:
        if start != end + 1 or (end >= 0 and text[end] != " "):
            return -1
        end = token_end
    return end


def format_document(document: OpenDocument) -> list[types.TextEdit]:
    texts = document.document.texts
    newline = document.document.newline
    breaks = document.document.breaks
    if breaks.count(newline) != len(breaks) - 1:
        # mixed line breaks all become the first one: one edit over the whole text
        last = len(texts) - 1
        whole = types.Range(
            start=types.Position(line=0, character=0),
            end=types.Position(line=last, character=document.to_character(last, len(texts[last]))),
        )
        return [types.TextEdit(range=whole, new_text=format_text(document.document.text))]
    # what format_text gives, line by line: trailing blank lines go, one line break ends it
    layout = formatted_lines(document)
    kept = len(layout)
    while kept and layout[kept - 1] == "":
        kept -= 1
    formatted = [*layout[:kept], ""] if kept else [""]
    if formatted == texts:  # nothing to change; most lines compare as the same string
        return []
    if len(formatted) == len(texts):
        return [
            _line_edit(document, i, new)
            for i, (old, new) in enumerate(zip(texts, formatted, strict=True))
            if old != new
        ]
    # Trailing blank lines go or the final newline comes: one edit from the last content
    # line to the end, so that no two edits touch.
    content = len(formatted) - 1  # format_text ends with a newline (or is empty)
    edits = [
        _line_edit(document, i, formatted[i])
        for i in range(content - 1)
        if texts[i] != formatted[i]
    ]
    first = max(content - 1, 0)
    last = len(texts) - 1
    edits.append(
        types.TextEdit(
            range=types.Range(
                start=types.Position(line=first, character=0),
                end=types.Position(
                    line=last, character=document.to_character(last, len(texts[last]))
                ),
            ),
            new_text=formatted[first] + document.document.newline if content else "",
        )
    )
    return edits


def format_range(document: OpenDocument, selected: types.Range) -> list[types.TextEdit]:
    last = min(selected.end.line, len(document.document) - 1)
    if selected.end.character == 0 and last > selected.start.line:
        last -= 1  # a selection up to the start of a line does not include that line
    layout = formatted_lines(document)
    return [
        _line_edit(document, i, layout[i])
        for i in range(max(selected.start.line, 0), last + 1)
        if layout[i] != document.document.texts[i]
    ]


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        document = server.session.get(params.text_document.uri)
        if document is None or document.is_markdown:
            return None
        return format_document(document)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(
        params: types.DocumentRangeFormattingParams,
    ) -> list[types.TextEdit] | None:
        document = server.session.get(params.text_document.uri)
        if document is None or document.is_markdown:
            return None
        return format_range(document, params.range)
