"""The first big answers of a long record, prepared while the server is idle
(features/prepare.py): the same answers as without preparation, whatever edit stops it
halfway, and prepared for what the client asks for only."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from benchmarks.generate import generate
from lsprotocol import types

from mtgr.server.features import documents, inlay_hints, prepare, semantic_tokens, symbols
from mtgr.server.features.documents import LARGE_DOCUMENT_LINES
from mtgr.server.session import OpenDocument
from mtgr.server.transport import QueuedWriter

TEXT = generate(1500, seed=4)
STEP = 100  # lines a step: many steps on a short record


def _opened(text: str = TEXT) -> OpenDocument:
    document = OpenDocument("file:///prepared.mtgr", text, 1, types.PositionEncodingKind.Utf16)
    assert document.walk is not None
    return document


def _answers(document: OpenDocument) -> tuple[str, list[int], str, list[str]]:
    return (
        str(symbols.document_symbols(document)),
        semantic_tokens.current(document).data,  # the JSON differs by its result id
        str(inlay_hints.hints(document, 0, len(document.document))),
        list(symbols.segment_folds(document, True)),
    )


def _steps(document: OpenDocument) -> Iterator[Iterator[None]]:
    yield symbols.prepared_in_steps(document, STEP)
    yield semantic_tokens.prepared_in_steps(document, STEP)
    yield inlay_hints.prepared_in_steps(document, STEP)


def _prepared(document: OpenDocument, steps: int | None = None) -> int:
    """Runs the preparation's steps (all, or so many); how many ran."""
    ran = 0
    for preparation in _steps(document):
        for _ in preparation:
            ran += 1
            if steps is not None and ran == steps:
                return ran
    return ran


def test_prepared_answers_are_the_answers_built_without_preparation() -> None:
    prepared = _opened()
    assert _prepared(prepared) > 30
    assert _answers(prepared) == _answers(_opened())


def test_the_first_answers_after_preparation_build_no_part_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    document = _opened()
    _prepared(document)

    def built_again(*_args: object) -> None:
        raise AssertionError("a part the preparation built was built again")

    monkeypatch.setattr(symbols, "_roles", built_again)
    monkeypatch.setattr(symbols, "_segment", built_again)
    monkeypatch.setattr(semantic_tokens, "_chunk", built_again)
    monkeypatch.setattr(inlay_hints, "_chunk", built_again)
    answers = _answers(document)
    monkeypatch.undo()
    assert answers == _answers(_opened())


@pytest.mark.parametrize("steps", [1, 20, 35, 60, 75])
def test_an_edit_that_stops_the_preparation_halfway_leaves_the_answers_of_the_new_text(
    steps: int,
) -> None:
    document = _opened()
    _prepared(document, steps)
    line = len(document.document) // 3
    edit = types.Range(
        start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)
    )
    document.apply([types.TextDocumentContentChangePartial(range=edit, text="// a note\n")], 2)
    lines = TEXT.split("\n")
    edited = "\n".join([*lines[:line], "// a note", *lines[line:]])
    assert _answers(document) == _answers(_opened(edited))


def _server(
    document: OpenDocument,
    capabilities: types.TextDocumentClientCapabilities,
    writer: object = None,
):
    return SimpleNamespace(
        client_capabilities=types.ClientCapabilities(text_document=capabilities),
        session=SimpleNamespace(get=lambda uri: document),
        collector=SimpleNamespace(worked=lambda: None),
        protocol=SimpleNamespace(writer=writer),
    )


EVERY_ANSWER = types.TextDocumentClientCapabilities(
    document_symbol=types.DocumentSymbolClientCapabilities(
        hierarchical_document_symbol_support=True
    ),
    semantic_tokens=types.SemanticTokensClientCapabilities(
        requests=types.ClientSemanticTokensRequestOptions(full=True),
        token_types=[],
        token_modifiers=[],
        formats=[],
    ),
    inlay_hint=types.InlayHintClientCapabilities(),
)


def test_only_what_the_client_asks_for_is_prepared() -> None:
    document = _opened()
    outline_only = types.TextDocumentClientCapabilities(
        document_symbol=EVERY_ANSWER.document_symbol
    )
    asyncio.run(prepare.prepare(_server(document, outline_only), document))  # type: ignore[arg-type]
    assert document in prepare._PREPARED
    assert symbols._OUTLINES[document].segments
    assert document not in semantic_tokens._REMEMBERED
    assert document not in inlay_hints._REMEMBERED


def test_the_preparation_stops_at_an_edit_and_the_next_check_prepares_again() -> None:
    document = _opened()
    server = _server(document, EVERY_ANSWER)

    async def edited_meanwhile() -> None:
        task = asyncio.ensure_future(prepare.prepare(server, document))  # type: ignore[arg-type]
        for _ in range(5):
            await asyncio.sleep(0)
        edit = types.Range(
            start=types.Position(line=3, character=0), end=types.Position(line=3, character=0)
        )
        document.apply([types.TextDocumentContentChangePartial(range=edit, text="// a\n")], 2)
        await task

    asyncio.run(edited_meanwhile())
    assert document not in prepare._PREPARED
    assert document.walk is not None  # the edit's check
    asyncio.run(prepare.prepare(server, document))  # type: ignore[arg-type]
    assert document in prepare._PREPARED
    assert document in semantic_tokens._REMEMBERED and document in inlay_hints._REMEMBERED


class _BlockedSink:
    """A client that has not yet read what the server writes."""

    def __init__(self) -> None:
        self.read = threading.Event()

    def write_pieces(self, pieces: list[bytes]) -> None:
        assert self.read.wait(30), "the test never let the client read"

    def close(self) -> None:
        pass


def test_no_step_runs_while_the_server_writes_to_the_client() -> None:
    document = _opened()
    sink = _BlockedSink()
    writer = QueuedWriter(sink)
    writer.write(b"an answer of megabytes")
    server = _server(document, EVERY_ANSWER, writer)

    async def while_writing() -> None:
        task = asyncio.ensure_future(prepare.prepare(server, document))  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        assert document not in symbols._OUTLINES  # not one step yet
        sink.read.set()
        await task

    asyncio.run(while_writing())
    writer.close()
    assert document in prepare._PREPARED


def test_a_large_documents_first_check_prepares_its_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = generate(LARGE_DOCUMENT_LINES + 200, seed=4)
    document = OpenDocument("file:///large.mtgr", text, 1, types.PositionEncodingKind.Utf16)
    server = _server(document, EVERY_ANSWER)
    monkeypatch.setattr(documents, "publish", lambda _server, _document, walk=None: None)
    monkeypatch.setattr(documents._Progress, "start", _no_progress)

    async def opened() -> None:
        await documents._check(server, document)  # type: ignore[arg-type]
        await prepare._PREPARING[document]

    asyncio.run(opened())
    assert document in prepare._PREPARED


async def _no_progress(_server: object, _document: object) -> None:
    return None
