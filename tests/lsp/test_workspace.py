"""Workspace diagnostics: every record in the workspace folders, not only the open ones.

Push clients get a background check with work-done progress (cancellable), pull clients
answer `workspace/diagnostic` (`unchanged` for files as they were); both take the files
`mtgr check FOLDER` takes (Markdown pages with mtgr blocks, the settings file's exclude,
no tools' folders). An open document's diagnostics come from its text; closed, from the
disk again. In a multi-root workspace each folder has its own settings
(workspace/configuration with a scopeUri)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

WRONG = (
    'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n'
    '"Alice" draw #1 "Shock"\n"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'
)  # K301 on line 8 (zero-based)
CLEAN = 'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n"Alice" draw #1 "Shock"\n'
PAGE = (
    "# A game\n\nSome words.\n\n> ```mtgr\n"
    + "".join(f"> {line}\n" for line in WRONG.splitlines())
    + "> ```\n"
)
# K301 on line 13 of the page (zero-based): the record starts on line 5

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"])


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def workspace(root: Path) -> dict[str, Path]:
    """A folder with every kind of file a scan meets."""
    _write(root / "mtgr.toml", 'exclude = ["drafts/"]\nfrobnicate = 1\n')  # a warning, line 2
    return {
        "wrong": _write(root / "games" / "wrong.mtgr", WRONG),
        "clean": _write(root / "games" / "clean.mtgr", CLEAN),
        "page": _write(root / "notes" / "page.md", PAGE),
        "prose": _write(root / "notes" / "prose.md", "# No records here\n"),
        "excluded": _write(root / "drafts" / "draft.mtgr", WRONG),
        "tools": _write(root / ".venv" / "lib" / "copied.mtgr", WRONG),
    }


async def start(
    client: LanguageClient,
    name: str,
    folders: list[Path],
    trace: types.TraceValue = types.TraceValue.Off,
) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(name),
            trace=trace,
            workspace_folders=[
                types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name) for folder in folders
            ],
        )
    )


async def until(condition, seconds: float = 30) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def found(
    client: LanguageClient, path: Path
) -> list[tuple[str, int, types.DiagnosticSeverity | None]]:
    return [
        (str(d.code), d.range.start.line, d.severity)
        for d in client.diagnostics.get(path.as_uri(), [])
    ]


def workspace_progress(client: LanguageClient) -> list[list[object]]:
    return [
        reports
        for token, reports in client.progress_reports.items()
        if str(token).startswith("mtgr-workspace-")
    ]


def ended(client: LanguageClient) -> bool:
    runs = workspace_progress(client)
    return bool(runs) and all(r and r[-1].kind == "end" for r in runs)


ERROR = types.DiagnosticSeverity.Error


# ---- push ------------------------------------------------------------------------------


REGISTERED: dict[int, list[types.Registration]] = {}  # by id(client)


@pytest_lsp.fixture(config=SERVER)
async def pusher(lsp_client: LanguageClient):
    registered = REGISTERED.setdefault(id(lsp_client), [])

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as VS Code answers it
        registered.extend(params.registrations)

    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_push_checks_every_record_with_progress(
    pusher: LanguageClient, tmp_path: Path
) -> None:
    client = pusher
    files = workspace(tmp_path)
    registered = REGISTERED[id(client)]
    await start(client, "visual-studio-code", [tmp_path])
    await until(lambda: ended(client))
    # records changed on disk are reported to it (VS Code's client can watch for servers)
    await until(lambda: bool(registered))
    [watch] = registered
    assert watch.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    options = get_converter().structure(
        watch.register_options, types.DidChangeWatchedFilesRegistrationOptions
    )
    assert {w.glob_pattern for w in options.watchers} >= {"**/*.mtgr", "**/*.md"}
    assert found(client, files["wrong"]) == [("K301", 8, ERROR)]
    assert found(client, files["page"]) == [("K301", 13, ERROR)]
    published = set(client.diagnostics)
    for name in ("clean", "prose", "excluded", "tools"):
        assert files[name].as_uri() not in published, name
    [reports] = workspace_progress(client)
    begin = reports[0]
    assert begin.kind == "begin" and begin.cancellable is True
    # one report a file taken: the records, and the pages (prose.md is read, then left)
    assert [r.kind for r in reports[1:]] == ["report"] * 4 + ["end"]

    # open: the document's text counts; closed: the disk's again
    uri = files["wrong"].as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=CLEAN)
        )
    )
    await until(lambda: found(client, files["wrong"]) == [])
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await until(lambda: found(client, files["wrong"]) == [("K301", 8, ERROR)])

    # changed on disk, as the client's watcher tells it
    files["clean"].write_text(WRONG, encoding="utf-8")
    files["page"].unlink()
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=files["clean"].as_uri(), type=types.FileChangeType.Changed),
                types.FileEvent(uri=files["page"].as_uri(), type=types.FileChangeType.Deleted),
            ]
        )
    )
    await until(lambda: found(client, files["clean"]) == [("K301", 8, ERROR)])
    await until(lambda: found(client, files["page"]) == [])

    # a settings file changes: everything again, with its severities
    _write(tmp_path / "mtgr.toml", 'exclude = ["drafts/"]\n\n[severity]\nK301 = "warning"\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(tmp_path / "mtgr.toml").as_uri(), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    warning = types.DiagnosticSeverity.Warning
    await until(lambda: found(client, files["wrong"]) == [("K301", 8, warning)])
    await until(lambda: found(client, files["clean"]) == [("K301", 8, warning)])


@pytest.mark.asyncio
async def test_the_user_can_cancel_the_check(pusher: LanguageClient, tmp_path: Path) -> None:
    client = pusher
    body = "".join(f'"Alice" draw #{n} "Shock"\n' for n in range(3, 400))
    paths = [_write(tmp_path / f"game{n:03}.mtgr", WRONG + body) for n in range(120)]

    await start(client, "visual-studio-code", [tmp_path])
    await until(lambda: any(workspace_progress(client)))  # begun: cancellable from now
    [token] = [t for t in client.progress_reports if str(t).startswith("mtgr-workspace-")]
    client.protocol.notify(
        types.WINDOW_WORK_DONE_PROGRESS_CANCEL, types.WorkDoneProgressCancelParams(token=token)
    )
    await until(lambda: ended(client))
    checked = [p for p in paths if p.as_uri() in client.diagnostics]
    assert len(checked) < len(paths)


# ---- pull ------------------------------------------------------------------------------


@pytest_lsp.fixture(config=SERVER)
async def puller(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def pull(
    client: LanguageClient, previous: dict[str, str] | None = None
) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(
            previous_result_ids=[
                types.PreviousResultId(uri=uri, value=value)
                for uri, value in (previous or {}).items()
            ]
        )
    )
    return {item.uri: item for item in report.items}


def codes(item: types.WorkspaceDocumentDiagnosticReport) -> list[tuple[str, int]]:
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
    return [(str(d.code), d.range.start.line) for d in item.items]


@pytest.mark.asyncio
async def test_workspace_diagnostic_for_pull_clients(
    puller: LanguageClient, tmp_path: Path
) -> None:
    client = puller
    files = workspace(tmp_path)
    await start(client, "neovim", [tmp_path], trace=types.TraceValue.Messages)
    first = await pull(client)
    assert set(first) == {files[name].as_uri() for name in ("wrong", "clean", "page")}
    assert codes(first[files["wrong"].as_uri()]) == [("K301", 8)]
    assert codes(first[files["page"].as_uri()]) == [("K301", 13)]
    assert codes(first[files["clean"].as_uri()]) == []
    assert client.diagnostics == {}  # nothing pushed to a pull client
    previous = {uri: item.result_id for uri, item in first.items() if item.result_id}
    again = await pull(client, previous)
    # the settings file's warning is logged once, not at every pull
    settings_file = f"{tmp_path / 'mtgr.toml'}:2:"
    assert sum(settings_file in m.message for m in client.log_messages) == 1
    assert all(
        isinstance(item, types.WorkspaceUnchangedDocumentDiagnosticReport)
        for item in again.values()
    )
    os.utime(files["wrong"], ns=(1, 1))  # touched, not changed: read again, still the same
    files["clean"].write_text(WRONG, encoding="utf-8")
    third = await pull(client, previous)
    assert codes(third[files["clean"].as_uri()]) == [("K301", 8)]
    assert isinstance(
        third[files["wrong"].as_uri()], types.WorkspaceUnchangedDocumentDiagnosticReport
    )
    # an open document: its text, with its version
    uri = files["wrong"].as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=7, text=CLEAN)
        )
    )
    opened = await pull(client, previous)
    assert codes(opened[uri]) == [] and opened[uri].version == 7


# ---- settings per folder ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_each_folder_has_its_own_settings(pusher: LanguageClient, tmp_path: Path) -> None:
    client = pusher
    first, second = tmp_path / "first", tmp_path / "second"
    in_first = _write(first / "a.mtgr", WRONG)
    in_second = _write(second / "b.mtgr", WRONG)
    client.set_configuration(
        {"severity": {"K301": "hint"}}, section="mtgr", scope_uri=first.as_uri()
    )
    await start(client, "visual-studio-code", [first, second])
    hint = types.DiagnosticSeverity.Hint
    # closed files, from the workspace check
    await until(lambda: found(client, in_first) == [("K301", 8, hint)])
    await until(lambda: found(client, in_second) == [("K301", 8, ERROR)])
    # open ones
    opened = _write(first / "deeper" / "c.mtgr", WRONG)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=opened.as_uri(), language_id="mtgr", version=1, text=WRONG
            )
        )
    )
    await until(lambda: found(client, opened) == [("K301", 8, hint)])
    # the folder's settings change: asked again when the client says so
    client.set_configuration(
        {"severity": {"K301": "warning"}}, section="mtgr", scope_uri=second.as_uri()
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    warning = types.DiagnosticSeverity.Warning
    await until(lambda: found(client, in_second) == [("K301", 8, warning)])
    assert found(client, opened) == [("K301", 8, hint)]
    # the first folder leaves the workspace: its open document takes the unscoped settings,
    # its closed files are no longer checked
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[], removed=[types.WorkspaceFolder(uri=first.as_uri(), name=first.name)]
            )
        )
    )
    await until(lambda: found(client, opened) == [("K301", 8, ERROR)])
    await until(lambda: found(client, in_first) == [])


HOME = Path(tempfile.mkdtemp(prefix="mtgr-home-"))


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=SERVER.server_command, server_env={**os.environ, "HOME": str(HOME)}
    )
)
async def homebound(lsp_client: LanguageClient):
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_home_folder_is_not_scanned(homebound: LanguageClient, tmp_path: Path) -> None:
    """A client without a project root may send the home folder: not a set of records."""
    client = homebound
    at_home = _write(HOME / "notes" / "wrong.mtgr", WRONG)
    project = _write(tmp_path / "project" / "wrong.mtgr", WRONG)
    await start(client, "visual-studio-code", [HOME, tmp_path / "project"])
    await until(lambda: ended(client))
    assert found(client, project) == [("K301", 8, ERROR)]
    assert at_home.as_uri() not in client.diagnostics
