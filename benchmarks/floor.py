"""The floor: a pygls 2 server that does nothing but answer, driven by the same client as
mtgr in the same run. Every session figure is also given as a ratio to it, which is what
stays comparable on a shared, noisy machine.

It publishes empty diagnostics for each version (so the client's wait is the same), and
answers every request the benchmark sends with an empty result.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

server = LanguageServer("floor", "1")


def _publish(uri: str, version: int | None) -> None:
    server.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[])
    )


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
    server.start_io()
