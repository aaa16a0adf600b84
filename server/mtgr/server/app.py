"""The language server: pygls wiring. Each feature lives in its own module under `features/`
and is registered here, in one place."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import cast

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from mtgr import __version__
from mtgr.server.collector import Collector
from mtgr.server.features.diagnostics import send_pieces
from mtgr.server.features.log import log_to_file
from mtgr.server.features.raw import RawResult
from mtgr.server.features.workspace import WorkspaceCheck
from mtgr.server.session import Session
from mtgr.server.transport import serve_stdio, serve_tcp

NAME = "mtgr"


class MtgrProtocol(LanguageServerProtocol):
    """Keeps documents in our own line store instead of pygls's TextDocument."""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):  # type: ignore[override]
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):  # type: ignore[override]
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):  # type: ignore[override]
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    def _send_response(
        self, msg_id: int | str, result: object = None, error: types.ResponseError | None = None
    ) -> None:
        """A feature's reply that is JSON already (features/raw.py) is written as it is."""
        if error is None and isinstance(result, RawResult):
            self._result_types.pop(msg_id, None)
            head = f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":'.encode("ascii")
            send_pieces(cast("MtgrServer", self._server), [head, result.encode("ascii"), b"}"])
            return
        super()._send_response(msg_id, result, error)


class MtgrServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__, protocol_cls=MtgrProtocol)
        self.session = Session()
        self.client_watch: threading.Thread | None = None  # see lifetime.py
        self.collector = Collector()
        self.workspace_check = WorkspaceCheck()  # features/workspace.py


def create_server() -> MtgrServer:
    from mtgr.rules.registry import all_rules
    from mtgr.server.features import ALL_FEATURES

    all_rules()  # import the rules while starting, not while the first document waits
    server = MtgrServer()
    for register in ALL_FEATURES:
        register(server)
    return server


def run(tcp: tuple[str, int] | None = None, log_file: Path | None = None) -> int:
    """Serves until `exit` or until the client goes; the exit code is 0 only after a
    `shutdown` request, as LSP asks. Reading is ours (transport.py), not pygls's."""
    if log_file is not None:
        log_to_file(log_file)
    server = create_server()
    server.collector.start()
    try:
        if tcp is not None:
            serve_tcp(server, *tcp)
        else:
            serve_stdio(server)
    except SystemExit as stop:  # `exit` (pygls ends it so)
        return stop.code if isinstance(stop.code, int) else 1
    return 0 if server.protocol._shutdown else 1
