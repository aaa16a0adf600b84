"""Shared client set-up for the end-to-end tests."""

from __future__ import annotations

import contextlib

from lsprotocol import types
from pygls.exceptions import FeatureAlreadyRegisteredError
from pytest_lsp import LanguageClient

REFRESHES = (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_SEMANTIC_TOKENS_REFRESH)


def answer_refreshes(client: LanguageClient) -> list[str]:
    """Answers the server's refresh requests as an editor does; returns what it asked for.

    pytest-lsp answers some refreshes itself (diagnostics); those are left to it."""
    asked: list[str] = []
    for method in REFRESHES:

        def refresh(params: None, method: str = method) -> None:
            asked.append(method)

        with contextlib.suppress(FeatureAlreadyRegisteredError):
            client.feature(method)(refresh)
    return asked
