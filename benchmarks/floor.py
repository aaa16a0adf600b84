"""The floor: a pygls 2 server that does nothing but answer, driven by the same client as
mtgr in the same run. Every session figure is also given as a ratio to it, which is what
stays comparable on a shared, noisy machine.

It publishes empty diagnostics for each version (so the client's wait is the same), and
answers every request the benchmark sends with an empty result. With `--publish-bytes N`
each publish is instead about N bytes of diagnostics, made once and written as they are
(through an output pipe as wide as mtgr's): what LSP's push model costs a server that
must send that many, and a client that must read them, with no work behind them.
"""

from __future__ import annotations

import argparse
import json

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mtgr.server.transport import widen_pipe

server = LanguageServer("floor", "1")

# one diagnostic as mtgr writes them (range, message, severity, code, explanation link)
_DIAGNOSTIC = json.dumps(
    {
        "range": {"start": {"line": 3920, "character": 13}, "end": {"line": 3920, "character": 15}},
        "message": "#1 (Thrasios, Triton Hero) already exists and is on the battlefield "
        "under Alice's control; give the new object a number of its own (next free: #70)",
        "severity": 1,
        "code": "O202",
        "codeDescription": {"href": "https://example.org/docs/diagnostics.md#o202"},
        "source": "mtgr",
    },
    separators=(",", ":"),
).encode("ascii")
_payload = b""  # the diagnostics array every publish sends ("" before --publish-bytes)


def diagnostics_of_about(size: int) -> bytes:
    """A JSON array of copies of one diagnostic, within one diagnostic of `size` bytes."""
    copies = max(0, round((size - 2) / (len(_DIAGNOSTIC) + 1)))
    return b"[" + b",".join([_DIAGNOSTIC] * copies) + b"]"


def _publish(uri: str, version: int | None) -> None:
    if not _payload:
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[])
        )
        return
    params = json.dumps({"uri": uri, "version": version}, separators=(",", ":"))[:-1]
    head = b'{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":'
    head += params.encode("utf-8") + b',"diagnostics":'  # the params without their "}"
    writer = server.protocol.writer
    assert writer is not None
    writer.write(b"Content-Length: %d\r\n\r\n" % (len(head) + len(_payload) + 2) + head)
    writer.write(_payload)
    writer.write(b"}}")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(params: types.DidOpenTextDocumentParams) -> None:
    _publish(params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(params: types.DidChangeTextDocumentParams) -> None:
    _publish(params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    return []


@server.feature(
    types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
    types.SemanticTokensLegend(token_types=["keyword"], token_modifiers=[]),
)
def tokens(params: types.SemanticTokensParams) -> types.SemanticTokens:
    return types.SemanticTokens(data=[])


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
def tokens_delta(params: types.SemanticTokensDeltaParams) -> types.SemanticTokens:
    return types.SemanticTokens(data=[])


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
def tokens_range(params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
    return types.SemanticTokens(data=[])


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding(params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    return []


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
def hints(params: types.InlayHintParams) -> list[types.InlayHint]:
    return []


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    return []


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--publish-bytes", type=int, default=0, help="each publish's size")
    size = parser.parse_args().publish_bytes
    if size > 0:
        _payload = diagnostics_of_about(size)
        widen_pipe(1)
    server.start_io()
