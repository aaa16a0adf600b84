"""The language server with a card index (`mtgr.cardsFile`, the fixture of tests/cards/):
card names completed after `"` (prefix and fuzzy), card text on hover of a name or `#N`,
and a quick fix for each close name of a misspelt card, as VS Code (UTF-16) and Neovim
(UTF-8) ask for them; and without an index none of it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from records import apply_edits, capabilities, units
from refreshes import answer_refreshes

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURE = Path(__file__).resolve().parents[1] / "cards" / "scryfall-oracle-cards.json"
URI = "file:///tmp/cards-game.mtgr"
GAME = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"Alice" draw #1 "Mountain"
"Alice" draw #2 "Lightnig Bolt"
"Alice" draw #3 "Æther Vial"
"Alice" draw #4 "Dandân"
"Alice" draw #5 "Goblin Guide"
"Alice" draw #6 "Tarmogoyf"
"Alice" draw #7 "Swamp"
"""
LINES = GAME.splitlines()
ENCODINGS: dict[int, str] = {}


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    answer_refreshes(lsp_client)
    settings = {"cardsFile": str(FIXTURE)}
    lsp_client.set_configuration(settings, section="mtgr")
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(request.param),
            initialization_options={"mtgr": settings},
        )
    )
    ENCODINGS[id(lsp_client)] = result.capabilities.position_encoding or "utf-16"
    open_text(lsp_client, URI, GAME)
    yield
    await lsp_client.shutdown_session()


def open_text(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )


async def diagnostics_for(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """Pulled where the client pulls (Neovim); else the first published for a new uri."""
    text_document = client.capabilities.text_document if client.capabilities else None
    if text_document and text_document.diagnostic:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return list(report.items)
    for _ in range(600):
        if uri in client.diagnostics:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics published for {uri}")


def position(client: LanguageClient, text: str, line: int, column: int) -> types.Position:
    encoding = ENCODINGS[id(client)]
    return types.Position(line=line, character=units(text.splitlines()[line][:column], encoding))


async def completion_labels(client: LanguageClient, uri: str, text: str, typed: str) -> list[str]:
    """Types `typed` on a new last line and asks for completion at its end."""
    new_text = text + typed
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)],
        )
    )
    line = len(new_text.splitlines()) - 1
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=position(client, new_text, line, len(typed)),
        )
    )
    assert isinstance(result, types.CompletionList)
    return [item.label for item in result.items]


async def test_card_names_are_completed_by_prefix_and_by_a_misspelt_start(client) -> None:
    labels = await completion_labels(client, URI, GAME, '"Alice" draw #8 "Light')
    assert '"Lightning Bolt"' in labels and '"Lightning Helix"' in labels
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=len(LINES), character=len('"Alice" draw #8 "Light')),
        )
    )
    assert isinstance(result, types.CompletionList)
    assert result.is_incomplete  # the client asks again as the name grows
    bolt = next(item for item in result.items if item.label == '"Lightning Bolt"')
    assert bolt.detail == "Instant {R}"
    assert isinstance(bolt.documentation, types.MarkupContent)
    assert "deals 3 damage to any target" in bolt.documentation.value
    labels = await completion_labels(client, URI, GAME, '"Alice" draw #8 "Ligthn')
    assert '"Lightning Bolt"' in labels
    labels = await completion_labels(client, URI, GAME, '"Alice" draw #8 "aether')
    assert '"Æther Vial"' in labels


async def test_token_names_are_not_offered_card_names(client) -> None:
    labels = await completion_labels(client, URI, GAME, '#20 new token "Light')
    assert '"Lightning Bolt"' not in labels


async def test_hover_on_a_name_and_on_its_number_shows_the_card(client) -> None:
    text = GAME + '"Alice" keep\n'
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    line = LINES.index('"Alice" draw #6 "Tarmogoyf"')
    for column in (LINES[line].index("Tarmogoyf") + 2, LINES[line].index("#6") + 1):
        hover = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=URI),
                position=position(client, text, line, column),
            )
        )
        assert hover is not None and isinstance(hover.contents, types.MarkupContent)
        value = hover.contents.value
        assert "{1}{G}" in value and "Creature — Lhurgoyf" in value
        assert "\\*/1+\\*" in value  # power and toughness
        assert "](https://scryfall.com/" in value


async def test_each_close_name_is_a_quick_fix_that_removes_the_warning(client) -> None:
    uri = "file:///tmp/cards-fix.mtgr"
    open_text(client, uri, GAME)
    found = [d for d in await diagnostics_for(client, uri) if d.code == "A101"]
    line = LINES.index('"Alice" draw #2 "Lightnig Bolt"')
    # "Dandân" is no card of the fixture either: with no close name, it gets no fix
    dandan = LINES.index('"Alice" draw #4 "Dandân"')
    assert sorted(d.range.start.line for d in found) == [line, dandan]
    warning = next(d for d in found if d.range.start.line == line)
    assert warning.severity == types.DiagnosticSeverity.Warning
    assert "Lightning Bolt" in warning.message
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=warning.range,
            context=types.CodeActionContext(diagnostics=[warning]),
        )
    )
    fixes = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.is_preferred]
    assert len(fixes) == 1
    edit = fixes[0].edit
    assert edit is not None
    if edit.document_changes:
        edits = [e for change in edit.document_changes for e in change.edits]  # type: ignore[union-attr]
    else:
        assert edit.changes is not None
        edits = edit.changes[uri]
    fixed = apply_edits(GAME, edits, ENCODINGS[id(client)])
    assert fixed.splitlines()[line] == '"Alice" draw #2 "Lightning Bolt"'


async def test_without_an_index_nothing_changes(client) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"cardsFile": ""}})
    )
    uri = "file:///tmp/cards-none.mtgr"
    open_text(client, uri, GAME)
    assert await diagnostics_for(client, uri) == []
    labels = await completion_labels(client, uri, GAME, '"Alice" draw #8 "Light')
    assert '"Lightning Bolt"' not in labels
