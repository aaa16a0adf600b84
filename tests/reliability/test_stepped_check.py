"""A large document's first check goes in steps (issue 18, items 3 and 7): closing it meanwhile
leaves nothing of it with the client, and what is asked meanwhile starts from the part
already walked, not from the top."""

from __future__ import annotations

import asyncio
import sys
import time
from types import SimpleNamespace

import pytest
import pytest_lsp
from benchmarks.generate import generate
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.check import check_text
from mtgr.rules import walk as walk_module
from mtgr.server.features import diagnostics, documents
from mtgr.server.features.documents import LARGE_DOCUMENT_LINES, LINES_PER_STEP
from mtgr.server.session import OpenDocument

URI = "file:///records/reopened.mtgr"
_LINES = generate(LARGE_DOCUMENT_LINES + 1000, seed=3).split("\n")
# a large record with a finding near its top (#99999 was never introduced: O201)
LARGE = "\n".join([*_LINES[:30], "#99999 tap", *_LINES[30:]])
SMALL = (
    'mtgr 0.4\ntitle "t"\nrules 2026-09-25\nplayer "Alice" deck 60\nplayer "Bob" deck 60\n'
    'perspective all\n"Alice" draw #1 "Island"\n"Alice" draw #1 "Forest"\n'
)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, text: str, version: int) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="mtgr", version=version, text=text
            )
        )
    )


async def _first_check_ended(client: LanguageClient) -> None:
    while not any(
        report.kind == "end" for reports in client.progress_reports.values() for report in reports
    ):
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_closing_during_the_first_check_and_reopening_leaves_the_new_texts_diagnostics(
    client: LanguageClient,
) -> None:
    assert ("O201", 30) in {(d.code, d.line) for d in check_text(LARGE)}
    _open(client, LARGE, 1)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    _open(client, SMALL, 2)
    await asyncio.wait_for(_first_check_ended(client), timeout=120)
    # a request answered after the check ended: whatever it published has arrived
    await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=0, character=0),
        )
    )
    expected = {(d.code, d.line) for d in check_text(SMALL)}
    assert expected
    assert {(str(d.code), d.range.start.line) for d in client.diagnostics[URI]} == expected


def test_a_question_during_the_first_check_walks_from_the_part_already_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    document = OpenDocument(URI, LARGE, 1, types.PositionEncodingKind.Utf16, check=False)
    steps = iter(document.walk_in_steps(0, LINES_PER_STEP))
    done, _partial = next(steps)
    done, _partial = next(steps)
    assert done == 2 * LINES_PER_STEP and not document.checked
    walked: list[int] = []
    step = walk_module.step

    def counting(*args, **kwargs):
        walked.append(1)
        return step(*args, **kwargs)

    monkeypatch.setattr(walk_module, "step", counting)
    for line in (done - 500, done - 1):
        walked.clear()
        document.state_after(line)
        assert len(walked) <= walk_module.CHECKPOINT_EVERY


def _far_edit_published(monkeypatch: pytest.MonkeyPatch, read_by: float) -> list[bool]:
    """Whether each publish after an edit that changes every line below it (a player's
    name) was partial (a re-check under way), with the last publish read by `read_by`."""
    document = OpenDocument(URI, LARGE, 1, types.PositionEncodingKind.Utf16)
    kept = documents.published(document)
    kept.build(document, document.settings)
    kept.sent_at = read_by - kept.count * diagnostics.CLIENT_READS_A_DIAGNOSTIC
    sent: list[bool] = []
    monkeypatch.setattr(documents, "publish", lambda _s, _d, walk=None: sent.append(bool(walk)))
    server = SimpleNamespace(
        session=SimpleNamespace(get=lambda uri: document),
        collector=SimpleNamespace(worked=lambda: None),
        client_capabilities=types.ClientCapabilities(),  # asks for no big answer to prepare
    )
    line = next(i for i, text in enumerate(_LINES) if text.startswith('player "Bob"'))
    span = types.Range(
        start=types.Position(line=line, character=8), end=types.Position(line=line, character=11)
    )
    document.apply([types.TextDocumentContentChangePartial(range=span, text="Bea")], 2)
    asyncio.run(documents._check(server, document))  # type: ignore[arg-type]
    return sent


def test_a_far_recheck_publishes_what_the_user_sees_first_once_the_client_read_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _far_edit_published(monkeypatch, read_by=0.0) == [True, False]


def test_a_far_recheck_does_not_publish_early_while_the_client_reads_the_last_publish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typist's next key: a partial publish would queue behind the one being read."""
    still_reading = time.perf_counter() + 3600
    assert _far_edit_published(monkeypatch, read_by=still_reading) == [False]


def test_a_publish_notes_when_it_was_written_and_how_long_the_client_reads_it() -> None:
    document = OpenDocument(URI, LARGE, 1, types.PositionEncodingKind.Utf16)
    written: list[bytes] = []
    server = SimpleNamespace(
        client_capabilities=types.ClientCapabilities(),
        protocol=SimpleNamespace(writer=SimpleNamespace(write=written.append)),
    )
    before = time.perf_counter()
    diagnostics.publish(server, document)  # type: ignore[arg-type]
    kept = documents.published(document)
    assert written and kept.count > 0
    assert before <= kept.sent_at <= time.perf_counter()
    assert kept.read_by() == kept.sent_at + kept.count * diagnostics.CLIENT_READS_A_DIAGNOSTIC
