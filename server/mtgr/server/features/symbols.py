"""Document symbols: the outline of a game (games, pregame, turns, phases, steps, keyframes).

The block structure computed here (`blocks`) is also what folding and selection ranges
use, so the outline, the folds and the expanding selection always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.rules.state import STEP_ORDER
from mtgr.rules.walk import Line
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

# How deep a block sits: opening one closes every open block at the same depth or deeper.
_RANK = {"game": 0, "pregame": 1, "turn": 1, "phase": 2, "step": 3, "keyframe": 4, "gap": 5}
_KINDS = {
    "game": types.SymbolKind.Package,
    "pregame": types.SymbolKind.Module,
    "turn": types.SymbolKind.Namespace,
    "phase": types.SymbolKind.Class,
    "step": types.SymbolKind.Method,
    "keyframe": types.SymbolKind.Struct,
    "gap": types.SymbolKind.Event,
}
_PHASE_OF_STEP = {step: phase for phase, step in STEP_ORDER if step}
_NOT_PREGAME = (t.Header, t.PlayerDeclaration, t.Marker, t.GameStart, t.Turn, t.PhaseOrStep)


@dataclass
class Block:
    """A stretch of lines that belongs together: from its opening line to its last content."""

    kind: str
    name: str
    start: int
    end: int  # the last line with content, inclusive
    selection: t.Span
    detail: str | None = None
    children: list[Block] = field(default_factory=list)
    phase: str | None = None  # a phase block's name, so that its steps can nest in it


def blocks(texts: Sequence[str], lines: Sequence[Line]) -> list[Block]:
    """The nested blocks of a document, top level first; pure, for the outline and folds."""
    roots: list[Block] = []
    stack: list[Block] = []
    turn_seen = False

    def close_to(rank: int) -> None:
        while stack and _RANK[stack[-1].kind] >= rank:
            stack.pop()

    def open_block(block: Block) -> None:
        (stack[-1].children if stack else roots).append(block)
        stack.append(block)

    for index, line in enumerate(lines):
        parsed = line.parsed
        statement = parsed.statement
        if statement is None:
            if parsed.error is not None:
                for block in stack:
                    block.end = index
            continue
        span = statement.span
        if isinstance(statement, t.GameStart):
            close_to(0)
            turn_seen = False
            open_block(Block("game", f"Game {statement.number.value}", index, index, span))
        elif isinstance(statement, t.Turn):
            close_to(1)
            turn_seen = True
            name = f"Turn {statement.number.value} — {statement.player.name}"
            open_block(Block("turn", name, index, index, span, _cause_detail(statement)))
        elif isinstance(statement, t.PhaseOrStep) and statement.verb.value == "phase":
            close_to(2)
            name = f"{_title(statement.name.value)} phase"
            block = Block("phase", name, index, index, span, _cause_detail(statement))
            block.phase = statement.name.value
            open_block(block)
        elif isinstance(statement, t.PhaseOrStep):
            phase = _PHASE_OF_STEP.get(statement.name.value)
            in_phase = any(b.kind == "phase" and b.phase == phase for b in stack)
            close_to(3 if in_phase else 2)
            name = f"{_title(statement.name.value)} step"
            open_block(Block("step", name, index, index, span, _cause_detail(statement)))
        elif isinstance(statement, t.Marker) and statement.verb.value == "keyframe":
            close_to(4)
            open_block(Block("keyframe", "Keyframe", index, index, span))
        elif isinstance(statement, t.Marker) and statement.verb.value == "end":
            for block in stack:
                block.end = index
            if any(b.kind == "keyframe" for b in stack):
                close_to(4)
            continue
        elif isinstance(statement, t.Marker):  # incomplete: a gap, shown where it stands
            close_to(5)
            (stack[-1].children if stack else roots).append(
                Block("gap", "Incomplete (gap)", index, index, span)
            )
        elif (
            not isinstance(statement, _NOT_PREGAME)
            and not turn_seen
            and not any(_RANK[b.kind] >= 1 for b in stack)
        ):
            open_block(Block("pregame", "Pregame", index, index, span))
        for block in stack:
            block.end = index
    return roots


def walk_blocks(roots: Sequence[Block]) -> list[Block]:
    """Every block, parents before their children."""
    found: list[Block] = []
    pending = list(reversed(roots))
    while pending:
        block = pending.pop()
        found.append(block)
        pending.extend(reversed(block.children))
    return found


def _title(name: str) -> str:
    return name.replace("-", " ").capitalize()


def _cause_detail(statement: t.Statement) -> str | None:
    """An extra turn, phase or step names the effect that added it (CR 500.7, 500.8)."""
    cause = statement.cause
    if cause is None:
        return None
    agent = cause.agent
    if isinstance(agent, t.ObjectRef):
        return f"extra, by #{agent.number}"
    if isinstance(agent, t.PlayerRef):
        return f"extra, by {agent.name}"
    return "extra, by sba"


def block_range(document: OpenDocument, block: Block) -> types.Range:
    end_text = document.document.texts[block.end]
    return types.Range(
        start=types.Position(line=block.start, character=0),
        end=types.Position(
            line=block.end, character=document.to_character(block.end, len(end_text))
        ),
    )


def document_symbols(document: OpenDocument) -> list[types.DocumentSymbol]:
    def convert(block: Block) -> types.DocumentSymbol:
        return types.DocumentSymbol(
            name=block.name,
            detail=block.detail,
            kind=_KINDS[block.kind],
            range=block_range(document, block),
            selection_range=document.range(block.start, block.selection),
            children=[convert(child) for child in block.children] or None,
        )

    return [convert(b) for b in blocks(document.document.texts, document.document.lines)]


def flat_symbols(document: OpenDocument) -> list[types.SymbolInformation]:
    """For clients without hierarchical symbols: each block, named with its container."""
    found: list[types.SymbolInformation] = []

    def add(block: Block, container: str | None) -> None:
        found.append(
            types.SymbolInformation(
                name=block.name,
                kind=_KINDS[block.kind],
                location=types.Location(uri=document.uri, range=block_range(document, block)),
                container_name=container,
            )
        )
        for child in block.children:
            add(child, block.name)

    for block in blocks(document.document.texts, document.document.lines):
        add(block, None)
    return found


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return None
        capabilities = server.client_capabilities.text_document
        symbol = capabilities.document_symbol if capabilities else None
        if symbol is None or not symbol.hierarchical_document_symbol_support:
            return flat_symbols(document)
        return document_symbols(document)
