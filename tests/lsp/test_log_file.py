"""`mtgr lsp --log-file PATH`: the server's whole log goes to the file whatever the trace
value (here `off`: the client gets none of it); a file that cannot be written is a usage
error before the server starts."""

import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from records import OPENING

import mtgr
from mtgr.cli.main import EXIT_USAGE, main

LOG = Path(tempfile.mkdtemp(prefix="mtgr-log-")) / "server.log"


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "mtgr", "lsp", "--log-file", str(LOG)]
    ),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), trace=types.TraceValue.Off
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_the_log_file_holds_every_record(client: LanguageClient) -> None:
    uri = "file:///tmp/log-file.mtgr"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="mtgr", version=1, text=OPENING
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    await client.text_document_hover_async(  # a round trip: the server has logged it
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=0, character=0),
        )
    )
    written = LOG.read_text(encoding="utf-8")
    assert f"INFO mtgr.log: mtgr {mtgr.__version__}; position encoding" in written
    assert f"DEBUG mtgr.log: {uri} version 1: " in written
    assert client.log_messages == []


def test_a_log_file_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lsp", "--log-file", str(tmp_path / "missing" / "server.log")]) == EXIT_USAGE
    assert "--log-file" in capsys.readouterr().err
