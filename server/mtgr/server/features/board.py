"""`mtgr/board`: the board after a line, for an editor's board view (docs/server.md).

Answered from the document's own walk (the state after the line comes from its
checkpoints, as hover's does), never by checking the text again. The facts the picture
adds (targets, lands, creatures) are scanned once a walk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from pygls.exceptions import JsonRpcInvalidParams

from mtgr.render.board import board_json
from mtgr.render.facts import scan
from mtgr.render.html import CSS, board_body
from mtgr.render.record import Record
from mtgr.render.text import render_text

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument, Settings

BOARD = "mtgr/board"
FORMATS = ("json", "html", "text")

_records: WeakKeyDictionary[OpenDocument, Record] = WeakKeyDictionary()


def record_of(document: OpenDocument, settings: Settings) -> Record:
    """The document's walk as a Record, made again only when the walk or the placed
    diagnostics changed."""
    placed = document.diagnostics(settings)
    record = _records.get(document)
    if record is None or record.walk is not document.walk or record.diagnostics is not placed:
        lines = document.document.lines
        record = Record(lines, document.document.texts, document.walk, placed, scan(lines))
        _records[document] = record
    return record


def plain(value: Any) -> Any:
    """pygls hands a custom request's params over as nested named tuples: back to JSON data."""
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def _params(params: Any) -> tuple[str, int, tuple[str, ...]]:
    params = plain(params)
    if not isinstance(params, Mapping):
        raise JsonRpcInvalidParams("mtgr/board expects {textDocument: {uri}, line}")
    document = params.get("textDocument")
    uri = document.get("uri") if isinstance(document, Mapping) else None
    line = params.get("line")
    formats = params.get("formats", list(FORMATS))
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams("mtgr/board: textDocument.uri must be a string")
    if not isinstance(line, int) or isinstance(line, bool) or line < 0:
        raise JsonRpcInvalidParams("mtgr/board: line must be a zero-based line number")
    if not isinstance(formats, list) or not formats or any(f not in FORMATS for f in formats):
        raise JsonRpcInvalidParams(f"mtgr/board: formats must be a list of {', '.join(FORMATS)}")
    return uri, line, tuple(formats)


def board(server: MtgrServer, params: Any) -> dict[str, Any] | None:
    uri, line, formats = _params(params)
    document = server.session.get(uri)
    if document is None or not document.checked or len(document.document) == 0:
        return None  # not open, or its first check is still running: ask again later
    record = record_of(document, document.settings)
    line = min(line, len(document.document) - 1)
    drawn = record.board(line + 1)
    result: dict[str, Any] = {
        "uri": uri,
        "version": document.version,
        "line": line,
        "lineCount": len(document.document),
    }
    if "json" in formats:
        result["board"] = board_json(drawn)
    if "html" in formats:
        result["html"] = board_body(drawn)
        result["css"] = CSS  # the stylesheet the HTML is drawn for
    if "text" in formats:
        result["text"] = render_text(drawn)
    return result


def register(server: MtgrServer) -> None:
    @server.feature(BOARD)
    def mtgr_board(params: Any) -> dict[str, Any] | None:
        return board(server, params)
