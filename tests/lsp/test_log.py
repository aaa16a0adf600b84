"""The server's log reaches the client as window/logMessage at the trace value's level:
nothing with `off`, information with `messages`, every record (per-document ones too)
with `verbose`; from initialize's `trace`, then from `$/setTrace`."""

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from records import OPENING

import mtgr

TRACES = [types.TraceValue.Off, types.TraceValue.Messages, types.TraceValue.Verbose]


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=TRACES,
    ids=[trace.value for trace in TRACES],
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), trace=request.param
        )
    )
    yield
    await lsp_client.shutdown_session()


async def open_record(client: LanguageClient, uri: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="mtgr", version=1, text=OPENING
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    await client.text_document_hover_async(  # a round trip: earlier messages have arrived
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=0, character=0),
        )
    )


def logged(client: LanguageClient, start: str) -> list[types.MessageType]:
    return [m.type for m in client.log_messages if m.message.startswith(start)]


@pytest.mark.asyncio
async def test_the_trace_value_sets_what_is_logged(
    client: LanguageClient, request: pytest.FixtureRequest
) -> None:
    trace = request.node.callspec.params["client"]
    first = "file:///tmp/log-first.mtgr"
    await open_record(client, first)
    started = logged(client, f"mtgr {mtgr.__version__}; position encoding")
    per_document = logged(client, f"{first} version 1: ")
    if trace == types.TraceValue.Off:
        assert client.log_messages == []
    elif trace == types.TraceValue.Messages:
        assert started == [types.MessageType.Info]
        assert per_document == []
    else:
        assert started == [types.MessageType.Info]
        assert per_document == [types.MessageType.Log]


@pytest.mark.asyncio
async def test_set_trace_changes_it(client: LanguageClient) -> None:
    client.protocol.notify(types.SET_TRACE, types.SetTraceParams(value=types.TraceValue.Verbose))
    second = "file:///tmp/log-second.mtgr"
    await open_record(client, second)
    assert logged(client, f"{second} version 1: ") == [types.MessageType.Log]
    client.protocol.notify(types.SET_TRACE, types.SetTraceParams(value=types.TraceValue.Off))
    await asyncio.sleep(0)
    before = len(client.log_messages)
    await open_record(client, "file:///tmp/log-third.mtgr")
    assert len(client.log_messages) == before
