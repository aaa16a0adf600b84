"""`mtgr/board` end to end: the board after a line as JSON, HTML and text, following edits,
with the line's diagnostics; bad params get an error, an unknown document null."""

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.server.features.board import plain

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[2]
RAGAVAN = (ROOT / "examples" / "ragavan-dash.mtgr").read_text(encoding="utf-8")
URI = "file:///tmp/board/ragavan-dash.mtgr"
CAST = RAGAVAN.splitlines().index("#7 cast")  # zero-based: line 70 of the file


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    scope="module",
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="mtgr", version=1, text=RAGAVAN
            )
        )
    )
    await lsp_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    yield
    await lsp_client.shutdown_session()


async def board(client: LanguageClient, params: object) -> dict:
    # pygls gives a custom request's result as nested named tuples
    return plain(await client.protocol.send_request_async("mtgr/board", params))


def player(result: dict, name: str) -> dict:
    return next(p for p in result["board"]["players"] if p["name"] == name)


async def test_the_board_after_the_cast_line(client: LanguageClient) -> None:
    assert CAST == 69
    result = await board(client, {"textDocument": {"uri": URI}, "line": CAST})
    assert result["line"] == CAST and result["version"] == 1
    alice, bob = player(result, "Alice"), player(result, "Bob")
    assert alice["life"] == 17
    creatures = next(row for row in alice["battlefield"] if row["name"] == "creatures")
    assert [(c["name"], c["tapped"]) for c in creatures["cards"]] == [
        ("Dragon's Rage Channeler", True)
    ]
    assert sum(1 for card in bob["hand"] if card["name"] is None) == 7
    assert [c["name"] for c in result["board"]["stack"]] == ["Expressive Iteration"]
    assert 'class="card tapped" data-number="3"' in result["html"]
    assert ".card.tapped" in result["css"]
    assert "[#3 Dragon's Rage Channeler, tapped]" in result["text"]


async def test_only_the_formats_asked_for(client: LanguageClient) -> None:
    result = await board(client, {"textDocument": {"uri": URI}, "line": 3, "formats": ["text"]})
    assert "text" in result and "html" not in result and "board" not in result


async def test_the_board_follows_an_edit(client: LanguageClient) -> None:
    after = types.Position(line=CAST + 1, character=0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=after, end=after), text='"Alice" life -3\n'
                )
            ],
        )
    )
    result = await board(client, {"textDocument": {"uri": URI}, "line": CAST + 1})
    assert result["version"] == 2
    assert player(result, "Alice")["life"] == 14
    assert result["board"]["line"]["text"] == '"Alice" life -3'
    # the line past the end is the last line
    result = await board(client, {"textDocument": {"uri": URI}, "line": 100_000})
    assert result["line"] == result["lineCount"] - 1


async def test_the_line_shows_its_diagnostics(client: LanguageClient) -> None:
    uri = "file:///tmp/board/wrong.mtgr"
    text = 'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n#1 resolve\n'
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    while uri not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    published = sorted(d.code for d in client.diagnostics[uri] if d.range.start.line == 4)
    assert published
    result = await board(client, {"textDocument": {"uri": uri}, "line": 4})
    codes = sorted(d["code"] for d in result["board"]["line"]["diagnostics"])
    assert codes == published
    assert all(f'<span class="code">{code}</span>' in result["html"] for code in codes)


async def test_an_unknown_document_is_null(client: LanguageClient) -> None:
    assert await board(client, {"textDocument": {"uri": "file:///nowhere.mtgr"}, "line": 0}) is None


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": URI}},
        {"textDocument": {"uri": URI}, "line": -1},
        {"textDocument": {"uri": URI}, "line": "3"},
        {"line": 3},
        {"textDocument": {"uri": URI}, "line": 3, "formats": ["png"]},
    ],
)
async def test_bad_params_are_an_error(client: LanguageClient, params: dict) -> None:
    with pytest.raises(JsonRpcException):
        await board(client, params)
