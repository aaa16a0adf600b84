"""The server reads the project settings file nearest each document (mtgr.toml, or
[tool.mtgr] in pyproject.toml); the editor's settings override it; a change to the file,
told by workspace/didChangeWatchedFiles, re-checks the open documents; unknown codes in
the editor's severity setting are a warning, not silently dropped."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.server.session import SETTINGS_FILE_CHECK_SECONDS

TEXT = (
    'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n'
    '"Alice" draw #1 "Shock"\n"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'
)  # K301 on line 8 (zero-based)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def _k301(client: LanguageClient, uri: str) -> list[types.DiagnosticSeverity | None]:
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return [d.severity for d in client.diagnostics[uri] if d.code == "K301"]


@pytest.mark.asyncio
async def test_settings_file_severity_and_its_changes(
    client: LanguageClient, tmp_path: Path
) -> None:
    settings = tmp_path / "mtgr.toml"
    settings.write_text('[severity]\nK301 = "hint"\nfrobnicate = 1\n', encoding="utf-8")
    record = tmp_path / "games" / "a.mtgr"
    record.parent.mkdir()
    record.write_text(TEXT, encoding="utf-8")
    uri = record.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=TEXT)
        )
    )
    assert await _k301(client, uri) == [types.DiagnosticSeverity.Hint]
    assert any(
        f"{settings}:3:" in m.message and m.type == types.MessageType.Warning
        for m in client.log_messages
    )
    settings.write_text('[severity]\nK301 = "off"\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=settings.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    assert await _k301(client, uri) == []
    # the editor's setting overrides the file
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"severity": {"K301": "warning"}}})
    )
    assert await _k301(client, uri) == [types.DiagnosticSeverity.Warning]


@pytest.mark.asyncio
async def test_unknown_codes_in_the_editor_settings_are_a_warning(client: LanguageClient) -> None:
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mtgr": {"severity": {"N107": "off", "W203": "off"}}}
        )
    )
    for _ in range(200):  # the message comes with no reply to wait for
        if client.messages:
            break
        await asyncio.sleep(0.05)
    shown = [m for m in client.messages if m.type == types.MessageType.Warning]
    assert len(shown) == 1 and "W203" in shown[0].message and "N107" not in shown[0].message


@pytest.mark.asyncio
async def test_an_edit_picks_up_a_changed_settings_file(
    client: LanguageClient, tmp_path: Path
) -> None:
    """For clients that do not report file changes: an edit looks again (at most every
    SETTINGS_FILE_CHECK_SECONDS)."""
    settings = tmp_path / "mtgr.toml"
    settings.write_text('[severity]\nK301 = "hint"\n', encoding="utf-8")
    record = tmp_path / "a.mtgr"
    uri = record.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=TEXT)
        )
    )
    assert await _k301(client, uri) == [types.DiagnosticSeverity.Hint]
    settings.write_text('[severity]\nK301 = "warning"\n', encoding="utf-8")
    await asyncio.sleep(SETTINGS_FILE_CHECK_SECONDS + 0.2)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=TEXT + "\n")],
        )
    )
    assert await _k301(client, uri) == [types.DiagnosticSeverity.Warning]


CARDS = Path(__file__).resolve().parents[1] / "cards" / "scryfall-oracle-cards.json"
MISSPELT = (
    'mtgr 0.4\nplayer "Alice" deck 60\nplayer "Bob" deck 60\nperspective "Alice"\n'
    '"Alice" roll d20 17\n"Bob" roll d20 3\nstart "Alice" by "Alice"\n'
    '"Alice" draw #1 "Lightnig Bolt"\n'
)  # A101 on line 7 (zero-based) with a card index
NO_DEFAULT_INDEX = tempfile.mkdtemp(prefix="mtgr-data-")  # the user's data folder, empty


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "mtgr", "lsp"],
        server_env={**os.environ, "XDG_DATA_HOME": NO_DEFAULT_INDEX},
    ),
)
async def without_default_index(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_the_settings_file_names_the_cards_file(
    without_default_index: LanguageClient, tmp_path: Path
) -> None:
    """`cards-file`, relative to the settings file, for the documents below it only."""
    client = without_default_index
    project = tmp_path / "project"
    (project / "cards").mkdir(parents=True)
    (project / "cards" / "oracle.json").write_bytes(CARDS.read_bytes())
    (project / "mtgr.toml").write_text('cards-file = "cards/oracle.json"\n', encoding="utf-8")
    inside, outside = (project / "games" / "a.mtgr").as_uri(), (tmp_path / "b.mtgr").as_uri()
    for uri in (inside, outside):
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="mtgr", version=1, text=MISSPELT
                )
            )
        )
    for _ in range(400):
        if inside in client.diagnostics and outside in client.diagnostics:
            break
        await asyncio.sleep(0.05)
    assert [(d.code, d.range.start.line) for d in client.diagnostics[inside]] == [("A101", 7)]
    assert list(client.diagnostics[outside]) == []


@pytest.mark.asyncio
async def test_the_settings_file_names_the_rules_file_hover_quotes(
    client: LanguageClient, tmp_path: Path
) -> None:
    """`rules-file`, relative to the settings file: a CR number in a comment shows the rule
    from it (an invented text here: the test owns no CR copy)."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "cr.txt").write_text(
        "Contents\n100.1. Invented first rule.\n\n121.1. Invented drawing rule.\n",
        encoding="utf-8",
    )
    (tmp_path / "mtgr.toml").write_text('rules-file = "rules/cr.txt"\n', encoding="utf-8")
    uri = (tmp_path / "a.mtgr").as_uri()
    text = TEXT.replace('"Alice" draw #1 "Shock"', '"Alice" draw #1 "Shock"   // CR 121.1')
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    line = text.splitlines()[4]
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=4, character=line.index("121.1") + 1),
        )
    )
    assert result is not None and "Invented drawing rule." in result.contents.value
