"""The outline: pregame, turns with their phases and steps, keyframes, games, gaps."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

URI = "file:///tmp/symbols.mtgr"
TEXT = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"Alice" keep
"Bob" keep
turn 1 "Alice"
phase beginning
step upkeep
step draw
phase main
#1 new card "Æther Vial" battlefield "Alice"
phase combat
step beginning-of-combat
keyframe
#1 battlefield "Alice"
end

turn 2 "Bob"
step upkeep
// a note about turn 3
incomplete
turn 7 "Alice" by #1
phase main
game 2
"Alice" roll d20 2
turn 1 "Bob"
"""


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim@0.11"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param))
    )
    assert result.capabilities.document_symbol_provider
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=TEXT)
        )
    )
    yield
    await lsp_client.shutdown_session()


def _tree(symbols: list[types.DocumentSymbol]) -> list[object]:
    return [
        (s.name, s.range.start.line, s.range.end.line, _tree(list(s.children or [])))
        for s in symbols
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_outline(client: LanguageClient) -> None:
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert found is not None
    symbols = [s for s in found if isinstance(s, types.DocumentSymbol)]
    assert len(symbols) == len(found)
    assert _tree(symbols) == [
        ("Pregame", 4, 8, []),
        (
            "Turn 1 — Alice",
            9,
            19,
            [
                (
                    "Beginning phase",
                    10,
                    12,
                    [("Upkeep step", 11, 11, []), ("Draw step", 12, 12, [])],
                ),
                ("Main phase", 13, 14, []),
                (
                    "Combat phase",
                    15,
                    19,
                    [("Beginning of combat step", 16, 19, [("Keyframe", 17, 19, [])])],
                ),
            ],
        ),
        ("Turn 2 — Bob", 21, 24, [("Upkeep step", 22, 24, [("Incomplete (gap)", 24, 24, [])])]),
        ("Turn 7 — Alice", 25, 26, [("Main phase", 26, 26, [])]),
        ("Game 2", 27, 29, [("Pregame", 28, 28, []), ("Turn 1 — Bob", 29, 29, [])]),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_kinds_details_and_selection(client: LanguageClient) -> None:
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert found is not None
    turn7 = found[3]
    assert isinstance(turn7, types.DocumentSymbol)
    assert turn7.kind == types.SymbolKind.Namespace
    assert turn7.detail == "extra, by #1"
    line = TEXT.split("\n")[25]
    assert turn7.selection_range == types.Range(
        start=types.Position(line=25, character=0),
        end=types.Position(line=25, character=len(line)),
    )
    keyframe = found[1].children[2].children[0].children[0]  # type: ignore[union-attr,index]
    assert keyframe.kind == types.SymbolKind.Struct
    # the range ends at the end of the keyframe's `end` line
    assert keyframe.range.end == types.Position(line=19, character=3)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def flat_client(lsp_client: LanguageClient):
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            document_symbol=types.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=False
            )
        )
    )
    await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=TEXT)
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_flat_symbols_for_clients_without_hierarchy(flat_client: LanguageClient) -> None:
    found = await flat_client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert found is not None
    assert all(isinstance(s, types.SymbolInformation) for s in found)
    named = [(s.name, s.container_name, s.location.range.start.line) for s in found]
    assert named[:4] == [
        ("Pregame", None, 4),
        ("Turn 1 — Alice", None, 9),
        ("Beginning phase", "Turn 1 — Alice", 10),
        ("Upkeep step", "Beginning phase", 11),
    ]
    assert ("Keyframe", "Beginning of combat step", 17) in named
