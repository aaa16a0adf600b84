"""Navigation: definition, references, highlight and rename of `#N`; folding and selection ranges.

Object numbers are unique in the whole file (a later `game` does not reuse them), so an
object's occurrences are every `#N` token with that number. Lines that do not parse have
no tokens; a lexical scan finds their `#N` so that a rename does not skip them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from mtgr.server.features.raw import RawResult, raw_list
from mtgr.server.features.symbols import (
    block_range,
    document_blocks,
    reply,
    segment_folds,
    walk_blocks,
)
from mtgr.syntax import tree as t
from mtgr.syntax.occurrences import Occurrence, occurrences_in_line
from mtgr.syntax.parser import MAX_NUMBER_DIGITS

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

_NEW_NUMBER = re.compile(rf"#?([0-9]{{1,{MAX_NUMBER_DIGITS}}})")


class RenameRefused(JsonRpcException):
    """A rename the user must correct: the reply is an error with a clear message."""

    CODE = types.LSPErrorCodes.RequestFailed


def occurrences(document: OpenDocument, number: int | None = None) -> list[Occurrence]:
    found: list[Occurrence] = []
    for index, (text, line) in enumerate(
        zip(document.document.texts, document.document.lines, strict=True)
    ):
        found.extend(
            o
            for o in occurrences_in_line(text, line.parsed, index)
            if number is None or o.number == number
        )
    return found


def object_at(document: OpenDocument, position: types.Position) -> Occurrence | None:
    """The `#N` under the cursor, or just before it."""
    if not 0 <= position.line < len(document.document):
        return None
    column = document.to_column(position.line, position.character)
    line = document.document.lines[position.line]
    for occurrence in occurrences_in_line(
        document.document.texts[position.line], line.parsed, position.line
    ):
        if occurrence.span.contains(column):
            return occurrence
    return None


def _introduces(statement: t.Statement | None, number: int) -> t.ObjectRef | None:
    if isinstance(statement, t.New | t.AbilityOf) and statement.subject.number == number:
        return statement.subject
    if isinstance(statement, t.Draw) and statement.drawn.number == number:
        return statement.drawn
    return None


def definition(document: OpenDocument, number: int, at_line: int) -> Occurrence | None:
    """Where `#N` was introduced: the walk's record first, else the first introducing line."""
    obj = document.state_after(at_line).obj(number)
    if obj is not None:
        for index, line in enumerate(document.document.lines):
            if line.id == obj.introduced:
                ref = _introduces(line.parsed.statement, number)
                if ref is not None:
                    return Occurrence(index, ref.span, number)
                break
    for index, line in enumerate(document.document.lines):
        ref = _introduces(line.parsed.statement, number)
        if ref is not None:
            return Occurrence(index, ref.span, number)
    return None


def _location(document: OpenDocument, occurrence: Occurrence) -> types.Location:
    return types.Location(uri=document.uri, range=document.range(occurrence.line, occurrence.span))


def rename_edits(document: OpenDocument, number: int, new_name: str) -> list[types.TextEdit]:
    match = _NEW_NUMBER.fullmatch(new_name.strip())
    if match is None:
        raise RenameRefused(
            f"{new_name!r} is not an object number: write #N with 1 to {MAX_NUMBER_DIGITS} digits"
        )
    new_number = int(match.group(1))
    if new_number == number:
        return []
    everything = occurrences(document)
    taken = [o for o in everything if o.number == new_number]
    if taken:
        free = max(o.number for o in everything) + 1
        raise RenameRefused(
            f"#{new_number} is already used in this document (line {taken[0].line + 1}); "
            f"object numbers must stay unique: choose a free number such as #{free}"
        )
    return [
        types.TextEdit(range=document.range(o.line, o.span), new_text=f"#{new_number}")
        for o in everything
        if o.number == number
    ]


# ---- selection ranges ------------------------------------------------------------------


def selection_range(document: OpenDocument, position: types.Position) -> types.SelectionRange:
    """Token, then statement, then the whole line, then each block around it, innermost first."""
    line_number = min(max(position.line, 0), len(document.document) - 1)
    text = document.document.texts[line_number]
    parsed = document.document.lines[line_number].parsed
    column = document.to_column(line_number, position.character)
    spans: list[t.Span] = []
    token = min(
        (k.span for k in parsed.tokens if k.span.contains(column)),
        key=lambda s: s.end - s.start,
        default=None,
    )
    if token is not None:
        spans.append(token)
    if parsed.statement is not None and parsed.statement.span.contains(column):
        spans.append(parsed.statement.span)
    spans.append(t.Span(0, len(text)))
    ranges = [document.range(line_number, s) for s in spans]
    around = [b for b in walk_blocks(document_blocks(document)) if b.start <= line_number <= b.end]
    ranges.extend(block_range(b) for b in reversed(around))
    chain: types.SelectionRange | None = None
    for item in reversed(_distinct(ranges)):
        chain = types.SelectionRange(range=item, parent=chain)
    assert chain is not None
    return chain


def _distinct(ranges: list[types.Range]) -> list[types.Range]:
    kept: list[types.Range] = []
    for item in ranges:
        if not kept or item != kept[-1]:
            kept.append(item)
    return kept


# ---- folding ---------------------------------------------------------------------------


def folding_ranges(document: OpenDocument, collapsed_text: bool = False) -> RawResult:
    """Games, the pregame, turns, phases, steps and keyframes; runs of comment lines."""
    return reply(
        document,
        ("folding", collapsed_text),
        lambda: raw_list(segment_folds(document, collapsed_text)),
    )


# ---- registration ----------------------------------------------------------------------


def register(server: MtgrServer) -> None:
    def get(uri: str) -> OpenDocument | None:
        return server.session.get(uri)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def goto_definition(params: types.DefinitionParams) -> types.Location | None:
        document = get(params.text_document.uri)
        found = document and object_at(document, params.position)
        if document is None or not found:
            return None
        target = definition(document, found.number, found.line)
        return _location(document, target) if target is not None else None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(params: types.ReferenceParams) -> list[types.Location] | None:
        document = get(params.text_document.uri)
        found = document and object_at(document, params.position)
        if document is None or not found:
            return None
        intro = definition(document, found.number, found.line)
        return [
            _location(document, o)
            for o in occurrences(document, found.number)
            if params.context.include_declaration or o != intro
        ]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    def highlight(params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
        document = get(params.text_document.uri)
        found = document and object_at(document, params.position)
        if document is None or not found:
            return None
        intro = definition(document, found.number, found.line)
        return [
            types.DocumentHighlight(
                range=document.range(o.line, o.span),
                kind=types.DocumentHighlightKind.Write
                if o == intro
                else types.DocumentHighlightKind.Read,
            )
            for o in occurrences(document, found.number)
        ]

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    def rename(params: types.RenameParams) -> types.WorkspaceEdit | None:
        document = get(params.text_document.uri)
        found = document and object_at(document, params.position)
        if document is None or not found:
            raise RenameRefused("only an object number (#N) can be renamed here")
        edits = rename_edits(document, found.number, params.new_name)
        return types.WorkspaceEdit(changes={document.uri: edits})

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(params: types.PrepareRenameParams) -> types.PrepareRenameResult | None:
        document = get(params.text_document.uri)
        found = document and object_at(document, params.position)
        if document is None or not found:
            return None
        return types.PrepareRenamePlaceholder(
            range=document.range(found.line, found.span), placeholder=f"#{found.number}"
        )

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding(params: types.FoldingRangeParams) -> list[types.FoldingRange] | RawResult | None:
        document = get(params.text_document.uri)
        if document is None:
            return None
        capabilities = server.client_capabilities.text_document
        folding = capabilities.folding_range if capabilities else None
        options = folding.folding_range if folding else None
        return folding_ranges(document, bool(options and options.collapsed_text))

    @server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
    def selection(params: types.SelectionRangeParams) -> list[types.SelectionRange] | None:
        document = get(params.text_document.uri)
        if document is None:
            return None
        return [selection_range(document, p) for p in params.positions]
