"""Diagnostics cost what changed: kept as JSON per line between publishes, pull clients told
`unchanged` by result id; and what is sent still equals a fresh check."""

from __future__ import annotations

import json
import os
import sys
import threading

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.check import check_text
from mtgr.server import transport
from mtgr.server.features import diagnostics
from mtgr.server.session import OpenDocument, Settings

URI = "file:///records/pull.mtgr"
TEXT = """mtgr 0.4
title "t"
rules 2026-09-25
player "Alice" deck 60
player "Bob" deck 60
perspective all
"Alice" draw #1 "Mountain"
"Alice" draw #1 "Forest"
// a comment
"Bob" draw #2 "Island"
"""


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("neovim"))
    )
    yield
    await lsp_client.shutdown_session()


def _pull(client: LanguageClient, previous: str | None):
    return client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=previous
        )
    )


def _type(client: LanguageClient, version: int, line: int, character: int, text: str) -> None:
    here = types.Position(line=line, character=character)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=here), text=text
                )
            ],
        )
    )


@pytest.mark.asyncio
async def test_a_pull_with_the_last_result_id_is_unchanged_until_the_findings_change(
    client: LanguageClient,
) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=TEXT)
        )
    )
    first = await _pull(client, None)
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert first.result_id
    assert {(str(d.code), d.range.start.line) for d in first.items} == {
        (d.code, d.line) for d in check_text(TEXT)
    }
    again = await _pull(client, first.result_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert again.result_id == first.result_id

    _type(client, 2, 8, 10, "x")  # inside the comment: the same findings
    quiet = await _pull(client, first.result_id)
    assert isinstance(quiet, types.RelatedUnchangedDocumentDiagnosticReport)

    _type(client, 3, 1, 0, "\n")  # every finding moves a line down
    moved = await _pull(client, first.result_id)
    assert isinstance(moved, types.RelatedFullDocumentDiagnosticReport)
    assert moved.result_id != first.result_id
    text = TEXT.replace("// a comment", "// a commxent").replace("\n", "\n\n", 1)
    assert sorted((str(d.code), d.range.start.line) for d in moved.items) == sorted(
        (d.code, d.line) for d in check_text(text)
    )


def _build(document: OpenDocument, kept: diagnostics.PublishedDiagnostics) -> bytes:
    kept.build(document, Settings())
    return kept.array()


def _published(document: OpenDocument, kept: diagnostics.PublishedDiagnostics) -> list:
    return sorted(
        (d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
        for d in json.loads(_build(document, kept))
    )


def _expected(document: OpenDocument) -> list:
    return sorted((d.code, d.line, d.span.start) for d in check_text(document.document.text))


def test_a_keystroke_converts_only_the_findings_of_the_lines_it_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many lines with findings; typing on one converts that line's findings alone, and a
    line break above them all moves them without converting any."""
    body = "".join(f'"Alice" draw #1 "Card {k}"\n' for k in range(200))
    document = OpenDocument("file:///x.mtgr", TEXT + body, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    assert _published(document, kept) == _expected(document)
    assert len(_expected(document)) > 200

    converted: list[str] = []
    convert = diagnostics._json

    def counting(*args, **kwargs) -> str:
        converted.append(args[1].code)
        return convert(*args, **kwargs)

    monkeypatch.setattr(diagnostics, "_json", counting)
    line = TEXT.count("\n") + 50
    at = types.Position(line=line, character=len('"Alice" draw #1 "Card'))
    document.change(
        [types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="s")], 2
    )
    assert _published(document, kept) == _expected(document)
    assert 1 <= len(converted) <= 2  # the findings of the line typed on

    converted.clear()
    top = types.Position(line=1, character=0)
    document.change(
        [types.TextDocumentContentChangePartial(range=types.Range(start=top, end=top), text="\n")],
        3,
    )
    assert _published(document, kept) == _expected(document)
    assert len(converted) <= 2  # moved, not converted again


def test_the_links_and_related_places_are_kept_only_in_the_form_the_client_takes() -> None:
    """Built without links and related places (a client that does not take them), then in
    full on the same kept diagnostics: each form has exactly its fields, the rest equal."""
    text = TEXT + '"Alice" tap #1\n"Alice" tap #1\n'
    document = OpenDocument("file:///x.mtgr", text, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    kept.build(document, Settings(), form=diagnostics.Form(False, False))
    plain = json.loads(kept.array())
    kept.build(document, Settings())
    full = json.loads(kept.array())
    assert any("relatedInformation" in d for d in full)
    assert all("codeDescription" in d for d in full)
    assert not any("relatedInformation" in d or "codeDescription" in d for d in plain)
    for d in full:
        d.pop("relatedInformation", None)
        d.pop("codeDescription")
    assert plain == full
    kept.build(document, Settings(), form=diagnostics.Form(True, False))
    related_only = json.loads(kept.array())
    assert any("relatedInformation" in d for d in related_only)
    assert not any("codeDescription" in d for d in related_only)


def test_a_judges_ruling_added_or_removed_below_changes_the_kept_findings_above() -> None:
    """A `judge ... allow CODE` line silences findings on the lines above it (decision 0033):
    adding or deleting one changes what other lines' kept diagnostics show."""
    ruled_text = TEXT + "judge call allow O202\n"
    document = OpenDocument("file:///x.mtgr", TEXT, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    before = _published(document, kept)
    assert any(code == "O202" for code, _line, _column in before)
    end = types.Position(line=TEXT.count("\n"), character=0)
    document.change(
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(start=end, end=end), text="judge call allow O202\n"
            )
        ],
        2,
    )
    assert document.document.text == ruled_text
    assert _published(document, kept) == _expected(document)
    assert not any(code == "O202" for code, _line, _column in _expected(document))
    below = types.Position(line=TEXT.count("\n") + 1, character=0)
    document.change(
        [types.TextDocumentContentChangePartial(range=types.Range(start=end, end=below), text="")],
        3,
    )
    assert _published(document, kept) == _expected(document) == before


def _turns_of_draws() -> str:
    """Three turns of draws that reuse a number (O202 on every draw but the first), then a
    judge's line without a ruling."""
    text = TEXT.split('"Alice" draw')[0] + 'start "Alice"\n"Alice" keep\n"Bob" keep\n'
    for turn, player in ((1, "Alice"), (2, "Bob"), (3, "Alice")):
        text += f'turn {turn} "{player}"\n'
        text += "".join(f'"{player}" draw #{turn} "Card {k}"\n' for k in range(5))
    return text + "judge call\n"


def test_an_edit_in_a_record_with_rulings_places_anew_only_the_findings_a_ruling_may_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ruling covers its own turn and the turn before (check.ruled): typing a ruling, or
    on a line, places again the findings from two turns above the edit down to it, and
    keeps those above as they were."""
    text = _turns_of_draws()
    lines = text.split("\n")
    judge = lines.index("judge call")
    turn_2 = lines.index('turn 2 "Bob"')
    document = OpenDocument("file:///x.mtgr", text, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    before = _published(document, kept)
    converted: list[int] = []
    convert = diagnostics._json

    def counting(*args, **kwargs) -> str:
        converted.append(args[1].line)
        return convert(*args, **kwargs)

    monkeypatch.setattr(diagnostics, "_json", counting)
    end = types.Position(line=judge, character=len("judge call"))
    document.change(
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(start=end, end=end), text=" allow O202"
            )
        ],
        2,
    )
    after = _published(document, kept)
    assert after == _expected(document)
    silenced = {line for code, line, _column in set(before) - set(after) if code == "O202"}
    assert silenced and min(silenced) > turn_2  # turns 2 and 3: the ruling's reach
    assert converted and min(converted) >= turn_2  # turn 1's findings kept as they were

    converted.clear()
    on = types.Position(line=judge - 2, character=len('"Alice" draw #3 "Card'))
    document.change(
        [types.TextDocumentContentChangePartial(range=types.Range(start=on, end=on), text="s")], 3
    )
    assert _published(document, kept) == _expected(document)
    assert converted and min(converted) >= turn_2


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_published_message_is_framed_with_its_length_and_holds_the_array(count: int) -> None:
    body = "".join(f'"Alice" draw #1 "Card {k}"\n' for k in range(count))
    document = OpenDocument("file:///x.mtgr", TEXT + body, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    kept.build(document, Settings())
    header, _, message = kept.message(b'{"diagnostics":', b"}").partition(b"\r\n\r\n")
    assert header == b"Content-Length: %d" % len(message)
    assert json.loads(message)["diagnostics"] == json.loads(kept.array())
    assert len(json.loads(kept.array())) == kept.count > 0


@pytest.mark.parametrize("most", [None, 777])
def test_a_message_written_in_pieces_arrives_whole_and_in_order(
    monkeypatch: pytest.MonkeyPatch, most: int | None
) -> None:
    """The pieces writer (transport.PiecesWriter) sends a message's pieces whole and in
    order: many pieces (more than one writev takes), a few, more bytes than a pipe holds,
    and (`most`)
    a writev that writes only part of what it was given, ending within a piece."""
    if most is not None:
        writev = os.writev

        def partly(descriptor: int, buffers: list) -> int:
            return writev(descriptor, [b"".join(bytes(b) for b in buffers)[:most]])

        monkeypatch.setattr(transport.os, "writev", partly)
    pieces = [b"%d:" % k + b"x" * (k % 97) for k in range(5000)]
    few = [b"%d:" % k + b"y" * 300 for k in range(6)]
    read_end, write_end = os.pipe()
    received: list[bytes] = []

    def read() -> None:
        with os.fdopen(read_end, "rb") as reader:
            received.append(reader.read())

    reading = threading.Thread(target=read)
    reading.start()
    with os.fdopen(write_end, "wb") as stdout:
        writer = transport.PiecesWriter(stdout)
        writer.write_pieces([b"first;"])
        writer.write_pieces(pieces)
        writer.write_pieces(few)
        writer.write_pieces([b";last"])
    reading.join(timeout=60)
    assert received == [b"first;" + b"".join(pieces) + b"".join(few) + b";last"]
    assert len(received[0]) > 2**16


def _record(lines: int) -> str:
    """The examples one after another as they are: hundreds of diagnostics, with related
    places far above them, ties on (line, column, code) and judges' rulings."""
    from benchmarks.session import as_is

    return as_is(lines)


def _fresh(document: OpenDocument) -> bytes:
    again = OpenDocument(document.uri, document.document.text, 1, document.encoding)
    kept = diagnostics.PublishedDiagnostics()
    kept.build(again, Settings())
    return kept.array()


def _edit(document: OpenDocument, version: int, start: int, end: int, text: str) -> None:
    span = types.Range(
        start=types.Position(line=start, character=0), end=types.Position(line=end, character=0)
    )
    document.change([types.TextDocumentContentChangePartial(range=span, text=text)], version)


def test_lines_inserted_and_deleted_among_many_diagnostics_publish_a_fresh_builds_bytes() -> None:
    """Lines inserted, deleted and pasted above, between and below hundreds of
    diagnostics (the chunks below renumbered, those straddling an edit or naming lines
    above it placed by their lines' numbers): after every edit the published array is
    byte for byte a fresh build's, and its order and places those of a full check."""
    import random

    rng = random.Random(17)
    document = OpenDocument("file:///x.mtgr", _record(1500), 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    assert _build(document, kept) == _fresh(document)
    assert kept.count > 300
    for version in range(2, 30):
        length = len(document.document)
        at = rng.randrange(length - 30)
        kind = version % 4
        if kind == 0:  # comment lines: everything below moves
            _edit(document, version, at, at, "// a note\n" * rng.randint(1, 12))
        elif kind == 1:  # a deletion
            _edit(document, version, at, at + rng.randint(1, 25), "")
        elif kind == 2:  # a paste from elsewhere: new findings among moved ones
            source = rng.randrange(length - 30)
            block = "".join(document.document.texts[source + k] + "\n" for k in range(20))
            _edit(document, version, at, at, block)
        else:  # lines replaced by as many others
            _edit(document, version, at, at + 3, "// a\n// b\n// c\n")
        assert _build(document, kept) == _fresh(document), version
        assert _published(document, kept) == _expected(document)


def test_a_line_inserted_above_many_diagnostics_writes_each_chunk_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line break above hundreds of diagnostics converts none of them and writes each
    chunk of the array once (one format of all its line numbers), not a step per
    diagnostic; the message carries the chunks as they are, not joined in a copy."""
    document = OpenDocument("file:///x.mtgr", _record(1500), 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    _build(document, kept)
    chunks = len(kept.parts)
    assert kept.count > 2 * diagnostics.CHUNK and chunks > 1

    converted: list[str] = []
    written: list[object] = []
    convert, write = diagnostics._json, diagnostics._Chunk.write
    monkeypatch.setattr(
        diagnostics, "_json", lambda *args, **kw: converted.append("") or convert(*args, **kw)
    )
    monkeypatch.setattr(
        diagnostics._Chunk, "write", lambda self, n: written.append(self) or write(self, n)
    )
    _edit(document, 2, 0, 0, "// a note\n")
    array = _build(document, kept)
    assert converted == []
    assert 0 < len(written) <= chunks
    assert array == _fresh(document)
    pieces = kept.message_maker(b"{", b"}")()
    assert len(pieces) >= len(kept.parts) > 1
    assert b"".join(pieces).partition(b"\r\n\r\n")[2] == b"{" + kept.array() + b"}"


def test_diagnostics_tied_on_place_and_code_stay_ordered_by_their_json_when_lines_move() -> None:
    """Two diagnostics on one line, at one column, with one code, differ only in the line
    of a related place: the array orders them by their JSON, which a move can turn round
    (99 before 100 as numbers, after it as text)."""
    numbers = {1: 5, 2: 99, 3: 100}
    a = diagnostics._Template("X1", 0, 1, b'{"line":%d,"related":%d}', (1, 2))
    b = diagnostics._Template("X1", 0, 1, b'{"line":%d,"related":%d}', (1, 3))
    chunk = diagnostics._Chunk([a, b])
    chunk.settle(numbers.get)
    assert chunk.json == b'{"line":5,"related":100},{"line":5,"related":99}'
    numbers = {1: 4, 2: 98, 3: 99}  # a line deleted above them all
    chunk.write(tuple(map(numbers.__getitem__, chunk.ids)))
    assert chunk.json == b'{"line":4,"related":98},{"line":4,"related":99}'
    assert chunk.ids == (1, 2, 1, 3)


def test_a_whole_new_text_after_edits_publishes_a_fresh_builds_bytes() -> None:
    """A change that replaces the whole text (no range) after an edit in the same batch:
    the lines it removed are not among those the ranged edits replaced, yet the
    diagnostics they held go, and what is published is a fresh build's."""
    record = _record(400)
    document = OpenDocument("file:///x.mtgr", record, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    _build(document, kept)
    at = types.Position(line=30, character=0)
    lines = record.split("\n")
    # as long as before: lines from the middle gone, as many comments at the end
    other = "\n".join(lines[:100] + lines[140:] + ["// a note"] * 40)
    document.change(
        [
            types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="\n"),
            types.TextDocumentContentChangeWholeDocument(text=other),
        ],
        2,
    )
    assert _build(document, kept) == _fresh(document)
    assert _published(document, kept) == _expected(document)


def test_diagnostics_that_go_leave_no_cyclic_garbage() -> None:
    """The server collects cyclic garbage seldom (server/collector.py): the chunks and the
    diagnostics that went from them must be freed when they go, not wait for it."""
    import gc

    record = _record(600)
    document = OpenDocument("file:///x.mtgr", record, 1, types.PositionEncodingKind.Utf16)
    kept = diagnostics.PublishedDiagnostics()
    _build(document, kept)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        _edit(document, 2, 50, 450, "")  # most diagnostics go: all ordered again
        _build(document, kept)
        _edit(document, 3, 10, 10, "// a note\n")
        _build(document, kept)
        gc.collect()
        kinds = {type(thing) for thing in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert diagnostics._Chunk not in kinds
    assert diagnostics._Template not in kinds
