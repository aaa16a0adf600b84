"""The server's log for the user: records of the `mtgr.log` logger reach the client as
window/logMessage, as many as its trace value asks for (initialize's `trace`, then
`$/setTrace`; VS Code sends `mtgr.trace.server` as both): `off` none, `messages` information
and above, `verbose` every record. A logger of its own: the rest of `mtgr` (the transport's
warnings) keeps Python's default of warnings to stderr, which a handler on `mtgr` would end.

`mtgr lsp --log-file PATH` writes, besides, every record of `mtgr` (and pygls's information
and warnings) to a file, whatever the trace value: for a bug report, or a client that shows
no log."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer

LOGGER = logging.getLogger("mtgr.log")

THRESHOLDS: dict[types.TraceValue, int | None] = {
    types.TraceValue.Off: None,
    types.TraceValue.Messages: logging.INFO,
    types.TraceValue.Verbose: logging.DEBUG,
}


def message_type(level: int) -> types.MessageType:
    if level >= logging.ERROR:
        return types.MessageType.Error
    if level >= logging.WARNING:
        return types.MessageType.Warning
    if level >= logging.INFO:
        return types.MessageType.Info
    return types.MessageType.Log


class ClientLog(logging.Handler):
    """Sends each record the trace value lets through as window/logMessage."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.server: MtgrServer | None = None

    def emit(self, record: logging.LogRecord) -> None:
        server = self.server
        if server is None:
            return
        threshold = THRESHOLDS.get(server.protocol.trace)
        if threshold is None or record.levelno < threshold:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # another thread: the transport belongs to the event loop
            return
        try:
            server.window_log_message(
                types.LogMessageParams(
                    type=message_type(record.levelno), message=self.format(record)
                )
            )
        except Exception:  # a log line never breaks a request
            self.handleError(record)


_CLIENT_LOG = ClientLog()


def log_to_file(path: Path) -> None:
    """Appends the log to `path`; warnings still go to stderr as they did without it."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    errors = logging.StreamHandler()
    errors.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    root.addHandler(errors)
    root.setLevel(logging.INFO)
    logging.getLogger("mtgr").setLevel(logging.DEBUG)


def register(server: MtgrServer) -> None:
    _CLIENT_LOG.server = server  # one server a process: the latest one created
    if _CLIENT_LOG not in LOGGER.handlers:
        LOGGER.addHandler(_CLIENT_LOG)
    LOGGER.setLevel(logging.DEBUG)
