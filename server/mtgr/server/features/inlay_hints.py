"""Inlay hints: the card name after a bare `#N`, and the life totals on each `turn` line.

A record names a card once, when it becomes known; after that it is `#N` alone. The hint
puts the name back where the reader needs it, from the state at that line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.rules.state import GameState
from mtgr.server.features.hover import object_refs
from mtgr.server.features.semantic_tokens import states_after
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument


def named_here(statement: t.Statement) -> set[int]:
    """Objects whose card name the line itself writes out."""
    named: set[int] = set()
    if isinstance(statement, t.ObjectStatement) and (
        statement.name is not None or isinstance(statement, t.New | t.Identify)
    ):
        named.add(statement.subject.number)
    if isinstance(statement, t.Draw) and statement.card is not None:
        named.add(statement.drawn.number)
    return named


def life_totals(state: GameState) -> str:
    return " · ".join(f"{p.name} {p.life}" for p in state.players)


def line_hints(document: OpenDocument, line: int, state: GameState) -> list[types.InlayHint]:
    """Hints for one line, given the state after it."""
    statement = document.document.lines[line].parsed.statement
    if statement is None:
        return []
    hints: list[types.InlayHint] = []
    if isinstance(statement, t.Turn) and state.players:
        end = document.to_character(line, statement.span.end)
        hints.append(
            types.InlayHint(
                position=types.Position(line=line, character=end),
                label=life_totals(state),
                padding_left=True,
                tooltip="life totals at the start of the turn",
            )
        )
    skip = named_here(statement)
    for ref in sorted(object_refs(statement), key=lambda r: r.span.start):
        if ref.number in skip:
            continue
        obj = state.obj(ref.number)
        if obj is None or obj.name is None:
            continue
        position = types.Position(line=line, character=document.to_character(line, ref.span.end))
        hints.append(
            types.InlayHint(
                position=position,
                label=obj.name,
                kind=types.InlayHintKind.Type,
                padding_left=True,
            )
        )
    return hints


def hints(document: OpenDocument, first: int, last: int) -> list[types.InlayHint]:
    count = len(document.document)
    if count == 0:
        return []
    first = max(0, min(first, count - 1))
    last = max(first, min(last, count - 1))
    found: list[types.InlayHint] = []
    for offset, state in enumerate(states_after(document, first, last)):
        found.extend(line_hints(document, first + offset, state))
    return found


def refresh(server: MtgrServer) -> None:
    """Asks the client to fetch hints again (after the `inlayHints` setting changed), if it can."""
    workspace = server.client_capabilities.workspace
    support = workspace.inlay_hint if workspace else None
    if support is not None and support.refresh_support:
        server.workspace_inlay_hint_refresh(None)


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    def inlay_hint(params: types.InlayHintParams) -> list[types.InlayHint] | None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return None
        if not document.settings.inlay_hints:
            return []
        return hints(document, params.range.start.line, params.range.end.line)
