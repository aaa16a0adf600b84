"""Document symbols: the outline of a game (games, pregame, turns, phases, steps, keyframes).

The block structure computed here (`document_blocks`) is also what folding and selection
ranges use, so the outline, the folds and the expanding selection always agree. It is
kept between requests and built again after an edit from each line's role, which is
kept per line (features/per_line.py); the replies are written as JSON (features/raw.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from lsprotocol import types

from mtgr.rules.state import STEP_ORDER
from mtgr.server.features.per_line import PerLine
from mtgr.server.features.raw import RawResult, dumps, raw_list
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


_NO_SPAN = t.Span(0, 0)


@dataclass(frozen=True, slots=True)
class Role:
    """What one line does to the outline, from its parse alone (so it is kept per line):
    `kind` is a block kind, "end" (a keyframe's end), "pregame" (a statement that opens
    the pregame where none is open), "content" or "comment" (a line with only a comment)."""

    kind: str
    name: str = ""
    span: t.Span = _NO_SPAN
    detail: str | None = None
    phase: str | None = None  # a phase's name, or the phase a step belongs to


_CONTENT = Role("content")
COMMENT = Role("comment")


def line_role(parsed: t.ParsedLine) -> Role | None:
    """The line's role; None for a blank line."""
    statement = parsed.statement
    if statement is None:
        if parsed.error is not None:
            return _CONTENT
        return COMMENT if parsed.comment is not None else None
    span = statement.span
    if isinstance(statement, t.GameStart):
        return Role("game", f"Game {statement.number.value}", span)
    if isinstance(statement, t.Turn):
        name = f"Turn {statement.number.value} — {statement.player.name}"
        return Role("turn", name, span, _cause_detail(statement))
    if isinstance(statement, t.PhaseOrStep) and statement.verb.value == "phase":
        name = f"{_title(statement.name.value)} phase"
        return Role("phase", name, span, _cause_detail(statement), statement.name.value)
    if isinstance(statement, t.PhaseOrStep):
        name = f"{_title(statement.name.value)} step"
        phase = _PHASE_OF_STEP.get(statement.name.value)
        return Role("step", name, span, _cause_detail(statement), phase)
    if isinstance(statement, t.Marker) and statement.verb.value == "keyframe":
        return Role("keyframe", "Keyframe", span)
    if isinstance(statement, t.Marker) and statement.verb.value == "end":
        return Role("end")
    if isinstance(statement, t.Marker):  # incomplete: a gap, shown where it stands
        return Role("gap", "Incomplete (gap)", span)
    if not isinstance(statement, _NOT_PREGAME):
        return Role("pregame", "Pregame", span)
    return _CONTENT


def blocks_of_roles(roles: Sequence[Role | None]) -> list[Block]:
    """The nested blocks of a document, top level first, from each line's role; for the
    outline, the folds and selection ranges. A block's end is its last content line: set
    when it closes, so a line that opens nothing costs one comparison."""
    roots: list[Block] = []
    stack: list[Block] = []
    turn_seen = False
    last = 0  # the last line with content so far

    def close_to(rank: int) -> None:
        while stack and _RANK[stack[-1].kind] >= rank:
            stack.pop().end = last

    def open_block(block: Block) -> None:
        (stack[-1].children if stack else roots).append(block)
        stack.append(block)

    for index, role in enumerate(roles):
        if role is None or role is COMMENT:
            continue
        kind = role.kind
        if kind == "content" or (kind == "pregame" and turn_seen):
            last = index
            continue
        if kind == "game":
            close_to(0)
            turn_seen = False
            open_block(Block("game", role.name, index, index, role.span))
        elif kind == "turn":
            close_to(1)
            turn_seen = True
            open_block(Block("turn", role.name, index, index, role.span, role.detail))
        elif kind == "phase":
            close_to(2)
            block = Block("phase", role.name, index, index, role.span, role.detail)
            block.phase = role.phase
            open_block(block)
        elif kind == "step":
            in_phase = any(b.kind == "phase" and b.phase == role.phase for b in stack)
            close_to(3 if in_phase else 2)
            open_block(Block("step", role.name, index, index, role.span, role.detail))
        elif kind == "keyframe":
            close_to(4)
            open_block(Block("keyframe", role.name, index, index, role.span))
        elif kind == "end":
            last = index
            if any(b.kind == "keyframe" for b in stack):
                close_to(4)
            continue
        elif kind == "gap":
            close_to(5)
            (stack[-1].children if stack else roots).append(
                Block("gap", role.name, index, index, role.span)
            )
        elif not any(_RANK[b.kind] >= 1 for b in stack):  # the pregame's first statement
            open_block(Block("pregame", role.name, index, index, role.span))
        last = index
    close_to(0)
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


@dataclass
class _Outline:
    """An open document's outline, kept between requests: each line's role (derived again
    only for the lines edited since), the blocks, and the replies built from them."""

    roles: PerLine[Role | None] = field(default_factory=PerLine)
    blocks: list[Block] | None = None
    replies: dict[object, RawResult] = field(default_factory=dict)


# Gone with the document when it closes.
_OUTLINES: WeakKeyDictionary[OpenDocument, _Outline] = WeakKeyDictionary()


def _outline(document: OpenDocument) -> _Outline:
    outline = _OUTLINES.get(document)
    if outline is None:
        outline = _OUTLINES[document] = _Outline()
    lines = document.document.lines
    if outline.roles.update(lines, lambda index: line_role(lines[index].parsed)):
        outline.blocks = None
        outline.replies.clear()
    if outline.blocks is None:
        outline.blocks = blocks_of_roles(outline.roles.values)
    return outline


def document_blocks(document: OpenDocument) -> list[Block]:
    """The document's blocks (`blocks`), built again only after an edit."""
    return _outline(document).blocks or []


def line_roles(document: OpenDocument) -> list[Role | None]:
    """Each line's role, for folding's comment runs."""
    return _outline(document).roles.values


def reply(
    document: OpenDocument, key: object, build: Callable[[list[Block]], RawResult]
) -> RawResult:
    """A reply made from the blocks, built once for each state of the document."""
    outline = _outline(document)
    found = outline.replies.get(key)
    if found is None:
        found = outline.replies[key] = build(outline.blocks or [])
    return found


@lru_cache(maxsize=4096)
def _text(value: str) -> str:
    return dumps(value)


def _range_json(document: OpenDocument, block: Block) -> str:
    end = block.end
    character = document.to_character(end, len(document.document.texts[end]))
    return (
        f'{{"start":{{"line":{block.start},"character":0}},'
        f'"end":{{"line":{end},"character":{character}}}}}'
    )


def document_symbols(document: OpenDocument) -> RawResult:
    """The outline as DocumentSymbol JSON (each block once, children nested)."""
    to_character = document.to_character

    def convert(block: Block) -> str:
        line = block.start
        first = to_character(line, block.selection.start)
        last = to_character(line, block.selection.end)
        detail = f',"detail":{_text(block.detail)}' if block.detail is not None else ""
        children = (
            ',"children":[' + ",".join(map(convert, block.children)) + "]" if block.children else ""
        )
        return (
            f'{{"name":{_text(block.name)}{detail},"kind":{_KINDS[block.kind].value},'
            f'"range":{_range_json(document, block)},"selectionRange":{{'
            f'"start":{{"line":{line},"character":{first}}},'
            f'"end":{{"line":{line},"character":{last}}}}}{children}}}'
        )

    return reply(document, "symbols", lambda roots: raw_list(map(convert, roots)))


def flat_symbols(document: OpenDocument) -> RawResult:
    """For clients without hierarchical symbols: each block, named with its container."""

    def build(roots: list[Block]) -> RawResult:
        uri = dumps(document.uri)
        found: list[str] = []

        def add(block: Block, container: str | None) -> None:
            named = f',"containerName":{_text(container)}' if container is not None else ""
            found.append(
                f'{{"name":{_text(block.name)},"kind":{_KINDS[block.kind].value},'
                f'"location":{{"uri":{uri},"range":{_range_json(document, block)}}}{named}}}'
            )
            for child in block.children:
                add(child, block.name)

        for block in roots:
            add(block, None)
        return raw_list(found)

    return reply(document, "flat symbols", build)


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | RawResult | None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return None
        capabilities = server.client_capabilities.text_document
        symbol = capabilities.document_symbol if capabilities else None
        if symbol is None or not symbol.hierarchical_document_symbol_support:
            return flat_symbols(document)
        return document_symbols(document)
