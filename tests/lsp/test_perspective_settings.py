"""The server checks a record without a `perspective` line as the editor's
`mtgr.perspective`, else the project settings file's `perspective`, says (decision 0080);
a record's own line always wins; a value that is no name is a warning with file and line."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

HEADER = 'mtgr 0.4\nplayer "Alice" deck 60\nplayer "Bob" deck 60\n'
DRAWS = '"Alice" draw #1\n"Bob" draw #2\n'  # unnamed draws: V706 where the drawer's view is
UNDECLARED = HEADER + DRAWS  # Alice's draw is line 3, Bob's line 4 (zero-based)
OWN = HEADER + 'perspective "Bob"\n' + DRAWS  # Bob's draw is line 5


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    return uri


def _v706_lines(client: LanguageClient, uris: list[str]) -> dict[str, list[int]]:
    return {
        uri: sorted(d.range.start.line for d in client.diagnostics.get(uri, ()) if d.code == "V706")
        for uri in uris
    }


async def _v706(
    client: LanguageClient, expected: dict[str, list[int]], seconds: float = 20
) -> dict[str, list[int]]:
    """The V706 lines of each document once they are as expected, or after `seconds`:
    diagnostics are published with no reply to wait for, one document after another."""
    for _ in range(int(seconds / 0.05)):
        found = _v706_lines(client, list(expected))
        if found == expected and all(uri in client.diagnostics for uri in expected):
            return found
        await asyncio.sleep(0.05)
    return _v706_lines(client, list(expected))


@pytest.mark.asyncio
async def test_the_settings_file_then_the_editor_setting(
    client: LanguageClient, tmp_path: Path
) -> None:
    settings = tmp_path / "mtgr.toml"
    settings.write_text('perspective = "Alice"\n', encoding="utf-8")
    undeclared = _open(client, tmp_path / "game.mtgr", UNDECLARED)
    assert await _v706(client, {undeclared: [3]}) == {undeclared: [3]}
    own = _open(client, tmp_path / "own.mtgr", OWN)
    assert await _v706(client, {own: [5]}) == {own: [5]}

    settings.write_text('perspective = "all"\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=settings.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    assert await _v706(client, {undeclared: [3, 4], own: [5]}) == {undeclared: [3, 4], own: [5]}

    # the editor's setting overrides the file; the record's own line still wins
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"perspective": "Bob"}})
    )
    assert await _v706(client, {undeclared: [4], own: [5]}) == {undeclared: [4], own: [5]}
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {}})
    )
    assert await _v706(client, {undeclared: [3, 4], own: [5]}) == {undeclared: [3, 4], own: [5]}


@pytest.mark.asyncio
async def test_edits_keep_the_assumed_perspective(client: LanguageClient, tmp_path: Path) -> None:
    """The incremental walk after an edit starts from the same assumed perspective."""
    (tmp_path / "mtgr.toml").write_text('perspective = "Bob"\n', encoding="utf-8")
    uri = _open(client, tmp_path / "game.mtgr", UNDECLARED)
    assert await _v706(client, {uri: [4]}) == {uri: [4]}
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0),
                    ),
                    text='title "x"\n',
                )
            ],
        )
    )
    assert await _v706(client, {uri: [5]}) == {uri: [5]}


@pytest.mark.asyncio
async def test_a_perspective_that_is_no_name_is_a_warning(
    client: LanguageClient, tmp_path: Path
) -> None:
    settings = tmp_path / "mtgr.toml"
    settings.write_text("exclude = []\nperspective = 7\n", encoding="utf-8")
    uri = _open(client, tmp_path / "game.mtgr", UNDECLARED)
    assert await _v706(client, {uri: []}) == {uri: []}
    assert any(
        f"{settings}:2:" in m.message and m.type == types.MessageType.Warning
        for m in client.log_messages
    )
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"perspective": ["Alice"]}})
    )
    for _ in range(200):  # the message comes with no reply to wait for
        if client.messages:
            break
        await asyncio.sleep(0.05)
    shown = [m for m in client.messages if m.type == types.MessageType.Warning]
    assert len(shown) == 1 and "mtgr.perspective" in shown[0].message


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def puller(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def _pull(
    client: LanguageClient, previous: dict[str, str]
) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(
            previous_result_ids=[
                types.PreviousResultId(uri=uri, value=value) for uri, value in previous.items()
            ]
        )
    )
    return {item.uri: item for item in report.items}


def _pulled_v706(item: types.WorkspaceDocumentDiagnosticReport) -> list[int]:
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
    return sorted(d.range.start.line for d in item.items if d.code == "V706")


@pytest.mark.asyncio
async def test_the_workspace_check_of_closed_records(
    puller: LanguageClient, tmp_path: Path
) -> None:
    """Records not open are checked with their folder's settings file too, and again when
    its perspective changes (the report depends on it)."""
    settings = tmp_path / "mtgr.toml"
    settings.write_text('perspective = "Bob"\n', encoding="utf-8")
    undeclared, own = tmp_path / "game.mtgr", tmp_path / "own.mtgr"
    undeclared.write_text(UNDECLARED, encoding="utf-8")
    own.write_text(OWN, encoding="utf-8")
    await puller.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="games")],
        )
    )
    first = await _pull(puller, {})
    assert _pulled_v706(first[undeclared.as_uri()]) == [4]
    assert _pulled_v706(first[own.as_uri()]) == [5]
    settings.write_text('perspective = "all"\n', encoding="utf-8")
    previous = {uri: item.result_id for uri, item in first.items() if item.result_id}
    second = await _pull(puller, previous)
    assert _pulled_v706(second[undeclared.as_uri()]) == [3, 4]
    assert _pulled_v706(second[own.as_uri()]) == [5]  # its own line still wins
