"""Every language feature, registered in one place."""

from mtgr.server.features import (
    board,
    code_actions,
    completion,
    diagnostics,
    documents,
    formatting,
    hover,
    inlay_hints,
    log,
    navigation,
    semantic_tokens,
    symbols,
    workspace,
)

ALL_FEATURES = (
    log.register,
    documents.register,
    diagnostics.register,
    hover.register,
    completion.register,
    semantic_tokens.register,
    inlay_hints.register,
    navigation.register,
    symbols.register,
    formatting.register,
    code_actions.register,
    board.register,
    workspace.register,
)
