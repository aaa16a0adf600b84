"""Inlay hints end to end: card names after bare `#N` and life totals on `turn` lines, at the
right character in UTF-8 (Neovim) and UTF-16, and none when the setting turns them off."""

import sys

import pytest
import pytest_lsp
import records
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from records import OPENING
from refreshes import answer_refreshes

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "file:///tmp/inlay-hints.mtgr"
GAME = (
    OPENING
    + """\
#8 move hand -> exile as discard by #1 replacement #9   // CR 614.6
"Bob" life -2 by #1
turn 2 "Alice"
step upkeep
step draw
"Alice" draw #11 "Dandân"
phase main
#10 cast
#10 resolve -> battlefield
#10 effect "Jötun Grunt\u2019s upkeep: two cards from a graveyard" on #10 until leaves
"""
)
LINES = GAME.splitlines()


def capabilities(name: str) -> types.ClientCapabilities:
    """Neovim 0.11 as it is; VS Code 1.65.2 predates inlay hints, so they are added by hand."""
    if name == "neovim":
        return client_capabilities("neovim")
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None
    caps.text_document.inlay_hint = types.InlayHintClientCapabilities()
    return caps


ENCODINGS: dict[int, str] = {}


def units(client: LanguageClient, text: str) -> int:
    return records.units(text, ENCODINGS[id(client)])


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["neovim", "vs code with inlay hints"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    answer_refreshes(lsp_client)
    lsp_client.set_configuration({"inlayHints": {"enabled": True}}, section="mtgr")
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(request.param))
    )
    assert result.capabilities.inlay_hint_provider
    ENCODINGS[id(lsp_client)] = result.capabilities.position_encoding or "utf-16"
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=GAME)
        )
    )
    yield
    await lsp_client.shutdown_session()


async def hints(client: LanguageClient) -> list[types.InlayHint]:
    result = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(
                start=types.Position(line=0, character=0),
                end=types.Position(line=len(LINES), character=0),
            ),
        )
    )
    return list(result or [])


def on_line(found: list[types.InlayHint], line: int) -> list[tuple[int, str]]:
    return [(h.position.character, str(h.label)) for h in found if h.position.line == line]


async def test_negotiated_encoding(client: LanguageClient) -> None:
    assert ENCODINGS[id(client)] in ("utf-8", "utf-16")


async def test_card_names_after_bare_numbers(client: LanguageClient) -> None:
    found = await hints(client)
    line = LINES[23]
    assert on_line(found, 23) == [
        (units(client, line[: line.index("#8") + 2]), "Æther Vial"),
        (units(client, line[: line.index("#1 ") + 2]), "Thoughtseize"),
        (units(client, line[: line.index("#9") + 2]), "Leyline of the Void"),
    ]
    assert on_line(found, 30) == [(3, "Jötun Grunt")]


async def test_position_after_accented_text(client: LanguageClient) -> None:
    found = await hints(client)
    line = LINES[32]
    end_of_on = units(client, line[: line.index("on #10") + len("on #10")])
    assert on_line(found, 32) == [(3, "Jötun Grunt"), (end_of_on, "Jötun Grunt")]


async def test_no_hint_where_the_line_names_the_card_or_it_is_hidden(
    client: LanguageClient,
) -> None:
    found = await hints(client)
    assert on_line(found, 9) == []  # "Alice" draw #8 "Æther Vial"
    assert on_line(found, 7) == []  # "Bob" draw #1: hidden
    assert on_line(found, 20) == []  # #1 "Thoughtseize" cast


async def test_life_totals_on_turn_lines(client: LanguageClient) -> None:
    found = await hints(client)
    assert on_line(found, 15) == [(len(LINES[15]), "Alice 20 · Bob 20")]
    assert on_line(found, 25) == [(len(LINES[25]), "Alice 20 · Bob 18")]


async def test_off_when_the_setting_says_so(client: LanguageClient) -> None:
    client.set_configuration({"inlayHints": {"enabled": False}}, section="mtgr")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"inlayHints": {"enabled": False}}})
    )
    for _ in range(50):  # the notification is handled before a later request's answer
        found = await hints(client)
        if not found:
            break
    assert found == []
    client.set_configuration({"inlayHints": {"enabled": True}}, section="mtgr")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"inlayHints": {"enabled": True}}})
    )
