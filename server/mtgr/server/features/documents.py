"""Document sync and settings: open, change, close; the client's `mtgr` settings."""

from __future__ import annotations

import asyncio
import time
import traceback
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr import __version__
from mtgr.config import CONFIG_FILES
from mtgr.server.features import inlay_hints, prepare, workspace
from mtgr.server.features.diagnostics import publish, publish_all, published
from mtgr.server.features.log import LOGGER
from mtgr.server.lifetime import watch_client
from mtgr.server.session import OpenDocument, Settings, fs_path

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer


def register(server: MtgrServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.session.encoding = (
            server.workspace.position_encoding or types.PositionEncodingKind.Utf16
        )
        server.protocol.trace = params.trace or types.TraceValue.Off
        server.session.set_folders(list(workspace_folders(server)))
        options = params.initialization_options
        mtgr = options.get("mtgr", options) if isinstance(options, dict) else None
        use_settings(server, Settings.from_client(mtgr))
        LOGGER.info(
            "mtgr %s; position encoding %s; settings %s; workspace folders %s",
            __version__,
            getattr(server.session.encoding, "value", server.session.encoding),
            server.session.settings,
            ", ".join(map(str, server.session.folders)) or "none",
        )

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        server.client_watch = watch_client(server.process_id)
        await refresh_settings(server)
        warn_about_settings(server)
        workspace.check_soon(server)
        await workspace.watch_records(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        server.session.forget_failed_cards()
        if isinstance(settings, dict) and "mtgr" in settings:
            use_settings(server, Settings.from_client(settings["mtgr"]))
            await refresh_settings(server, folders_only=True)
        else:
            await refresh_settings(server)
        LOGGER.info("settings changed: %s", server.session.settings)
        warn_about_settings(server)
        publish_all(server)
        inlay_hints.refresh(server)
        workspace.check_soon(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(params: types.DidChangeWorkspaceFoldersParams) -> None:
        server.session.set_folders(list(workspace_folders(server)))  # pygls keeps the list
        server.session.apply_settings(None)  # an open document may be in another folder now
        LOGGER.info("workspace folders: %s", ", ".join(map(str, server.session.folders)))
        await refresh_settings(server, folders_only=True)
        publish_all(server)
        workspace.check_soon(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def files_changed(params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith(SETTINGS_FILES) for c in params.changes):
            for document in server.session.documents.values():
                document.reload_config()
                server.session.refresh(document)
                log_config_warnings(server, document)
            show_problems(server)
            publish_all(server)
            workspace.check_soon(server)
        else:
            workspace.files_changed(server, params.changes)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        large = item.text.count("\n") >= LARGE_DOCUMENT_LINES
        document = server.session.open(item.uri, item.text, item.version, check=not large)
        log_config_warnings(server, document)
        show_problems(server)
        if large:
            check_soon(server, document)
        else:
            publish(server, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return
        version = params.text_document.version
        if document.version is not None and version is not None and version < document.version:
            return  # a stale change: never apply it over a newer one
        if document.reload_config(force=False):  # for clients that do not report file changes
            server.session.refresh(document)
            log_config_warnings(server, document)
            show_problems(server)
        if not document.settings.incremental:
            document.change(list(params.content_changes), version, incremental=False)
            publish(server, document)
            return
        document.apply(list(params.content_changes), version)
        check_soon(server, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        server.session.close(uri)
        server.collector.released()
        if not workspace.check_closed(server, uri):  # what the file on disk says, if checked
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )


# A document this long is first checked in steps, with progress, answering requests
# between the steps instead of keeping the client waiting for the whole check. A step is
# short (a few milliseconds to tens on a slow machine): a key typed meanwhile waits for
# the step under way to end before the check starts over from it.
LARGE_DOCUMENT_LINES = 5000
LINES_PER_STEP = 500
# After an edit to a large document, the lines walked before the diagnostics are first
# published (without a version): what the user sees, a screen below the edit even when it
# is on the screen's first line. A re-check that must run further goes on in steps, and
# publishes again, with the version, at its end.
LINES_SEEN = 100
# ...and not while the client may still be reading the last publish (a typist's keys
# come faster than a client reads thousands of diagnostics): it would only queue behind.

_CHECKING: dict[OpenDocument, asyncio.Task[None]] = {}


def check_soon(server: MtgrServer, document: OpenDocument) -> None:
    """Checks the document's pending edits once the messages already read are handled:
    changes that come while it works are applied to the text, and the check starts over
    from them (the newest version only is checked and published)."""
    task = _CHECKING.get(document)
    if task is None or task.done():
        task = asyncio.ensure_future(_check(server, document))
        _CHECKING[document] = task
        task.add_done_callback(lambda _task: _CHECKING.pop(document, None))


async def _check(server: MtgrServer, document: OpenDocument) -> None:
    progress = None if document.checked else await _Progress.start(server, document)
    try:
        await asyncio.sleep(0)  # the changes already read come first
        while document.pending and _is_open(server, document):
            first_check = not document.checked
            large = len(document.document) >= LARGE_DOCUMENT_LINES
            steps = document.walk_in_steps(
                LINES_SEEN if large and not first_check else 0,
                LINES_PER_STEP if large else 0,
            )
            shown = False
            show_after = published(document).read_by()
            for done, partial in steps:
                if progress is not None:
                    progress.report(done, len(document.document))
                if not first_check and not shown and time.perf_counter() >= show_after:
                    publish(server, document, partial)  # what the user sees, first
                    shown = True
                await asyncio.sleep(0)
                if not _is_open(server, document):
                    return  # closed: nothing of it may reach the client (18.3)
            # ran to the end, or another edit came: then its steps start over
            if not document.pending:
                # a change read while this one was checked comes first: publishing the
                # version it replaces costs as much as publishing it (a fast typist)
                await asyncio.sleep(0)
        if _is_open(server, document) and not document.pending:
            publish(server, document)
            if len(document.document) >= LARGE_DOCUMENT_LINES:
                prepare.prepare_soon(server, document)
        server.collector.worked()
    except Exception as error:  # a bug in mtgr: said, and the server goes on answering
        report_crash(server, document, error)
    finally:
        if progress is not None:
            progress.end()


def report_crash(server: MtgrServer, document: OpenDocument, error: Exception) -> None:
    """A check that raised outside the walk's lines (which report their own failures, as
    `Walk.failures`): the diagnostics shown are those of an earlier version, and the user
    is told so once a document, with the traceback in the log for a bug report. The
    next change checks again."""
    trace = "".join(traceback.format_exception(error)).rstrip()
    server.window_log_message(
        types.LogMessageParams(
            type=types.MessageType.Error,
            message=f"mtgr: internal error checking {document.uri}:\n{trace}",
        )
    )
    if document not in _CRASHED:
        _CRASHED.add(document)
        server.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Error,
                message=(
                    f"mtgr: an internal error stopped the check of {document.uri}; its"
                    " diagnostics may be out of date. Please report it with the log's lines."
                ),
            )
        )


_CRASHED: weakref.WeakSet[OpenDocument] = weakref.WeakSet()


def _is_open(server: MtgrServer, document: OpenDocument) -> bool:
    return server.session.get(document.uri) is document


class _Progress:
    """Work-done progress for a large document's first check, where the client shows it."""

    def __init__(self, server: MtgrServer, token: str) -> None:
        self.server = server
        self.token = token

    @classmethod
    async def start(cls, server: MtgrServer, document: OpenDocument) -> _Progress | None:
        if not _client_shows_progress(server):
            return None
        token = f"mtgr-check-{id(document)}"
        try:
            await server.work_done_progress.create_async(token)
        except Exception:  # a client that refuses the token still gets its diagnostics
            return None
        name = document.uri.rsplit("/", 1)[-1]
        server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=f"Checking {name}", percentage=0)
        )
        return cls(server, token)

    def report(self, done: int, total: int) -> None:
        self.server.work_done_progress.report(
            self.token,
            types.WorkDoneProgressReport(
                message=f"{done:,} of {max(total, 1):,} lines",
                percentage=done * 100 // max(total, 1),
            ),
        )

    def end(self) -> None:
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd())


def _client_shows_progress(server: MtgrServer) -> bool:
    window = server.client_capabilities.window
    return bool(window and window.work_done_progress)


def workspace_folders(server: MtgrServer) -> dict[Path, str]:
    """The workspace folders (the root, for clients that name no folders), by path, with the
    URI a configuration request names each by."""
    uris = [folder.uri for folder in server.workspace.folders.values()]
    if not uris and server.workspace.root_uri:
        uris = [server.workspace.root_uri]
    folders = {}
    for uri in uris:
        path = fs_path(uri)
        if path is not None:
            folders[path] = uri
    return folders


async def refresh_settings(server: MtgrServer, folders_only: bool = False) -> None:
    """Asks the client for the `mtgr` settings (workspace/configuration): the global ones
    (unless they were just pushed) and each workspace folder's (scopeUri), where the
    client can answer that request."""
    capabilities = server.client_capabilities.workspace
    if capabilities is None or not capabilities.configuration:
        return
    folders = workspace_folders(server)
    items = [] if folders_only else [types.ConfigurationItem(section="mtgr")]
    items += [types.ConfigurationItem(scope_uri=uri, section="mtgr") for uri in folders.values()]
    if not items:
        return
    pushes = server.session.pushes
    try:
        answer = await server.workspace_configuration_async(types.ConfigurationParams(items=items))
    except Exception:  # a client that fails to answer keeps the settings we have
        return
    if not isinstance(answer, Sequence) or len(answer) != len(items):
        return
    values = list(answer)
    settings = None if folders_only else Settings.from_client(values.pop(0))
    if server.session.pushes != pushes:
        settings = None  # the client pushed settings while we asked: those are newer
    by_folder = {
        folder: Settings.from_client(value) if isinstance(value, Mapping) else None
        for folder, value in zip(folders, values, strict=True)
    }
    server.session.apply_settings(settings, by_folder)
    show_problems(server)


def use_settings(server: MtgrServer, settings: Settings) -> None:
    """Settings the client sent (initializationOptions, didChangeConfiguration)."""
    server.session.pushes += 1
    server.session.apply_settings(settings)
    show_problems(server)


def show_problems(server: MtgrServer) -> None:
    """Card files that could not be used, once each time they are tried."""
    for problem in server.session.take_problems():
        server.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
        )


# ---- the project settings file (mtgr.toml, [tool.mtgr] in pyproject.toml) --------------
# It is read when a document opens, again for every open document when the client says a
# settings file changed (the VS Code extension watches them: `synchronize.fileEvents`),
# and for an edited document when its settings file was written since (a few `stat`s).
# The server does not register that watch itself (client/registerCapability): clients
# that cannot answer that request would fail it. It registers one for records
# (features/workspace.py) only with clients that declare dynamic registration of watchers.

SETTINGS_FILES = tuple(f"/{name}" for name in CONFIG_FILES)


def log_config_warnings(server: MtgrServer, document: OpenDocument) -> None:
    for warning in document.config.warnings:
        server.window_log_message(
            types.LogMessageParams(type=types.MessageType.Warning, message=f"mtgr: {warning}")
        )


def warn_about_settings(server: MtgrServer) -> None:
    """Settings that mean nothing (an unknown code) are shown once, not silently dropped;
    shown again only when they are others."""
    session = server.session
    every = [session.settings, *(s for s in session.folders.values() if s is not None)]
    warnings = list(dict.fromkeys(w for settings in every for w in settings.warnings))
    shown, session.warnings_shown = session.warnings_shown, warnings
    if warnings and warnings != shown:
        server.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message="; ".join(warnings))
        )
