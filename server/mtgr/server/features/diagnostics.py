"""Diagnostics: pushed after every change, or pulled by clients that ask (textDocument/diagnostic)."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import re
import time
import weakref
from bisect import bisect_left
from collections.abc import Callable, Mapping
from functools import cache, partial
from importlib.metadata import PackageNotFoundError, metadata
from itertools import chain, compress, repeat
from operator import add, attrgetter, is_not
from typing import TYPE_CHECKING, NamedTuple

from lsprotocol import types
from lsprotocol.converters import get_converter

from mtgr.check import (
    Diagnostic,
    effective_severity,
    failures,
    place,
    ruling_reach,
    rulings_over,
    silences,
)
from mtgr.rules.context import Finding
from mtgr.rules.registry import Severity
from mtgr.server.features.log import LOGGER
from mtgr.server.transport import QueuedWriter
from mtgr.syntax.tree import JudgeEvent, Line, Span

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


class Form(NamedTuple):
    """What a client takes in a diagnostic besides its place, message, severity, code and
    source (LSP 3.17, PublishDiagnosticsClientCapabilities): each is sent only to a client
    that says it supports it (a client that does not would drop it), and they are most of
    a diagnostic's bytes (the link ~100, a related place repeats the document's URI)."""

    related_information: bool = True
    code_description: bool = True


FULL = Form()


def push_form(server: MtgrServer) -> Form:
    """What the client takes in the diagnostics pushed to it."""
    text_document = server.client_capabilities.text_document
    takes = text_document.publish_diagnostics if text_document else None
    if takes is None:
        return Form(False, False)
    return Form(bool(takes.related_information), bool(takes.code_description_support))


def _json(
    document: OpenDocument, diagnostic: Diagnostic, written: dict[int, int], form: Form = FULL
) -> str:
    """A placed diagnostic as compact LSP JSON (a publish carries every diagnostic of the
    file, and the client reads it all), built straight from it in the order and form
    lsprotocol's converter gives a `Diagnostic` (fields in declared order, none left
    None): a conversion through lsprotocol's classes cost ten times as much. `written` maps
    line numbers to the numbers to write in their place (the columns are still measured
    on the real lines)."""
    lsp: dict[str, object] = {
        "range": _range(document, diagnostic.line, diagnostic.span, written),
        "message": diagnostic.message,
        "severity": SEVERITIES[diagnostic.severity].value,
        "code": diagnostic.code,
    }
    href = explanation_uri(diagnostic.code) if form.code_description else None
    if href:
        lsp["codeDescription"] = {"href": href}
    lsp["source"] = "mtgr"
    if diagnostic.related and form.related_information:
        lsp["relatedInformation"] = [
            {
                "location": {
                    "uri": document.uri,
                    "range": _range(
                        document, r.line, r.span or _whole_line(document, r.line), written
                    ),
                },
                "message": r.message,
            }
            for r in diagnostic.related
        ]
    return json.dumps(lsp, separators=(",", ":"))


def _range(
    document: OpenDocument, line: int, span: Span, written: dict[int, int]
) -> dict[str, dict[str, int]]:
    number = written.get(line, line)
    return {
        "start": {"line": number, "character": document.to_character(line, span.start)},
        "end": {"line": number, "character": document.to_character(line, span.end)},
    }


def _whole_line(document: OpenDocument, line: int) -> Span:
    return Span(0, len(document.document.texts[line]))


# Written in place of the line numbers a diagnostic names (its own, its related places'),
# then split on: the JSON is kept as a format with a `%d` for each of them, written with
# the numbers the lines have when it is published. Within the protocol's range for a line.
_SENTINEL = 2_147_483_600


def _sentinel_of(text: str) -> int | None:
    return _SENTINEL - int(text) if text.isdigit() else None


_SPLIT = re.compile(r"(?<![0-9])(21474835\d\d|21474836[0-4]\d)(?![0-9])")


class _Template:
    """One published diagnostic: its JSON as a format with a `%d` for each line number it
    writes, and the ids of those lines (`ids`), so that when lines only move its JSON is
    the format applied to their new numbers, not a new conversion. `line` (the id of the
    line it is on), `start` and `code` place it in the published order."""

    __slots__ = ("chunk", "code", "form", "ids", "line", "start")

    def __init__(self, code: str, start: int, line: int, form: bytes, ids: tuple[int, ...]):
        self.code = code
        self.start = start
        self.line = line
        self.form = form
        self.ids = ids
        self.chunk: _Chunk | None = None  # the run of the published order holding it

    def same(self, other: _Template) -> bool:
        return (self.form, self.ids, self.line, self.start, self.code) == (
            other.form,
            other.ids,
            other.line,
            other.start,
            other.code,
        )

    def written(self, number_of: Callable[[int], int | None]) -> bytes:
        return self.form % tuple(map(number_of, self.ids))


_FORM = attrgetter("form")
_IDS = attrgetter("ids")


def _tie(template: _Template) -> tuple[int, int, str]:
    return template.line, template.start, template.code


class _Entry:
    """The diagnostics of the findings one line emitted, with the lines they name."""

    __slots__ = ("emitter", "findings", "lines", "silenced", "templates", "texts", "whole")

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
        # the texts of those lines when its templates were made (None: one was gone)
        self.texts: list[str] | None = None
        self.templates: list[_Template] = []
        # whether its templates hold their line numbers written out (a line it names is
        # gone, or a message holds a number that reads like a placeholder): then they are
        # made again after every edit
        self.whole = False
        # the (line id, code) of its findings that judges' rulings silenced at that time
        self.silenced: frozenset[tuple[int, str]] | None = None


# A chunk holds about this many diagnostics, at most twice as many.
CHUNK = 64


class _Chunk:
    """A run of the published diagnostics, in order, with their JSON joined: a publish
    sends the chunks as they are (no copy of megabytes), and lines that move rewrite a
    chunk with one format of all its line numbers, not a step per diagnostic. The
    diagnostics with the same line, column and code (ordered by their JSON) are never
    split between two chunks."""

    __slots__ = ("floating", "ids", "json", "members", "numbers", "stale")

    def __init__(self, members: list[_Template]) -> None:
        self.members = members
        for member in members:
            member.chunk = self
        self.ids: tuple[int, ...] = ()  # the line ids of its members' `%d`s, in order
        self.numbers: tuple[int, ...] = ()  # their numbers when its JSON was written
        self.json = b""
        # the runs of members tied on (line, column, code) whose order the numbers they
        # write may change, as (first, end) indexes
        self.floating: list[tuple[int, int]] = []
        self.stale = True  # its members changed since `ids` and `floating` were found

    def settle(self, number_of: Callable[[int], int | None]) -> None:
        """Finds its ids and tied runs again after its members changed; writes its JSON."""
        members = self.members
        self.ids = tuple(chain.from_iterable(map(_IDS, members)))
        self.floating = []
        first = 0
        for k in range(1, len(members) + 1):
            if k == len(members) or _tie(members[k]) != _tie(members[first]):
                if k - first > 1 and not all(m.same(members[first]) for m in members[first:k]):
                    self.floating.append((first, k))
                first = k
        self.stale = False
        self.write(tuple(map(number_of, self.ids)))  # type: ignore[arg-type]

    def write(self, numbers: tuple[int, ...]) -> None:
        """Writes its JSON with these numbers of its ids, its tied runs put in order."""
        if self.floating:
            number = dict(zip(self.ids, numbers, strict=True))
            members, moved = self.members, False
            for first, end in self.floating:
                run = members[first:end]
                ordered = sorted(run, key=lambda m: m.form % tuple(map(number.__getitem__, m.ids)))
                if ordered != run:
                    members[first:end] = ordered
                    moved = True
            if moved:
                self.ids = tuple(chain.from_iterable(map(_IDS, members)))
                numbers = tuple(map(number.__getitem__, self.ids))
        self.numbers = numbers
        self.json = b",".join(map(_FORM, self.members)) % numbers

    def split(self) -> list[_Chunk]:
        """Itself in chunks of about CHUNK members, each cut where the tie runs allow."""
        members, pieces, first = self.members, [], 0
        while len(members) - first > 2 * CHUNK:
            cut = first + CHUNK
            while cut < len(members) and _tie(members[cut]) == _tie(members[cut - 1]):
                cut += 1
            pieces.append(_Chunk(members[first:cut]))
            first = cut
        pieces.append(_Chunk(members[first:]))
        return pieces


# What a client takes to read a diagnostic of a publish: it parses each publish whole, tens
# of milliseconds for thousands (about 14 µs each for Python's json, less for a browser's)
CLIENT_READS_A_DIAGNOSTIC = 10e-6  # seconds


class PublishedDiagnostics:
    """One document's diagnostics as LSP JSON, kept per emitting line between publishes,
    and published as chunks of the ordered array.

    An entry's templates are made again only when its findings change (the walk keeps
    the same list for a line it did not walk again, and an equal one is taken as the
    same), a line it names changes its text, or the rulings over it change; the
    entries looked at are those naming a line the edits touched, found by index. When
    lines only move, the chunks below the edit are written again from their formats
    with their lines' new numbers (all shifted alike: at C speed), and diagnostics
    changed are taken out of their chunks and put into the ones where they now go. So
    a keystroke costs what its findings changed, plus one pass over the emitting lines
    at C speed, and a line inserted or deleted a format per chunk below it."""

    def __init__(self) -> None:
        self._severities: object = None  # and the form the JSON was built in
        self.form = FULL
        self._entries: dict[int, _Entry] = {}
        self._end: _Entry | None = None  # the end of the file's findings
        self._findings: dict[int, list[Finding]] = {}  # each entry's findings, by emitter
        # the emitters of the entries naming a line other than their own, by that line: one
        # alone as itself (most lines; a set is 216 bytes), more in a set
        self._naming: dict[int, int | set[int]] = {}
        self._whole: set[int] = set()  # the emitters of the entries that are `whole`
        self._rulings = _Rulings()  # what judges' lines allow (decision 0033)
        self._chunks: list[_Chunk] = []  # every diagnostic last built, in order
        self.count = 0  # how many diagnostics it holds
        self.sent_at = 0.0  # when the last publish was written (time.perf_counter)
        self._length = 0  # the document's lines at the last build
        self.result_id = "0"  # new whenever the body changes (pull: `unchanged`)

    def read_by(self) -> float:
        """When the client has most likely read the last publish (time.perf_counter): it
        parses the whole array, about CLIENT_READS_A_DIAGNOSTIC for each diagnostic."""
        return self.sent_at + self.count * CLIENT_READS_A_DIAGNOSTIC

    @property
    def parts(self) -> list[bytes]:
        """The array's JSON in pieces, in order: joined with commas, the array's body."""
        return [chunk.json for chunk in self._chunks]

    def build(
        self,
        document: OpenDocument,
        settings: Settings,
        walk: Walk | None = None,
        form: Form = FULL,
    ) -> None:
        effective = document.severities(settings)
        severities = (form, *sorted(effective.items(), key=lambda item: item[0]))
        touched = document.take_touched()
        low, high, moved, replaced = touched if touched is not None else (0, -1, False, ())
        entries, findings_of, naming = self._entries, self._findings, self._naming
        everything = severities != self._severities
        if everything:
            entries.clear()
            findings_of.clear()
            naming.clear()
            self._whole.clear()
            self._end = None
        self._severities = severities
        self.form = form
        # a ruling silences findings over the turns above it (check.ruled): the entries
        # naming a line whose allowed codes the edits changed are looked at again
        ruled_anew = self._rulings.update(document, low, high) if touched is not None else []
        quiet_above = min(low, ruled_anew[0]) if ruled_anew else low
        quiet_below = max(high, ruled_anew[-1]) if ruled_anew else high
        walk = walk or document.walk
        emitted = walk.emitted
        # what changed: the lines whose findings are another list (the walk keeps the list
        # of a line it did not walk again), found without a Python step per line...
        renewed = list(
            compress(emitted, map(is_not, emitted.values(), map(findings_of.get, emitted)))
        )
        # ...and the entries naming a line in [quiet_above, quiet_below] (touched or ruled
        # over) or one the edits replaced, by the index of the lines each entry names;
        # lines that only moved are the chunks' to renumber
        lines = document.document.lines
        if high >= len(lines):  # several edits merged, or the whole text replaced: the
            looked_at = dict(entries)  # lines they removed are not all among `replaced`
        else:
            named = [lines[n].id for n in range(max(quiet_above, 0), quiet_below + 1)]
            looked_at = {
                emitter: entries[emitter]
                for line_id in (*named, *replaced, *self._whole)
                for emitter in (line_id, *_emitters(naming.get(line_id)))
                if emitter in entries
            }
        removed: list[_Template] = []
        added: list[_Template] = []
        for line_id in renewed:
            findings = emitted[line_id]
            entry = entries.get(line_id)
            if entry is None or entry.findings != findings:
                if entry is not None:
                    removed += self._forget(line_id).templates
                entry = looked_at[line_id] = self._remember(_Entry(findings, line_id))
            entry.findings = findings_of[line_id] = findings  # an equal list: this one now
        if len(entries) != len(emitted):  # lines whose findings went
            for gone in entries.keys() - emitted.keys():
                removed += self._forget(gone).templates
                looked_at.pop(gone, None)
        end = self._end
        if end is None or (
            end.findings is not walk.end_findings and end.findings != walk.end_findings
        ):
            if end is not None:
                removed += end.templates
            end = self._end = _Entry(walk.end_findings, None)
        end.findings = walk.end_findings
        for entry in chain(looked_at.values(), (end,)):
            before = entry.templates
            if self._refresh(document, entry, effective, form):
                removed += before
                added += entry.templates
        delta = len(document.document) - self._length
        self._length = len(document.document)
        # lines numbered after `high` now were only moved by the edits, all by `delta`; with
        # several edits at once (their lines merged), `high` is past the end
        shift = (low, high, delta) if moved else None
        if self._place(document, removed, added, shift, everything):
            self.result_id = str(next(_RESULT_IDS))

    def _remember(self, entry: _Entry) -> _Entry:
        """Keeps a new entry, indexed by the lines it names."""
        assert entry.emitter is not None
        self._entries[entry.emitter] = entry
        naming = self._naming
        for line_id in entry.lines[1:]:  # the first is its own
            others = naming.get(line_id)
            if others is None:
                naming[line_id] = entry.emitter
            elif isinstance(others, set):
                others.add(entry.emitter)
            elif others != entry.emitter:
                naming[line_id] = {others, entry.emitter}
        return entry

    def _forget(self, emitter: int) -> _Entry:
        entry = self._entries.pop(emitter)
        del self._findings[emitter]
        self._whole.discard(emitter)
        naming = self._naming
        for line_id in entry.lines[1:]:
            others = naming.get(line_id)
            if others == emitter:
                del naming[line_id]
            elif isinstance(others, set):
                others.discard(emitter)
                if len(others) == 1:
                    naming[line_id] = others.pop()
        return entry

    def _place(
        self,
        document: OpenDocument,
        removed: list[_Template],
        added: list[_Template],
        shift: tuple[int, int, int] | None,
        everything: bool,
    ) -> bool:
        """Takes the removed diagnostics out of their chunks, renumbers the chunks whose
        lines moved (`shift`: the edits' first and last line now, and how far the lines
        after them moved), and puts the added diagnostics where they go: many by ordering
        them all again. True if the array changed."""
        number_of = document.document.number_of
        if everything or len(added) > self.count // 4:
            return self._order_all(number_of, bool(removed or added))
        changed = False
        for template in removed:
            chunk = template.chunk
            assert chunk is not None
            chunk.members.remove(template)
            chunk.stale = changed = True
        chunks = self._chunks = [chunk for chunk in self._chunks if chunk.members]
        if shift is not None:
            low, high, delta = shift
            for chunk in chunks:
                numbers = chunk.numbers
                if chunk.stale or not numbers or max(numbers) < low:
                    continue  # written anew below, or above every edit
                if min(numbers) + delta > high:  # all below the edits: moved alike
                    now = tuple(map(add, numbers, repeat(delta)))
                else:  # lines above the edits stay; only those among them are looked up
                    now = tuple(
                        n if n < low else n + delta if n + delta > high else number_of(i)
                        for n, i in zip(numbers, chunk.ids, strict=True)
                    )
                if now != numbers:
                    chunk.write(now)
                    changed = True
        if added:
            self._insert(number_of, added)
            changed = True
        for chunk in self._chunks:
            if chunk.stale:
                chunk.settle(number_of)
        self.count = sum(len(chunk.members) for chunk in self._chunks)
        return changed

    def _insert(self, number_of: Callable[[int], int | None], added: list[_Template]) -> None:
        """Puts each added diagnostic into the chunk where it goes in the order."""
        chunks = self._chunks
        if not chunks:
            chunks += _Chunk(_ordered(added, number_of)).split()
            return
        # the (line, column, code) of each chunk's last diagnostic, in order: a diagnostic
        # goes into the first chunk whose last is not before it (the last chunk if none)
        lasts = [_place_of(chunk.members[-1], number_of) for chunk in chunks]
        into: dict[int, list[_Template]] = {}
        for template in added:
            at = min(bisect_left(lasts, _place_of(template, number_of)), len(chunks) - 1)
            into.setdefault(at, []).append(template)
        for at, templates in sorted(into.items(), reverse=True):
            members = _ordered([*chunks[at].members, *templates], number_of)
            chunks[at : at + 1] = _Chunk(members).split()

    def _order_all(self, number_of: Callable[[int], int | None], changed: bool) -> bool:
        """Orders every diagnostic again and cuts them in chunks."""
        templates = list(chain.from_iterable(e.templates for e in self._entries.values()))
        if self._end is not None:
            templates += self._end.templates
        templates = _ordered(templates, number_of)
        before = self._chunks
        self._chunks = _Chunk(templates).split() if templates else []
        for chunk in self._chunks:
            chunk.settle(number_of)
        self.count = len(templates)
        changed = changed and b",".join(self.parts) != b",".join(c.json for c in before)
        for chunk in before:  # its diagnostics that went point to it: no cycle left behind
            chunk.members.clear()
        return changed

    def array(self) -> bytes:
        """The diagnostics last built as one JSON array."""
        return b"[" + b",".join(self.parts) + b"]"

    def message(self, head: bytes, tail: bytes) -> bytes:
        """`head`, the diagnostics' array and `tail` in LSP framing, joined in one copy."""
        return b"".join(self.message_maker(head, tail)())

    def message_maker(self, head: bytes, tail: bytes) -> Callable[[], list[bytes]]:
        """Makes the same message in pieces later, from the diagnostics as they are now:
        the writer calls it on its own thread, which writes the pieces as they are (the
        chunks' JSON, a few hundred; a join of megabytes cost milliseconds)."""
        parts = self.parts

        def make() -> list[bytes]:
            array = [b"["]
            for part in parts:
                array += (part, b",")
            if parts:
                array.pop()
            array.append(b"]")
            length = len(head) + sum(map(len, array)) + len(tail)
            return [b"Content-Length: %d\r\n\r\n" % length, head, *array, tail]

        return make

    def _refresh(
        self,
        document: OpenDocument,
        entry: _Entry,
        severities: Mapping[str, Severity | None],
        form: Form,
    ) -> bool:
        """Makes the entry's templates again when a line it names changed its text or is
        gone, or the rulings over its findings changed; True if they changed."""
        number_of = document.document.number_of
        texts = document.document.texts
        numbers = [number_of(line_id) for line_id in entry.lines]
        line_texts = None if None in numbers else [texts[n] for n in numbers]  # type: ignore[index]
        silenced = self._rulings.silenced(entry.findings)
        if not entry.whole and silenced == entry.silenced and line_texts == entry.texts:
            return False
        entry.silenced, entry.texts = silenced, line_texts
        if entry.emitter is not None and numbers[0] is None:
            templates, whole = [], False  # a finding goes when the line that emitted it goes
        else:
            made = _templates(document, entry, numbers, severities, form)
            templates = (
                made if made is not None else _written_out(document, entry, severities, form)
            )
            whole = made is None
        if entry.emitter is not None:
            if whole:
                self._whole.add(entry.emitter)
            else:
                self._whole.discard(entry.emitter)
        entry.whole = whole
        before = entry.templates
        if len(before) == len(templates) and all(map(_Template.same, before, templates)):
            return False
        entry.templates = templates
        return True


def _place_of(template: _Template, number_of: Callable[[int], int | None]) -> tuple[int, int, str]:
    return number_of(template.line), template.start, template.code  # type: ignore[return-value]


def _ordered(templates: list[_Template], number_of: Callable[[int], int | None]) -> list[_Template]:
    """The diagnostics in the published order: by line, column and code, then those tied
    on all three by their JSON (written only for them)."""
    ordered = sorted(templates, key=partial(_place_of, number_of=number_of))
    first = 0
    for k in range(1, len(ordered) + 1):
        if k == len(ordered) or _tie(ordered[k]) != _tie(ordered[first]):
            if k - first > 1:
                ordered[first:k] = sorted(ordered[first:k], key=partial(_json_of, number_of))
            first = k
    return ordered


def _json_of(number_of: Callable[[int], int | None], template: _Template) -> bytes:
    return template.written(number_of)


def _templates(
    document: OpenDocument,
    entry: _Entry,
    numbers: list[int | None],
    severities: Mapping[str, Severity | None],
    form: Form,
) -> list[_Template] | None:
    """The entry's diagnostics in pieces; None when a line it names is gone or a message
    holds a number that reads like a placeholder (then written whole)."""
    if any(n is None for n in numbers):
        return None
    written = {n: _SENTINEL - slot for slot, n in enumerate(numbers) if n is not None}
    lines = entry.lines
    templates = []
    for diagnostic in _diagnostics(document, entry.findings, severities, entry.silenced):
        messages = (diagnostic.message, *(r.message for r in diagnostic.related))
        if any(_SPLIT.search(message) for message in messages):
            return None
        pieces: list[str] = []
        ids: list[int] = []
        for k, piece in enumerate(_SPLIT.split(_json(document, diagnostic, written, form))):
            if k % 2:
                slot = _sentinel_of(piece)
                if slot is None or not 0 <= slot < len(numbers):
                    return None
                ids.append(lines[slot])
                pieces.append("%d")
            else:
                pieces.append(piece.replace("%", "%%"))
        line = lines[numbers.index(diagnostic.line)]
        templates.append(
            _Template(
                diagnostic.code,
                diagnostic.span.start,
                line,
                "".join(pieces).encode("ascii"),
                tuple(ids),
            )
        )
    return templates


def _written_out(
    document: OpenDocument,
    entry: _Entry,
    severities: Mapping[str, Severity | None],
    form: Form,
) -> list[_Template]:
    """The entry's diagnostics with their line numbers written out."""
    lines = document.document.lines
    return [
        _Template(
            d.code,
            d.span.start,
            lines[d.line].id,
            _json(document, d, {}, form).replace("%", "%%").encode("ascii"),
            (),
        )
        for d in _diagnostics(
            document, entry.findings, severities, entry.silenced or _NONE_SILENCED
        )
    ]


def _emitters(naming: int | set[int] | None) -> tuple[int, ...] | set[int]:
    """The emitters PublishedDiagnostics._naming keeps for a line."""
    if naming is None:
        return ()
    return naming if isinstance(naming, set) else (naming,)


def _ruling(line: Line) -> bool:
    statement = line.parsed.statement
    return isinstance(statement, JudgeEvent) and bool(statement.allow)


class _Rulings:
    """What judges' rulings allow (decision 0033), kept between builds by line id: the
    judges' lines that allow codes, and the codes they allow on each line they cover
    (check.rulings_over; none kept for the others). An edit changes what they allow only
    from check.ruling_reach above it down to it, so only those lines are read again."""

    def __init__(self) -> None:
        self.judges: set[int] = set()
        self.allowed: dict[int, frozenset[str]] = {}

    def update(self, document: OpenDocument, low: int, high: int) -> list[int]:
        """Reads the rulings again after edits to lines [low, high]; returns the numbers of
        the lines whose allowed codes changed, in order. A record without rulings pays a
        look at the edited lines."""
        lines = document.document.lines
        number_of = document.document.number_of
        judges, allowed = self.judges, self.allowed
        for number in range(max(low, 0), min(high, len(lines) - 1) + 1):
            line = lines[number]
            if _ruling(line):
                judges.add(line.id)
            else:
                judges.discard(line.id)
        if not judges and not allowed:
            return []
        judges.difference_update([i for i in judges if number_of(i) is None])
        for gone in [i for i in allowed if number_of(i) is None]:
            del allowed[gone]
        if not judges:  # the last ruling went: nothing is allowed any more
            changed = sorted(n for i in allowed if (n := number_of(i)) is not None)
            allowed.clear()
            return changed
        start, stop = ruling_reach(lines, low), min(high + 1, len(lines))
        changed = []
        for number, codes in enumerate(rulings_over(lines, start, stop), start):
            line_id = lines[number].id
            if codes != allowed.get(line_id, _NONE):
                changed.append(number)
                if codes:
                    allowed[line_id] = codes
                else:
                    del allowed[line_id]
        return changed

    def silenced(self, findings: list[Finding]) -> frozenset[tuple[int, str]]:
        """The (line id, code) of the findings a judge's ruling below allows."""
        allowed = self.allowed
        if not allowed:
            return _NONE_SILENCED
        silenced = [
            (finding.line, finding.code)
            for finding in findings
            if finding.code in allowed.get(finding.line, _NONE) and silences(finding.code)
        ]
        # most entries have none: one empty set for them all, not one each (216 bytes)
        return frozenset(silenced) if silenced else _NONE_SILENCED


_NONE: frozenset[str] = frozenset()
_NONE_SILENCED: frozenset[tuple[int, str]] = frozenset()


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


# the checker's failures already reported for each open document
_REPORTED: weakref.WeakKeyDictionary[OpenDocument, frozenset[tuple[str, str]]] = (
    weakref.WeakKeyDictionary()
)


def report_failures(server: MtgrServer, document: OpenDocument) -> None:
    """A bug in the checker on a line (it raised: `Walk.failures`) is logged as an error,
    and shown once, when a check first meets it: that line went unchecked, so the user
    learns that its silence means nothing, and what to put in a bug report."""
    if not document.walk.failures and document not in _REPORTED:
        return
    found = failures(document.document, document.walk)  # in line order
    before = _REPORTED.get(document, frozenset())
    _REPORTED[document] = frozenset(found)
    new = [failure for failure in found if failure not in before]
    for where, what in new:
        server.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Error,
                message=f"mtgr: internal error checking {document.uri} at {where}: {what}",
            )
        )
    if new:
        server.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Error,
                message=(
                    f"mtgr: an internal error left {new[0][0]} unchecked"
                    f"{f' (and {len(new) - 1} more)' if len(new) > 1 else ''}; the rest of"
                    " the record is checked. Please report it with the log's lines."
                ),
            )
        )


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
    kept.build(document, document.settings, walk, push_form(server))
    LOGGER.debug("%s version %s: %d diagnostics", document.uri, document.version, kept.count)
    # a re-check under way gives no version: its diagnostics are not yet the version's
    version = "" if document.version is None or walk else f',"version":{int(document.version)}'
    head = (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        f'{json.dumps(document.uri)}{version},"diagnostics":'
    )
    if walk is None:
        report_failures(server, document)
    make = kept.message_maker(head.encode("ascii"), b"}}")
    writer = server.protocol.writer
    if isinstance(writer, QueuedWriter):  # a publish not yet written is replaced by this one
        writer.replace(document.uri, make, _changed_since(document))
    else:
        send_framed(server, b"".join(make()))
    kept.sent_at = time.perf_counter()


def _changed_since(document: OpenDocument) -> Callable[[], bool] | None:
    """Whether the document has taken a change since now (asked on the writing thread):
    then the diagnostics of this version are stale before the client reads them, and the
    check of that change publishes anew (documents.check_soon; a close publishes too)."""
    version = document.version
    if version is None:
        return None
    return lambda: document.version != version


def send_raw(server: MtgrServer, message: str) -> None:
    """Writes one JSON message (ASCII: json.dumps escapes the rest) in LSP framing."""
    send_pieces(server, [message.encode("ascii")])


def send_pieces(server: MtgrServer, body: list[bytes]) -> None:
    """Writes one JSON message given in pieces (ASCII) in LSP framing, as they are: a
    reply of megabytes is not copied again to be framed (a copy of megabytes costs
    milliseconds)."""
    writer = server.protocol.writer
    if writer is None:
        return
    header = b"Content-Length: %d\r\n\r\n" % sum(map(len, body))
    if isinstance(writer, QueuedWriter):
        writer.write_pieces([header, *body])
    else:
        send_framed(server, b"".join([header, *body]))


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
        report_failures(server, document)
        kept = published(document)
        kept.build(document, document.settings)  # in full: 3.17 asks pull clients nothing
        result_id = kept.result_id
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        items = _CONVERTER.structure(json.loads(kept.array()), list[types.Diagnostic])
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)
