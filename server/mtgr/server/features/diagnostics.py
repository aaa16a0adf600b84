"""Diagnostics: pushed after every change, or pulled by clients that ask (textDocument/diagnostic)."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import re
import weakref
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, metadata
from typing import TYPE_CHECKING

from lsprotocol import types
from lsprotocol.converters import get_converter

from mtgr.check import (
    Diagnostic,
    effective_severity,
    place,
    ruled,
    ruling_reach,
    rulings_over,
    silences,
)
from mtgr.rules.context import Finding
from mtgr.rules.registry import Severity
from mtgr.rules.walk import Line
from mtgr.server.features.log import LOGGER
from mtgr.syntax.tree import JudgeEvent, Span

if TYPE_CHECKING:
    from mtgr.rules.walk import Walk
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument, Settings

_CONVERTER = get_converter()

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


@cache
def _diagnostics_page() -> str | None:
    """The published docs/diagnostics.md: the package's `Diagnostics` project URL
    (pyproject.toml's [project.urls], read back from the installed metadata)."""
    try:
        urls = metadata("mtgr").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip() == "Diagnostics":
            return url.strip()
    return None


def explanation_uri(code: str) -> str | None:
    """Where a code is explained: its section of the published docs/diagnostics.md (whose
    `<a id>` anchors are the codes in lower case)."""
    page = _diagnostics_page()
    return f"{page}#{code.lower()}" if page else None


def to_lsp(
    document: OpenDocument, diagnostic: Diagnostic, written: dict[int, int] | None = None
) -> types.Diagnostic:
    """The LSP form of a placed diagnostic; `written` maps line numbers to the numbers to
    write in their place (the columns are still measured on the real lines)."""
    written = written or {}
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=document.uri,
                range=_range(document, r.line, r.span or _whole_line(document, r.line), written),
            ),
            message=r.message,
        )
        for r in diagnostic.related
    ]
    where = _range(document, diagnostic.line, diagnostic.span, written)
    href = explanation_uri(diagnostic.code)
    return types.Diagnostic(
        range=where,
        severity=SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source="mtgr",
        message=diagnostic.message,
        related_information=related or None,
    )


def _range(document: OpenDocument, line: int, span: Span, written: dict[int, int]) -> types.Range:
    where = document.range(line, span)
    if line in written:
        where.start.line = where.end.line = written[line]
    return where


def _whole_line(document: OpenDocument, line: int) -> Span:
    return Span(0, len(document.document.texts[line]))


def _json(document: OpenDocument, diagnostic: Diagnostic, written: dict[int, int]) -> str:
    # compact: a publish carries every diagnostic of the file, and the client reads it all
    unstructured = _CONVERTER.unstructure(to_lsp(document, diagnostic, written))
    return json.dumps(unstructured, separators=(",", ":"))


# Written in place of the line numbers a diagnostic names (its own, its related places'),
# then split on: when those lines move, the JSON is its pieces joined with the new
# numbers, not a new conversion. Within the protocol's range for a line number.
_SENTINEL = 2_147_483_600


def _sentinel_of(text: str) -> int | None:
    return _SENTINEL - int(text) if text.isdigit() else None


class _Template:
    """One diagnostic's JSON in pieces: literal text, and between them the slots of the
    line numbers to write (indexes into its entry's lines)."""

    __slots__ = ("code", "pieces", "start", "target")

    def __init__(self, code: str, start: int, target: int, pieces: list[str | int]) -> None:
        self.code = code
        self.start = start
        self.target = target  # the slot of the line it is on
        self.pieces = pieces


_SPLIT = re.compile(r"(?<![0-9])(21474835\d\d|21474836[0-4]\d)(?![0-9])")


class _Entry:
    """The diagnostics of the findings one line emitted, with the lines they name."""

    __slots__ = (
        "emitter",
        "findings",
        "high",
        "items",
        "key",
        "lines",
        "low",
        "silenced",
        "templates",
    )

    def __init__(self, findings: list[Finding], emitter: int | None) -> None:
        self.findings = findings
        self.emitter = emitter  # None: the end of the file's findings
        # the ids of the lines the findings name, each once, the emitter's first: where
        # they are, what they allow and how their columns count depend on these alone
        ids: dict[int, None] = {} if emitter is None else {emitter: None}
        for finding in findings:
            ids[finding.line] = None
            for related in finding.related:
                ids[related.line] = None
        self.lines = tuple(ids)
        # the lines' numbers and texts when the items were built (texts None: one is gone)
        self.key: tuple[list[int | None], list[str] | None] | None = None
        self.low = self.high = -1  # the least and greatest of their numbers at `key`
        self.templates: list[_Template] | None = None  # None: placed whole each time
        # the (line id, code) of its findings that judges' rulings silenced at that time
        self.silenced: frozenset[tuple[int, str]] = frozenset()
        # (line, start column, code, JSON) of each diagnostic
        self.items: list[tuple[int, int, str, bytes]] = []


class PublishedDiagnostics:
    """One document's diagnostics as LSP JSON, kept per emitting line between publishes.

    An entry's JSON is rebuilt only when its findings change (the walk keeps the same list
    for a line it did not walk again, and an equal one is taken as the same) or a line it
    names changes its text; when those lines only move, their new numbers are written
    into the pieces it has. Lines the edits since the last build cannot have touched or
    moved are not even looked up. So a keystroke costs what its findings changed, plus
    joining strings, not a conversion of every diagnostic."""

    def __init__(self) -> None:
        self._severities: object = None
        self._entries: dict[int, _Entry] = {}
        self._rulings = False  # whether a judge's line allows codes (decision 0033)
        # the JSON of each diagnostic last built, in order: the array is them joined, built
        # only as part of the message that carries it (a copy of megabytes costs)
        self.parts: list[bytes] = []
        self.count = 0  # how many diagnostics it holds
        self.result_id = "0"  # new whenever the body changes (pull: `unchanged`)

    def build(self, document: OpenDocument, settings: Settings, walk: Walk | None = None) -> None:
        effective = document.severities(settings)
        severities = tuple(sorted(effective.items(), key=lambda item: item[0]))
        touched = document.take_touched()
        low, high, moved = touched if touched is not None else (0, -1, False)
        rulings = self._has_rulings(document, low, high)
        if severities != self._severities:
            self._entries.clear()
        # a ruling silences findings over the turns above it (check.ruled): in a record with
        # rulings, the entries naming a line from there to the edits are looked at again
        lines = document.document.lines
        reach = high + 1
        if touched is not None and (rulings or self._rulings):
            reach = ruling_reach(lines, low)
        ruled_now = _Rulings(lines, rulings, reach, min(high + 1, len(lines)))
        self._severities, self._rulings = severities, rulings
        entries = self._entries
        walk = walk or document.walk
        emitted = walk.emitted
        for gone in entries.keys() - emitted.keys():
            del entries[gone]
        items: list[tuple[int, int, str, bytes]] = []
        # an entry whose lines all lie outside [quiet_above, quiet_below] was not touched,
        # moved or ruled over: the hot loop, once an emitting line a publish
        quiet_above, quiet_below = min(low, reach), (1 << 62) if moved else high
        get = entries.get
        for line_id, findings in emitted.items():
            entry = get(line_id)
            if entry is None or (entry.findings is not findings and entry.findings != findings):
                entry = entries[line_id] = _Entry(findings, line_id)
            elif entry.high < quiet_above or entry.low > quiet_below:
                items += entry.items
                continue
            entry.findings = findings
            self._refresh(document, entry, effective, ruled_now)
            items += entry.items
        end = _Entry(walk.end_findings, None)
        self._refresh(document, end, effective, ruled_now)
        items += end.items
        items.sort()
        self.count = len(items)
        parts = [item[3] for item in items]
        if parts != self.parts:
            self.parts = parts
            self.result_id = str(next(_RESULT_IDS))

    def array(self) -> bytes:
        """The diagnostics last built as one JSON array."""
        return b"[" + b",".join(self.parts) + b"]"

    def message(self, head: bytes, tail: bytes) -> bytes:
        """`head`, the diagnostics' array and `tail` in LSP framing, joined in one copy."""
        parts = self.parts
        pieces = [b","] * max(2 * len(parts) - 1, 0)
        pieces[::2] = parts
        length = len(head) + sum(map(len, parts)) + len(pieces) // 2 + 2 + len(tail)
        return b"".join([b"Content-Length: %d\r\n\r\n" % length, head, b"[", *pieces, b"]", tail])

    def _has_rulings(self, document: OpenDocument, low: int, high: int) -> bool:
        """Whether a judge's line allows codes: looked for again only where there were such
        lines or an edited line is one, so a record without rulings pays nothing extra."""
        lines = document.document.lines
        edited = range(max(low, 0), min(high, len(lines) - 1) + 1)
        if not self._rulings and not any(_ruling(lines[i]) for i in edited):
            return False
        return any(_ruling(line) for line in lines)

    @staticmethod
    def _refresh(
        document: OpenDocument,
        entry: _Entry,
        severities: Mapping[str, Severity | None],
        rulings: _Rulings,
    ) -> None:
        """Brings the entry's items up to date; its diagnostics are placed anew when a line
        it names changed its text, or the rulings over its findings changed."""
        number_of = document.document.number_of
        texts = document.document.texts
        numbers = [number_of(line_id) for line_id in entry.lines]
        if None in numbers:
            key = (numbers, None)
            entry.low, entry.high = -1, 1 << 62  # looked at after every edit
        else:
            key = (numbers, [texts[n] for n in numbers])
        if rulings.near(numbers) and _silenced(document, entry.findings, rulings) != entry.silenced:
            entry.key = entry.templates = None
        if key == entry.key:
            return
        if key[1] is not None and numbers:
            entry.low, entry.high = min(numbers), max(numbers)
        same_texts = entry.key is not None and key[1] is not None and entry.key[1] == key[1]
        entry.key = key
        if entry.emitter is not None and numbers[0] is None:
            entry.items = []  # a finding goes when the line that emitted it goes
            return
        if entry.templates is None or not same_texts:
            entry.silenced = _silenced(document, entry.findings, rulings)
            entry.templates = PublishedDiagnostics._templates(document, entry, numbers, severities)
        if entry.templates is None:
            entry.items = [
                (d.line, d.span.start, d.code, _json(document, d, {}).encode("ascii"))
                for d in _diagnostics(document, entry.findings, severities, entry.silenced)
            ]
            return
        written = [str(n) for n in numbers]
        entry.items = [
            (
                number,
                template.start,
                template.code,
                "".join(p if isinstance(p, str) else written[p] for p in template.pieces).encode(
                    "ascii"
                ),
            )
            for template in entry.templates
            if (number := numbers[template.target]) is not None
        ]

    @staticmethod
    def _templates(
        document: OpenDocument,
        entry: _Entry,
        numbers: list[int | None],
        severities: Mapping[str, Severity | None],
    ) -> list[_Template] | None:
        """The entry's diagnostics in pieces; None when a line it names is gone or a
        message holds a number that reads like a placeholder (then placed whole)."""
        if any(n is None for n in numbers):
            return None
        written = {n: _SENTINEL - slot for slot, n in enumerate(numbers) if n is not None}
        templates = []
        for diagnostic in _diagnostics(document, entry.findings, severities, entry.silenced):
            messages = (diagnostic.message, *(r.message for r in diagnostic.related))
            if any(_SPLIT.search(message) for message in messages):
                return None
            pieces: list[str | int] = []
            for k, piece in enumerate(_SPLIT.split(_json(document, diagnostic, written))):
                slot = _sentinel_of(piece) if k % 2 else None
                if k % 2 and (slot is None or not 0 <= slot < len(numbers)):
                    return None
                pieces.append(piece if slot is None else slot)
            target = numbers.index(diagnostic.line)
            templates.append(_Template(diagnostic.code, diagnostic.span.start, target, pieces))
        return templates


def _ruling(line: Line) -> bool:
    statement = line.parsed.statement
    return isinstance(statement, JudgeEvent) and bool(statement.allow)


class _Rulings:
    """Which findings judges' rulings silence, for one build: read from the rulings over
    the lines an edit may have changed them on, [start, stop), found in one pass
    (check.rulings_over); elsewhere asked line by line (check.ruled); in a record without
    rulings, none."""

    def __init__(self, lines: Sequence[Line], present: bool, start: int, stop: int) -> None:
        self.lines = lines
        self.present = present
        self.start, self.stop = start, stop
        self.over = rulings_over(lines, start, stop) if present and start < stop else []

    def near(self, numbers: list[int | None]) -> bool:
        """Whether any of these lines is one whose rulings an edit may have changed."""
        start, stop = self.start, self.stop
        return any(n is not None and start <= n < stop for n in numbers)

    def silence(self, number: int, code: str) -> bool:
        if not self.present or not silences(code):
            return False
        if self.start <= number < self.stop:
            return code in self.over[number - self.start]
        return ruled(self.lines, number, code)


def _silenced(
    document: OpenDocument, findings: list[Finding], rulings: _Rulings
) -> frozenset[tuple[int, str]]:
    """The (line id, code) of the findings a judge's ruling below allows."""
    if not rulings.present:
        return frozenset()
    number_of = document.document.number_of
    return frozenset(
        (finding.line, finding.code)
        for finding in findings
        if (number := number_of(finding.line)) is not None and rulings.silence(number, finding.code)
    )


def _diagnostics(
    document: OpenDocument,
    findings: list[Finding],
    severities: Mapping[str, Severity | None],
    silenced: frozenset[tuple[int, str]],
) -> list[Diagnostic]:
    """The findings placed where their lines are now, minus those silenced."""
    number_of = document.document.number_of
    lines = document.document.lines
    placed = []
    for finding in findings:
        number = number_of(finding.line)
        if number is None:
            continue
        if (finding.line, finding.code) in silenced:
            continue  # a judge's ruling below allows it
        severity = effective_severity(finding, lines[number].parsed.allowed, severities)
        if severity is not None:
            placed.append(place(finding, number, severity, number_of))
    return placed


_RESULT_IDS = itertools.count(1)  # unique across documents: "0" is the empty list's
_PUBLISHED: weakref.WeakKeyDictionary[OpenDocument, PublishedDiagnostics] = (
    weakref.WeakKeyDictionary()
)


def published(document: OpenDocument) -> PublishedDiagnostics:
    """The document's kept diagnostics, dropped with the document when it closes."""
    kept = _PUBLISHED.get(document)
    if kept is None:
        kept = _PUBLISHED[document] = PublishedDiagnostics()
    return kept


def client_pulls(server: MtgrServer) -> bool:
    text_document = server.client_capabilities.text_document
    return bool(text_document and text_document.diagnostic)


def publish(server: MtgrServer, document: OpenDocument, walk: Walk | None = None) -> None:
    """Pushes the document's diagnostics (from `walk`, a re-check under way, without a
    version; or the document's), written straight to the client: the JSON is built per line
    (PublishedDiagnostics), not serialised again as a whole."""
    if client_pulls(server):
        return
    kept = published(document)
    kept.build(document, document.settings, walk)
    LOGGER.debug("%s version %s: %d diagnostics", document.uri, document.version, kept.count)
    # a re-check under way gives no version: its diagnostics are not yet the version's
    version = "" if document.version is None or walk else f',"version":{int(document.version)}'
    head = (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        f'{json.dumps(document.uri)}{version},"diagnostics":'
    )
    send_framed(server, kept.message(head.encode("ascii"), b"}}"))


def send_raw(server: MtgrServer, message: str) -> None:
    """Writes one JSON message (ASCII: json.dumps escapes the rest) in LSP framing."""
    body = message.encode("ascii")
    send_framed(server, b"Content-Length: %d\r\n\r\n" % len(body) + body)


def send_framed(server: MtgrServer, message: bytes) -> None:
    """Writes one message, framed already (PublishedDiagnostics.message), in one write."""
    writer = server.protocol.writer
    if writer is None:
        return
    result = writer.write(message)
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
            identifier="mtgr", inter_file_dependencies=False, workspace_diagnostics=True
        ),
    )
    async def pull(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        document = server.session.get(params.text_document.uri)
        while document is not None and (not document.checked or document.pending):
            await asyncio.sleep(0.02)  # a large document's first check is still running
            document = server.session.get(params.text_document.uri)
        if document is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        kept = published(document)
        kept.build(document, document.settings)
        result_id = kept.result_id
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        items = _CONVERTER.structure(json.loads(kept.array()), list[types.Diagnostic])
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)
