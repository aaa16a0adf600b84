"""Diagnostics: pushed after every change, or pulled by clients that ask (textDocument/diagnostic)."""

from __future__ import annotations

import asyncio
import functools
import inspect
import itertools
import json
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from lsprotocol.converters import get_converter

from mtgr.check import Diagnostic, effective_severity, place
from mtgr.rules.context import Finding
from mtgr.rules.registry import Severity, rule
from mtgr.syntax.tree import Span

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument, Settings

_CONVERTER = get_converter()

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


@functools.cache
def explanation_uri(code: str) -> str:
    """Where a code is explained: docs/diagnostics.md, from the package or the repository.
    Once per code: it looks at the file system."""
    here = Path(__file__).resolve()
    for candidate in (
        here.parents[2] / "_data" / "diagnostics.md",
        here.parents[4] / "docs" / "diagnostics.md",
    ):
        if candidate.is_file():
            return f"{candidate.as_uri()}#{code.lower()}"
    return f"mtgr:explain/{code}"


def to_lsp(
    document: OpenDocument, diagnostic: Diagnostic, line: int | None = None
) -> types.Diagnostic:
    """The LSP form of a placed diagnostic; `line`, when given, is written in its range
    instead of the diagnostic's own (the columns are still measured on its own line)."""
    found = rule(diagnostic.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=document.uri,
                range=document.range(r.line, r.span or _whole_line(document, r.line)),
            ),
            message=r.message,
        )
        for r in diagnostic.related
    ]
    where = document.range(diagnostic.line, diagnostic.span)
    if line is not None:
        where.start.line = where.end.line = line
    return types.Diagnostic(
        range=where,
        severity=SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=explanation_uri(diagnostic.code)),
        source="mtgr",
        message=diagnostic.message,
        related_information=related or None,
        data={"title": found.title} if found else None,
    )


def _whole_line(document: OpenDocument, line: int) -> Span:
    return Span(0, len(document.document.texts[line]))


def _json(document: OpenDocument, diagnostic: Diagnostic, line: int | None = None) -> str:
    return json.dumps(_CONVERTER.unstructure(to_lsp(document, diagnostic, line)))


# Written in place of a line number, then split on: the JSON of a diagnostic whose line
# moves is its parts joined by the new number, not a new conversion.
_SENTINEL = 2_147_483_646  # within the protocol's range for a line


class _Entry:
    """The diagnostics of the findings one line emitted, as JSON, with what they depend on."""

    __slots__ = ("findings", "items", "key", "parts")

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.key: object = _UNSET
        # (line, start column, code, JSON) of each diagnostic
        self.items: list[tuple[int, int, str, str]] = []
        # for a line whose findings are all about itself, without related places: each
        # diagnostic's (start, code, JSON parts around its line number); None otherwise
        self.parts: list[tuple[int, str, list[str]]] | None = None


_UNSET = object()
# Unique across documents, so a reopened document never matches an old answer; "0" is
# the empty list's.
_RESULT_IDS = itertools.count(1)
_PUBLISHED: weakref.WeakKeyDictionary[OpenDocument, PublishedDiagnostics] = (
    weakref.WeakKeyDictionary()
)


def published(document: OpenDocument) -> PublishedDiagnostics:
    """The document's kept diagnostics, dropped with the document when it closes."""
    kept = _PUBLISHED.get(document)
    if kept is None:
        kept = _PUBLISHED[document] = PublishedDiagnostics()
    return kept


class PublishedDiagnostics:
    """One document's diagnostics as LSP JSON, kept per line between publishes.

    A line's JSON is rebuilt only when its findings change (the walk keeps the same list
    for a line it did not walk again) or when a line it names moves; a line that only
    moves has its new number written into the JSON it has. So a keystroke costs what its
    findings changed, plus joining strings, not a conversion of every diagnostic."""

    def __init__(self) -> None:
        self._severities: object = None
        self._entries: dict[int, _Entry] = {}
        self.body = "[]"  # the JSON array last built
        self.result_id = "0"  # new whenever the body changes (pull: `unchanged`)

    def build(self, document: OpenDocument, settings: Settings) -> str:
        severities = tuple(sorted(settings.severity.items(), key=lambda item: item[0]))
        if severities != self._severities:
            self._severities = severities
            self._entries.clear()
        entries = self._entries
        emitted = document.walk.emitted
        for gone in entries.keys() - emitted.keys():
            del entries[gone]
        items: list[tuple[int, int, str, str]] = []
        for line_id, findings in emitted.items():
            entry = entries.get(line_id)
            if entry is None or entry.findings is not findings:
                entry = entries[line_id] = _Entry(findings)
                if all(f.line == line_id and not f.related for f in findings):
                    entry.parts = self._parts(document, line_id, findings, settings)
            if entry.parts is not None:
                self._move(document, line_id, entry)
            else:
                self._place(document, entry, entry.findings, settings)
            items += entry.items
        end = _Entry(document.walk.end_findings)
        self._place(document, end, end.findings, settings)
        items += end.items
        items.sort()
        body = "[" + ",".join(item[3] for item in items) + "]"
        if body != self.body:
            self.body = body
            self.result_id = str(next(_RESULT_IDS))
        return body

    def _parts(
        self, document: OpenDocument, line_id: int, findings: list[Finding], settings: Settings
    ) -> list[tuple[int, str, list[str]]] | None:
        number = document.document.number_of(line_id)
        if number is None:
            return []
        allowed = document.document.lines[number].parsed.allowed
        parts = []
        for finding in findings:
            severity = effective_severity(finding, allowed, settings.severity)
            if severity is None:
                continue
            diagnostic = Diagnostic(finding.code, severity, number, finding.span, finding.message)
            split = _json(document, diagnostic, _SENTINEL).split(str(_SENTINEL))
            if len(split) != 3:  # the number is also in the message: place it each time
                return None
            parts.append((finding.span.start, finding.code, split))
        return parts

    @staticmethod
    def _move(document: OpenDocument, line_id: int, entry: _Entry) -> None:
        number = document.document.number_of(line_id)
        if number == entry.key:
            return
        entry.key = number
        assert entry.parts is not None
        if number is None:
            entry.items = []
            return
        text = str(number)
        entry.items = [
            (number, start, code, text.join(split)) for start, code, split in entry.parts
        ]

    @staticmethod
    def _place(
        document: OpenDocument, entry: _Entry, findings: list[Finding], settings: Settings
    ) -> None:
        """Findings about other lines or with related places: rebuilt when any line they
        name moves or changes what it allows."""
        number_of = document.document.number_of
        lines = document.document.lines
        targets = tuple(number_of(f.line) for f in findings)
        key = (
            targets,
            tuple(lines[n].parsed.allowed if n is not None else None for n in targets),
            tuple(number_of(r.line) for f in findings for r in f.related),
        )
        if key == entry.key:
            return
        entry.key = key
        entry.items = []
        for finding, number in zip(findings, targets, strict=True):
            if number is None:
                continue
            severity = effective_severity(finding, lines[number].parsed.allowed, settings.severity)
            if severity is None:
                continue
            diagnostic = place(finding, number, severity, number_of)
            entry.items.append(
                (number, finding.span.start, finding.code, _json(document, diagnostic))
            )


def client_pulls(server: MtgrServer) -> bool:
    text_document = server.client_capabilities.text_document
    return bool(text_document and text_document.diagnostic)


def publish(server: MtgrServer, document: OpenDocument) -> None:
    """Pushes the document's diagnostics, written straight to the client: the JSON is
    built per line (PublishedDiagnostics), not serialised again as a whole."""
    if client_pulls(server):
        return
    body = published(document).build(document, server.session.settings)
    version = "" if document.version is None else f',"version":{int(document.version)}'
    message = (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        f'{json.dumps(document.uri)}{version},"diagnostics":{body}}}}}'
    )
    send_raw(server, message)


def send_raw(server: MtgrServer, message: str) -> None:
    """Writes one JSON message (ASCII: json.dumps escapes the rest) in LSP framing."""
    writer = server.protocol.writer
    if writer is None:
        return
    body = message.encode("ascii")
    result = writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    if inspect.isawaitable(result):  # an asynchronous transport (TCP)
        task = asyncio.ensure_future(result)
        _WRITING.add(task)
        task.add_done_callback(_WRITING.discard)


_WRITING: set[asyncio.Future[None]] = set()


def publish_all(server: MtgrServer) -> None:
    for document in server.session.documents.values():
        publish(server, document)
    if client_pulls(server):
        workspace = server.client_capabilities.workspace
        if workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
            server.workspace_diagnostic_refresh(None)


def register(server: MtgrServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="mtgr", inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )
    async def pull(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        document = server.session.get(params.text_document.uri)
        while document is not None and not document.checked:
            await asyncio.sleep(0.02)  # a large document's first check is still running
            document = server.session.get(params.text_document.uri)
        if document is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        kept = published(document)
        body = kept.build(document, server.session.settings)
        result_id = kept.result_id
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        items = _CONVERTER.structure(json.loads(body), list[types.Diagnostic])
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)
