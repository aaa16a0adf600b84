"""Workspace diagnostics: every record in the workspace folders, not only the open ones.

The files are those `mtgr check FOLDER` takes (`config.scan`: `.mtgr` files and Markdown
pages with mtgr blocks, without tools' folders and what the nearest settings file's
`exclude` leaves out), each checked with its folder's settings and its own settings file.

- Pull clients ask with `workspace/diagnostic`; a file whose bytes and settings are as they
  were gets `unchanged` without being checked again.
- Push clients get a background check after `initialized`, started over when the settings,
  a settings file or the folders change, with work-done progress the user can cancel.
  Files changed on disk (workspace/didChangeWatchedFiles) and documents closed are checked
  again alone.

An open document is its own: its diagnostics come from its text, never from the disk. The
check never keeps a keystroke waiting: it waits while an open document has edits to check,
and goes one file (a long one: one step of lines) at a time, yielding to the event loop
between them.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from lsprotocol.converters import get_converter

from mtgr import config
from mtgr.cards.model import CardIndex
from mtgr.server.features.diagnostics import (
    PublishedDiagnostics,
    client_pulls,
    published,
    send_raw,
)
from mtgr.server.features.log import LOGGER
from mtgr.server.session import OpenDocument, Settings, assumed_perspective, fs_path
from mtgr.syntax.markdown import mtgr_blocks

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer

# the workspace check takes at most this many files
MAX_FILES = 10_000
# a file larger than this is left until it is opened
MAX_FILE_BYTES = 16 << 20
# a record is read and walked this many lines at a time: a keystroke that comes during a
# step waits for its end, a few milliseconds
LINES_PER_STEP = 25
# how long the check waits, at a time, while an open document has edits to check
YIELD_SECONDS = 0.005


@dataclass(frozen=True, slots=True)
class Report:
    """A file's diagnostics as LSP JSON (None: the file is no record), and what they were
    worked out from."""

    uri: str
    stamp: tuple[int, int]  # the file's modification time and size when read
    depends: str  # the settings and card index it was checked with
    key: str  # a hash of its bytes and `depends`
    result_id: str
    body: str | None
    count: int


@dataclass
class WorkspaceCheck:
    """The server's workspace check: what was reported, and the work still to do."""

    reports: dict[str, Report] = field(default_factory=dict)  # by URI
    shown: set[str] = field(default_factory=set)  # URIs pushed with diagnostics
    everything: bool = False  # a check of every file is asked for
    files: dict[Path, None] = field(default_factory=dict)  # single files to check, in order
    task: asyncio.Task[None] | None = None
    stopped: bool = False  # after `shutdown`: nothing more is checked or sent
    warned: set[str] = field(default_factory=set)  # settings file warnings logged


_RESULT_IDS = itertools.count(1)
_TOKENS = itertools.count(1)


def state(server: MtgrServer) -> WorkspaceCheck:
    return server.workspace_check


class _Pass(config.Projects):
    """The settings files of one pass over the workspace, and what the files of each folder
    are checked with, worked out once a folder (clients that pull pass every few seconds)."""

    def __init__(
        self, server: MtgrServer, on_load: Callable[[config.Config], None] | None = None
    ) -> None:
        super().__init__(on_load)
        self.server = server
        self._contexts: dict[Path, tuple[Settings, config.Config, CardIndex | None, str]] = {}

    def context(self, folder: Path) -> tuple[Settings, config.Config, CardIndex | None, str]:
        """The client's settings, the settings file, the card index, and all that as a
        string to compare (what a report depends on)."""
        known = self._contexts.get(folder)
        if known is None:
            session = self.server.session
            settings = session.settings_for(folder.as_uri())
            project = self.for_folder(folder)
            cards = session.cards_for(settings, project)
            severities = sorted({**project.severity, **settings.severity}.items())
            perspective = assumed_perspective(settings, project)
            depends = repr((severities, getattr(cards, "source", None), perspective))
            known = self._contexts[folder] = (settings, project, cards, depends)
        return known


# ---- which files ---------------------------------------------------------------------


def files(server: MtgrServer, projects: config.Projects) -> Iterator[Path]:
    """Every record in the workspace folders, each once (folders may nest), at most
    MAX_FILES; none under a home folder or a file system's root opened as a workspace
    folder (a client with no project root sends those: not a collection of records)."""
    seen: set[Path] = set()
    for folder in sorted(server.session.folders, key=lambda f: len(f.parts)):
        if _too_wide(folder):
            LOGGER.info("%s: a home or root folder, not checked as a workspace", folder)
            continue
        for path in config.scan(folder, projects.excludes, markdown=True, unreadable=_unreadable):
            if path in seen:
                continue
            if len(seen) == MAX_FILES:
                LOGGER.warning("over %d records in the workspace: the rest not checked", MAX_FILES)
                return
            seen.add(path)
            yield path


def _too_wide(folder: Path) -> bool:
    try:
        home = Path.home()
    except RuntimeError:  # no home folder to compare with
        home = None
    return folder == home or folder == Path(folder.anchor)


def _unreadable(error: OSError) -> None:
    LOGGER.warning("%s: cannot be read (%s)", error.filename, error.strerror)


def in_workspace(server: MtgrServer, path: Path, projects: config.Projects) -> bool:
    """Whether the workspace check takes this file."""
    if path.suffix.lower() not in (config.RECORD_SUFFIX, *config.MARKDOWN_SUFFIXES):
        return False
    folder = server.session.folder_of(path.as_uri())
    if folder is None:
        return False
    relative = path.relative_to(folder)
    parents = [folder.joinpath(*relative.parts[:n]) for n in range(1, len(relative.parts))]
    if any(p.name in config.SKIPPED_FOLDERS or projects.excludes(p) for p in parents):
        return False
    return not projects.excludes(path)


# ---- checking one file ---------------------------------------------------------------


async def check_file(server: MtgrServer, path: Path, projects: _Pass) -> Report | None:
    """The file's diagnostics as it is on disk; None when it is gone or cannot be read.
    The last report when nothing it depends on changed, known without reading the file
    when its modification time and size are as they were (clients that pull ask for the
    whole workspace every few seconds)."""
    uri = path.as_uri()
    settings, project, cards, depends = projects.context(path.parent)
    stamp = _stamp(path)
    if stamp is None:
        return None
    kept = state(server).reports.get(uri)
    if kept is not None and kept.stamp == stamp and kept.depends == depends:
        return kept
    data = _read(path)
    if data is None:
        return None
    key = hashlib.sha256(data + depends.encode()).hexdigest()
    if kept is not None and kept.key == key:
        return Report(uri, stamp, depends, key, kept.result_id, kept.body, kept.count)
    no_record = Report(uri, stamp, depends, key, "", None, 0)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        LOGGER.info("%s: not UTF-8, not checked (`mtgr check` says why)", path)
        return no_record
    if path.suffix.lower() in config.MARKDOWN_SUFFIXES and not mtgr_blocks(text).strip():
        return no_record
    document = await _read_in_steps(server, uri, text, cards, settings, project)
    for _ in document.walk_in_steps(0, LINES_PER_STEP):
        await _turn(server)
    diagnostics = PublishedDiagnostics()
    diagnostics.build(document, settings)
    body = diagnostics.array().decode("ascii")
    return Report(uri, stamp, depends, key, f"w{next(_RESULT_IDS)}", body, diagnostics.count)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


async def _read_in_steps(
    server: MtgrServer,
    uri: str,
    text: str,
    cards: CardIndex | None,
    settings: Settings,
    project: config.Config,
) -> OpenDocument:
    """The file as a document not yet walked, its lines parsed LINES_PER_STEP at a time
    (a Markdown page at once: its blocks are found in the whole page)."""
    markdown = uri.lower().endswith(config.MARKDOWN_SUFFIXES)
    document = OpenDocument(
        uri,
        text if markdown else "",
        None,
        server.session.encoding,
        False,
        cards,
        settings=settings,
        project=(None, project),
    )
    start = 0
    while not markdown and start < len(text):
        # up to the line break that ends the step's last line: the text then ends with an
        # empty line, where the next part goes
        end = start
        for _ in range(LINES_PER_STEP):
            end = text.find("\n", end) + 1
            if end == 0:
                end = len(text)
                break
        end_of_text = types.Position(line=len(document.document) - 1, character=0)
        document.apply(
            [
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=end_of_text, end=end_of_text), text=text[start:end]
                )
            ],
            None,
        )
        start = end
        await _turn(server)
    return document


def _read(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            LOGGER.info("%s: over %d bytes, checked when opened", path, MAX_FILE_BYTES)
            return None
        return path.read_bytes()
    except OSError as error:  # gone, or not readable: nothing to say about it
        LOGGER.info("%s: cannot be read (%s)", path, error.strerror or error)
        return None


async def _turn(server: MtgrServer) -> None:
    """Lets everything waiting run first: messages read, and open documents' checks. The
    garbage the check made is collected here when it is much (collector.py), not at the
    end of the next keystroke's check."""
    server.collector.worked()
    await asyncio.sleep(0)
    while any(document.pending for document in server.session.documents.values()):
        await asyncio.sleep(YIELD_SECONDS)


# ---- push: the background check ------------------------------------------------------


def _pushes(server: MtgrServer) -> bool:
    return not client_pulls(server) and bool(server.session.folders)


def check_soon(server: MtgrServer) -> None:
    """Checks every record in the workspace again (push clients), starting over if a check
    is under way."""
    if not _pushes(server):
        return
    state(server).everything = True
    _run_soon(server)


RECORD_GLOBS = ("**/*.mtgr", "**/*.md", "**/*.markdown")


async def watch_records(server: MtgrServer) -> None:
    """Asks the client to report records created, changed or deleted on disk (a checkout, a
    script), where it can register a file watcher for the server (dynamic registration):
    the VS Code extension itself watches only the settings files."""
    workspace = server.client_capabilities.workspace
    watching = workspace.did_change_watched_files if workspace else None
    if not _pushes(server) or watching is None or not watching.dynamic_registration:
        return
    watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in RECORD_GLOBS]
    try:
        await server.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="mtgr-records",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=watchers
                        ),
                    )
                ]
            )
        )
    except Exception as error:  # a client that refuses: records change when opened only
        LOGGER.info("no file watcher for records: %s", error)


def check_paths(server: MtgrServer, paths: Iterable[Path]) -> None:
    work = state(server)
    for path in paths:
        work.files[path] = None
    _run_soon(server)


def check_closed(server: MtgrServer, uri: str) -> bool:
    """A document just closed: its diagnostics are now the file's on disk, when the
    workspace check takes it. False: it does not (clear its diagnostics)."""
    path = fs_path(uri)
    if not _pushes(server) or path is None or not in_workspace(server, path, _Pass(server)):
        return False
    state(server).reports.pop(uri, None)  # what the disk says may differ from the last report
    check_paths(server, [path])
    return True


def files_changed(server: MtgrServer, changes: Iterable[types.FileEvent]) -> None:
    """Records created, changed or deleted on disk, as the client's file watcher saw them."""
    if not _pushes(server):
        return
    projects = _Pass(server)
    changed = []
    for change in changes:
        path = fs_path(change.uri)
        if path is None or server.session.get(change.uri) is not None:
            continue
        if change.type == types.FileChangeType.Deleted:
            _forget(server, change.uri)
        elif in_workspace(server, path, projects):
            changed.append(path)
    check_paths(server, changed)


def _run_soon(server: MtgrServer) -> None:
    work = state(server)
    if work.stopped:
        return
    if work.task is None or work.task.done():
        work.task = asyncio.ensure_future(_run(server))


async def _run(server: MtgrServer) -> None:
    work = state(server)
    while work.everything or work.files:
        if work.everything:
            work.everything = False
            await _check_everything(server)
            continue
        path = next(iter(work.files))
        del work.files[path]
        if server.session.get(path.as_uri()) is None:
            _push(server, path.as_uri(), await check_file(server, path, _Pass(server)))
    server.collector.worked()


async def _check_everything(server: MtgrServer) -> None:
    """One pass over every record, with progress; ends early when another pass is asked
    for or the user cancels it."""
    work = state(server)
    projects = _Pass(server, on_load=_log_warnings(server))
    await _turn(server)
    paths = list(files(server, projects))
    progress = await _Progress.start(server, len(paths))
    seen: set[str] = set()
    try:
        for done, path in enumerate(paths):
            if work.everything or (progress is not None and progress.cancelled):
                return
            if progress is not None:
                progress.report(done, len(paths))
            uri = path.as_uri()
            seen.add(uri)
            work.files.pop(path, None)
            if server.session.get(uri) is None:
                _push(server, uri, await check_file(server, path, projects))
            await _turn(server)
        for uri in work.shown - seen:  # deleted, or now excluded
            if server.session.get(uri) is None:
                _forget(server, uri)
    except asyncio.CancelledError:
        progress = None  # the server is going: the client is no longer listening
        raise
    finally:
        if progress is not None:
            progress.end()


def _push(server: MtgrServer, uri: str, report: Report | None) -> None:
    """Publishes a file's report, unless it was opened meanwhile or nothing changed."""
    work = state(server)
    if server.session.get(uri) is not None:
        return
    if report is None or report.body is None:
        _forget(server, uri)
        if report is not None:
            work.reports[uri] = report  # not a record: not read again while unchanged
        return
    before = work.reports.get(uri)
    work.reports[uri] = report
    if report.count == 0 and uri not in work.shown:
        return  # clean, and nothing shown to clear
    if before is not None and before.result_id == report.result_id and uri in work.shown:
        return
    if report.count:
        work.shown.add(uri)
    else:
        work.shown.discard(uri)
    _send(server, uri, report.body)


def _forget(server: MtgrServer, uri: str) -> None:
    work = state(server)
    work.reports.pop(uri, None)
    if uri in work.shown:
        work.shown.discard(uri)
        _send(server, uri, "[]")


def _send(server: MtgrServer, uri: str, body: str) -> None:
    send_raw(
        server,
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        f'{json.dumps(uri)},"diagnostics":{body}}}}}',
    )


def _log_warnings(server: MtgrServer) -> Callable[[config.Config], None]:
    """Logs a settings file's warnings the first time a pass reads them, not at every pass."""
    logged = state(server).warned

    def log(settings: config.Config) -> None:
        for warning in settings.warnings:
            if str(warning) not in logged:
                logged.add(str(warning))
                LOGGER.warning("mtgr: %s", warning)

    return log


class _Progress:
    """Work-done progress for the workspace check, cancellable, where the client shows it."""

    def __init__(self, server: MtgrServer, token: str) -> None:
        self.server = server
        self.token = token

    @classmethod
    async def start(cls, server: MtgrServer, total: int) -> _Progress | None:
        window = server.client_capabilities.window
        if not (window and window.work_done_progress) or total == 0:
            return None
        token = f"mtgr-workspace-{next(_TOKENS)}"
        try:
            await server.work_done_progress.create_async(token)
        except Exception:  # a client that refuses the token still gets its diagnostics
            return None
        server.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="Checking the workspace",
                cancellable=True,
                message=f"0 of {total:,} files",
                percentage=0,
            ),
        )
        return cls(server, token)

    @property
    def cancelled(self) -> bool:
        future = self.server.work_done_progress.tokens.get(self.token)
        return future is not None and future.cancelled()

    def report(self, done: int, total: int) -> None:
        self.server.work_done_progress.report(
            self.token,
            types.WorkDoneProgressReport(
                message=f"{done:,} of {total:,} files", percentage=done * 100 // total
            ),
        )

    def end(self) -> None:
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd())
        self.server.work_done_progress.tokens.pop(self.token, None)


# ---- pull: workspace/diagnostic ------------------------------------------------------


def stop(server: MtgrServer) -> None:
    """Ends the workspace check for good (`shutdown`)."""
    work = state(server)
    work.stopped = True
    if work.task is not None:
        work.task.cancel()


def register(server: MtgrServer) -> None:
    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        stop(server)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(
        params: types.WorkspaceDiagnosticParams,
    ) -> types.WorkspaceDiagnosticReport:
        previous = {p.uri: p.value for p in params.previous_result_ids}
        projects = _Pass(server, on_load=_log_warnings(server))
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        token = params.work_done_token
        paths = list(files(server, projects))
        if token is not None:
            server.work_done_progress.begin(
                token, types.WorkDoneProgressBegin(title="Checking the workspace", percentage=0)
            )
        try:
            for done, path in enumerate(paths):
                if token is not None:
                    server.work_done_progress.report(
                        token, types.WorkDoneProgressReport(percentage=done * 100 // len(paths))
                    )
                item = await _pulled(server, path, projects, previous)
                if item is not None:
                    items.append(item)
                await _turn(server)
        finally:
            if token is not None:
                server.work_done_progress.end(token, types.WorkDoneProgressEnd())
        return types.WorkspaceDiagnosticReport(items=items)


async def _pulled(
    server: MtgrServer, path: Path, projects: _Pass, previous: dict[str, str]
) -> types.WorkspaceDocumentDiagnosticReport | None:
    uri = path.as_uri()
    document = server.session.get(uri)
    if document is not None:  # open: its text, not the disk, with its version
        if not document.checked:
            return None  # its first check is under way; textDocument/diagnostic answers
        kept = published(document)
        kept.build(document, document.settings)
        body = kept.array().decode("ascii")
        version, result_id = document.version, kept.result_id
    else:
        report = await check_file(server, path, projects)
        if report is None:
            state(server).reports.pop(uri, None)
            return None
        state(server).reports[uri] = report
        if report.body is None:
            return None
        version, result_id, body = None, report.result_id, report.body
    if previous.get(uri) == result_id:
        return types.WorkspaceUnchangedDocumentDiagnosticReport(
            uri=uri, version=version, result_id=result_id
        )
    diagnostics = get_converter().structure(json.loads(body), list[types.Diagnostic])
    return types.WorkspaceFullDocumentDiagnosticReport(
        uri=uri, version=version, items=diagnostics, result_id=result_id
    )
