"""Formatting and range formatting through the server: minimal edits, canonical result."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from records import apply_edits, column

from mtgr.syntax.format import format_text

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "file:///tmp/formatting.mtgr"
MESSY = (
    "mtgr 0.4\r\n"
    'player   "Alice"  deck 60\r\n'
    '  #1 new card "Æther Vial"   hand "Alice"   //known\r\n'
    '#2   new card "Dandân" hand "Alice"\r\n'
    "  #3 frobnicate   \r\n"
    "\r\n"
    "\r\n"
)
OPTIONS = types.FormattingOptions(tab_size=4, insert_spaces=True)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim@0.11"],
    scope="module",  # one server a client: each test opens its own text
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param))
    )
    assert result.capabilities.document_formatting_provider
    assert result.capabilities.document_range_formatting_provider
    lsp_client.encoding = result.capabilities.position_encoding or "utf-16"  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=text)
        )
    )


@pytest.mark.parametrize(
    "text",
    [MESSY, "mtgr 0.4", "", 'turn 1 "Alice"   \n\n\n\n', "keyframe\n  end  \n", "\n\n"],
)
async def test_document_formatting(client: LanguageClient, text: str) -> None:
    _open(client, text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI), options=OPTIONS
        )
    )
    assert edits is not None
    result = apply_edits(text, list(edits), client.encoding)  # type: ignore[attr-defined]
    assert result == format_text(text)


async def test_messy_document_result_and_untouched_lines(client: LanguageClient) -> None:
    _open(client, MESSY)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI), options=OPTIONS
        )
    )
    assert edits is not None
    assert apply_edits(MESSY, list(edits), client.encoding) == (  # type: ignore[attr-defined]
        "mtgr 0.4\r\n"
        'player "Alice" deck 60\r\n'
        '#1 new card "Æther Vial" hand "Alice" // known\r\n'
        '#2 new card "Dandân" hand "Alice"\r\n'
        "  #3 frobnicate   \r\n"
    )
    assert 0 not in {e.range.start.line for e in edits}  # an unchanged line gets no edit


async def test_range_formatting_touches_only_the_selected_lines(client: LanguageClient) -> None:
    _open(client, MESSY)
    edits = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(
                start=types.Position(line=2, character=5), end=types.Position(line=3, character=0)
            ),
            options=OPTIONS,
        )
    )
    assert edits is not None
    assert [e.range.start.line for e in edits] == [2]
    assert edits[0].new_text == '#1 new card "Æther Vial" hand "Alice" // known'
    line = MESSY.split("\r\n")[2]
    assert column(line, edits[0].range.end.character, client.encoding) == len(line)  # type: ignore[attr-defined]
