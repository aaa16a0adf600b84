"""Formatting and range formatting: the canonical layout of syntax/format.py, as minimal edits.

Only the lines that change get an edit, so the client keeps its cursor and undo history
on every other line. Range formatting never adds or removes lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.syntax.format import format_line, format_text

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


def format_document(document: OpenDocument) -> list[types.TextEdit]:
    texts = document.document.texts
    newline = document.document.newline
    if any(end != newline for end in document.document.breaks[:-1]):
        # mixed line breaks all become the first one: one edit over the whole text
        last = len(texts) - 1
        whole = types.Range(
            start=types.Position(line=0, character=0),
            end=types.Position(line=last, character=document.to_character(last, len(texts[last]))),
        )
        return [types.TextEdit(range=whole, new_text=format_text(document.document.text))]
    formatted = format_text("\n".join(texts)).split("\n")
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
    return [
        _line_edit(document, i, new)
        for i in range(max(selected.start.line, 0), last + 1)
        if (new := format_line(document.document.texts[i])) != document.document.texts[i]
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
