"""The server starts over stdio and publishes the checker's diagnostics."""

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_publishes_resolve_from_below_the_top(client: LanguageClient) -> None:
    text = (
        'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n'
        '"Alice" draw #1 "Shock"\n"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'
    )
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri="file:///tmp/a.mtgr", language_id="mtgr", version=1, text=text
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = client.diagnostics["file:///tmp/a.mtgr"]
    assert ("K301", 8) in {(d.code, d.range.start.line) for d in found}
