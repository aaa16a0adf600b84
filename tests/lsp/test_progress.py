"""A large document is first checked in steps: the client sees progress, a request sent
meanwhile is answered before the check is done, and an edit that comes first wins."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from benchmarks.generate import generate
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.check import check_text

URI = "file:///records/day-of-coverage.mtgr"
TEXT = generate(12_000, seed=2)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("neovim"))
    )
    yield
    await lsp_client.shutdown_session()


def progress_kinds(client: LanguageClient) -> list[str]:
    return [report.kind for reports in client.progress_reports.values() for report in reports]


async def pulled(client: LanguageClient) -> set[tuple[str, int]]:
    report = await asyncio.wait_for(
        client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        ),
        timeout=120,
    )
    return {(str(d.code), d.range.start.line) for d in report.items}


def open_document(client: LanguageClient) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=TEXT)
        )
    )


@pytest.mark.asyncio
async def test_progress_and_a_hover_answered_before_the_check_ends(client: LanguageClient) -> None:
    open_document(client)
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=URI),
                position=types.Position(line=5, character=1),
            )
        ),
        timeout=60,
    )
    assert hover is not None
    assert "end" not in progress_kinds(client), "the hover waited for the whole check"
    assert await pulled(client) == {(d.code, d.line) for d in check_text(TEXT)}
    kinds = progress_kinds(client)
    assert kinds[0] == "begin" and "report" in kinds and kinds[-1] == "end"


@pytest.mark.asyncio
async def test_an_edit_during_the_first_check_gives_a_fresh_checks_result(
    client: LanguageClient,
) -> None:
    open_document(client)
    here = types.Position(line=30, character=0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=here), text="#99999 tap\n"
                )
            ],
        )
    )
    edited = TEXT.split("\n")
    edited.insert(30, "#99999 tap")
    expected = {(d.code, d.line) for d in check_text("\n".join(edited))}
    assert ("O201", 30) in expected
    assert await pulled(client) == expected
