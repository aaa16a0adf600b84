"""The language server: pygls wiring. Each feature lives in its own module under `features/`
and is registered here, in one place."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from mtgr.server.collector import Collector
from mtgr.server.session import Session

NAME = "mtgr"
VERSION = "0.4.0"


class MtgrProtocol(LanguageServerProtocol):
    """Keeps documents in our own line store instead of pygls's TextDocument."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        """A request whose params do not fit its method gets an error response (pygls only
        logs it, and the client would wait for an answer forever)."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            msg_id = data.get("id")
            if "method" in data and isinstance(msg_id, int | str) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=error.to_response_error())
            raise

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


class MtgrServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, VERSION, protocol_cls=MtgrProtocol)
        self.session = Session()
        self.client_watch: asyncio.Task[None] | None = None  # see lifetime.py
        self.collector = Collector()

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message the read loop could not take: JSON-RPC answers it with id null
        (-32700 for text that is not JSON, -32600 for JSON that is not a message)."""
        if source is JsonRpcException and not isinstance(error, JsonRpcException):
            code, message = (-32600, "Invalid Request")
            if isinstance(error, ValueError):
                code, message = (-32700, "Parse error")
            self.protocol._send_data(
                {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
            )
        super().report_server_error(error, source)


def create_server() -> MtgrServer:
    from mtgr.rules.registry import all_rules
    from mtgr.server.features import ALL_FEATURES

    all_rules()  # import the rules while starting, not while the first document waits
    server = MtgrServer()
    for register in ALL_FEATURES:
        register(server)
    return server


def run(tcp: tuple[str, int] | None = None) -> int:
    """Serves until `exit` or until the client goes; the exit code is 0 only after a
    `shutdown` request, as LSP asks (pygls swallows the SystemExit that carries it)."""
    server = create_server()
    server.collector.start()
    if tcp is not None:
        server.start_tcp(*tcp)
    else:
        server.start_io()
    return 0 if server.protocol._shutdown else 1
