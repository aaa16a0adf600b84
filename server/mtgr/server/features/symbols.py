"""Document symbols: the outline of a game (games, pregame, turns, phases, steps, keyframes).

The block structure computed here (`blocks_of_roles`) is also what folding and selection
ranges use, so the outline, the folds and the expanding selection always agree. Each
line's role is kept between requests (features/per_line.py); the outline and the folds
are built a segment at a time (a turn or a game to the next), and a segment whose roles
did not change keeps its blocks and its part of each reply, wherever it moved. Turns
with the same phase and step lines at the same places share one shape: their blocks are
built once, and their parts of each reply are one template filled with each turn's
numbers. Replies are written as JSON (features/raw.py).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, count, pairwise, repeat
from operator import attrgetter, is_, is_not, itemgetter
from typing import TYPE_CHECKING, cast
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


@dataclass(slots=True)
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
    role: Role | None = None  # the role of its opening line
    end_width: int = 0  # the width of its end line in the client's units
    rank: int = 0  # how deep it sits (_RANK)


_NO_SPAN = t.Span(0, 0)


@dataclass(frozen=True, slots=True)
class Role:
    """What one line does to the outline, from its text alone (so it is kept per line):
    `kind` is a block kind, "end" (a keyframe's end) or "comment" (a line with only a
    comment). Columns are in the client's units: the selection's (`first`, `last`) and
    the line's `width`."""

    kind: str
    name: str = ""
    span: t.Span = _NO_SPAN
    detail: str | None = None
    phase: str | None = None  # a phase's name, or the phase a step belongs to
    first: int = 0
    last: int = 0
    width: int = 0
    head: str = ""  # the start of its symbol's JSON: name, detail and kind


COMMENT = Role("comment")
# A line's role: a Role; the line's width alone (an int) for a line with content that
# opens no block, most lines (where no turn has begun, an event may open the pregame:
# `pregame_role` says); None for a blank line.
LineRole = Role | int | None


# The statements that open or close a block: every other line with content is its width.
_BLOCK_STATEMENTS = frozenset({t.GameStart, t.Turn, t.PhaseOrStep, t.Marker})


def line_role(document: OpenDocument, index: int) -> LineRole:
    """The role of a line of the document."""
    parsed = document.document.lines[index].parsed
    statement = parsed.statement
    if statement is None and parsed.error is None:
        return COMMENT if parsed.comment is not None else None
    text = document.document.texts[index]
    ascii_only = text.isascii()  # most lines: columns are the client's units
    width = len(text) if ascii_only else document.to_character(index, len(text))
    if type(statement) not in _BLOCK_STATEMENTS:
        return width
    assert statement is not None
    span = statement.span
    if isinstance(statement, t.GameStart):
        kind, name, detail, phase = "game", f"Game {statement.number.value}", None, None
    elif isinstance(statement, t.Turn):
        name = f"Turn {statement.number.value} — {statement.player.name}"
        kind, detail, phase = "turn", _cause_detail(statement), None
    elif isinstance(statement, t.PhaseOrStep) and statement.verb.value == "phase":
        name = f"{_title(statement.name.value)} phase"
        kind, detail, phase = "phase", _cause_detail(statement), statement.name.value
    elif isinstance(statement, t.PhaseOrStep):
        name = f"{_title(statement.name.value)} step"
        kind, detail = "step", _cause_detail(statement)
        phase = _PHASE_OF_STEP.get(statement.name.value)
    elif isinstance(statement, t.Marker) and statement.verb.value == "keyframe":
        kind, name, detail, phase = "keyframe", "Keyframe", None, None
    elif isinstance(statement, t.Marker) and statement.verb.value == "end":
        return Role("end", width=width)
    else:  # `incomplete`: a gap, shown where it stands
        kind, name, detail, phase = "gap", "Incomplete (gap)", None, None
    if ascii_only:
        first, last = span.start, span.end
    else:
        first = document.to_character(index, span.start)
        last = document.to_character(index, span.end)
    return Role(kind, name, span, detail, phase, first, last, width, _head(kind, name, detail))


@lru_cache(maxsize=4096)  # a record repeats its turn, phase and step names
def _head(kind: str, name: str, detail: str | None) -> str:
    described = f',"detail":{dumps(detail)}' if detail is not None else ""
    return f'{{"name":{dumps(name)}{described},"kind":{_KINDS[kind].value},'


_PREGAME_HEAD = _head("pregame", "Pregame", None)


def pregame_role(document: OpenDocument, index: int) -> Role | None:
    """The pregame's role, for a line that opens it where none is open: an event."""
    statement = document.document.lines[index].parsed.statement
    if statement is None or isinstance(statement, _NOT_PREGAME):
        return None
    width = document.to_character(index, len(document.document.texts[index]))
    first = document.to_character(index, statement.span.start)
    last = document.to_character(index, statement.span.end)
    return Role("pregame", "Pregame", statement.span, None, None, first, last, width, _PREGAME_HEAD)


def blocks_of_roles(
    roles: Sequence[LineRole], pregame: Callable[[int], Role | None]
) -> list[Block]:
    """The nested blocks of a document, top level first, from each line's role; for the
    outline, the folds and selection ranges. A block's end is its last content line: set
    when it closes, so a line that opens nothing costs one comparison."""
    roots: list[Block] = []
    stack: list[Block] = []
    turn_seen = False
    last = 0  # the last line with content so far, and its width
    last_width = 0

    def close_to(rank: int) -> None:
        while stack and stack[-1].rank >= rank:
            block = stack.pop()
            block.end, block.end_width = last, last_width

    # Where a turn opens the lines (a segment's, most of them), no pregame can open: only
    # the lines that are not simply their width are visited, found at C speed, and a run
    # of such lines sets the last content line once.
    in_turn = bool(roles) and type(roles[0]) is Role and roles[0].kind == "turn"
    indices: Iterable[int] = (
        compress(count(), map(is_not, map(type, roles), repeat(int)))
        if in_turn
        else range(len(roles))
    )
    previous = -1
    for index in indices:
        if index > previous + 1:  # only when some lines were not visited
            last, last_width = index - 1, cast(int, roles[index - 1])
        previous = index
        line_role = roles[index]
        if type(line_role) is int:
            opens = None
            if not turn_seen and not any(b.rank >= 1 for b in stack):
                opens = pregame(index)
            if opens is None:
                last, last_width = index, line_role
                continue
            line_role = opens
        if line_role is None or line_role is COMMENT:
            continue
        assert isinstance(line_role, Role)
        role = line_role
        kind = role.kind
        if kind == "end":
            last, last_width = index, role.width
            if any(b.kind == "keyframe" for b in stack):
                close_to(4)
            continue
        rank = closes = _RANK[kind]  # opening it closes what sits as deep or deeper...
        if kind == "game":
            turn_seen = False
        elif kind == "turn":
            turn_seen = True
        elif kind == "step":  # ...but a step of the phase open stays in it
            closes = 2
            for open_one in stack:
                if open_one.kind == "phase" and open_one.phase == role.phase:
                    closes = 3
                    break
        while stack and stack[-1].rank >= closes:  # close_to(closes), the common case inline
            closed = stack.pop()
            closed.end, closed.end_width = last, last_width
        phase = role.phase if kind == "phase" else None
        block = Block(
            kind, role.name, index, index, role.span, role.detail, [], phase, role, 0, rank
        )
        (stack[-1].children if stack else roots).append(block)
        if kind == "gap":  # shown where it stands, holding nothing
            block.end_width = role.width
        else:
            stack.append(block)
        last, last_width = index, role.width
    if previous < len(roles) - 1:
        last, last_width = len(roles) - 1, cast(int, roles[-1])
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


def block_range(block: Block) -> types.Range:
    return types.Range(
        start=types.Position(line=block.start, character=0),
        end=types.Position(line=block.end, character=block.end_width),
    )


# A reply's part for a segment: a %-template, the places of its values among the values
# of the segment standing where it does (`_Segment.written`), and what those hold beyond
# its line numbers.
_Part = tuple[str, Sequence[int], tuple[object, ...]]
_Values = Callable[[Sequence[object]], tuple[object, ...]]


@dataclass
class _Shape:
    """What the segments of turns with one structure share: the roles that are not widths
    (by identity, so the same phase and step lines) at the same places, and as many lines.
    Their blocks are alike but for the turn's own and the end widths, so their replies'
    parts are one template filled with the turn's and the widths of each segment's."""

    held: tuple[LineRole, ...]  # those roles, kept so that their ids in the key stay theirs
    turn_end: int  # the turn's last content line, counted from the turn
    children: list[Block]  # the turn's, with lines counted from it (their end widths unused)
    templates: dict[object, tuple[str, tuple[int, ...]]] = field(default_factory=dict)

    def template(
        self, key: object, make: Callable[[], tuple[str, Sequence[int]]]
    ) -> tuple[str, tuple[int, ...]]:
        """A reply's template for its segments and the places of its values, made once."""
        found = self.templates.get(key)
        if found is None:
            template, places = make()
            found = self.templates[key] = (template, tuple(places))
        return found


@dataclass
class _Segment:
    """The lines from a turn or a game (or the document's start) to the next of either.
    Everything the outline opens there closes before the next one (a turn closes what a
    turn holds), so its blocks depend on its lines' roles alone and are kept while those
    are unchanged, wherever the segment moves: with line numbers counted from its start,
    and its replies as %-templates filled with the numbers of where it stands now. A
    turn's segment has a shape instead of blocks of its own."""

    roles: list[LineRole]
    blocks: list[Block] | None  # for a game's segment, the game's block alone
    shape: _Shape | None
    last: int | None  # its last content line, if any
    last_width: int
    templates: dict[object, tuple[str, _Values, tuple[object, ...]]] = field(default_factory=dict)
    # the part last written for each reply, with the line the segment stood at: after an
    # edit within a line, or above it when no line moved, it is the part again
    last_written: dict[object, tuple[int, str]] = field(default_factory=dict)

    def written(self, key: object, start: int, make: Callable[[_Segment], _Part]) -> str:
        """A reply's part for this segment, standing at line `start`: its values are the
        numbers of its lines, then what the part holds beyond them."""
        last = self.last_written.get(key)
        if last is not None and last[0] == start:
            return last[1]
        found = self.templates.get(key)
        if found is None:
            template, places, extra = make(self)
            found = self.templates[key] = (template, _getter(places), extra)
        template, values, extra = found
        if not template:  # nothing of it in this reply (most segments hold no comment run)
            part = ""
        else:
            lines = range(start, start + len(self.roles))
            part = template % values([*lines, *extra] if extra else lines)
        self.last_written[key] = (start, part)
        return part


def _getter(places: Sequence[int]) -> _Values:
    """The values at these places, as a tuple, at C speed."""
    if len(places) > 1:
        return itemgetter(*places)
    return lambda values: tuple(values[place] for place in places)


def _width(role: LineRole) -> int:
    """The width of a line with content."""
    return role if type(role) is int else cast(Role, role).width


_SPLITS = frozenset({"turn", "game"})


@dataclass
class _Outline:
    """An open document's outline, kept between requests: each line's role (derived again
    only for the lines edited since), the segments, the blocks (built when asked for),
    and the replies built from them."""

    roles: PerLine[LineRole] = field(default_factory=PerLine)
    segments: list[tuple[int, _Segment]] | None = None  # each with the line it starts at
    # once the roles change: the segments before, and how many lines from the start and
    # from the end of the text they were found in have kept their roles since
    settled: tuple[list[tuple[int, _Segment]], int, int] | None = None
    kept: dict[int, _Segment] = field(default_factory=dict)  # by the id of its first role
    blocks: list[Block] | None = None
    replies: dict[object, RawResult] = field(default_factory=dict)
    # the role of a phase or step line by the id of its parse (kept in the value)
    shared: dict[int, tuple[t.ParsedLine, Role]] = field(default_factory=dict)
    shapes: dict[tuple[object, ...], _Shape] = field(default_factory=dict)  # `_shape_key`


# Gone with the document when it closes.
_OUTLINES: WeakKeyDictionary[OpenDocument, _Outline] = WeakKeyDictionary()


def _outline(document: OpenDocument, derived: list[LineRole] | None = None) -> _Outline:
    """The document's outline, its roles brought up to date (from `derived`, the roles of
    every line of today's text, where given)."""
    outline = _OUTLINES.get(document)
    if outline is None:
        outline = _OUTLINES[document] = _Outline()
    roles = outline.roles
    if roles.update(
        document.document.texts,
        (lambda first, end: _roles(document, outline, first, end))
        if derived is None
        else (lambda first, end: derived[first:end]),
    ):
        if outline.segments is not None:
            outline.settled = (outline.segments, roles.head, roles.tail)
        elif outline.settled is not None:  # changed again before its segments were asked
            before, head, tail = outline.settled
            outline.settled = (before, min(head, roles.head), min(tail, roles.tail))
        outline.segments = None
        outline.blocks = None
        outline.replies.clear()
    return outline


# Roles that never start a segment (whose first role's id keys it): lines of equal text
# share one, a record's `phase` and `step` lines most of all.
_SHARED_KINDS = frozenset({"phase", "step"})


def _roles(document: OpenDocument, outline: _Outline, first: int, end: int) -> list[LineRole]:
    """The roles of the lines from `first` to before `end` (`line_role`) in one loop: most
    lines' role is their width."""
    found: list[LineRole] = []
    texts = document.document.texts[first:end]
    lines = document.document.lines[first:end]
    for index, text, line in zip(range(first, end), texts, lines, strict=True):
        parsed = line.parsed
        statement = parsed.statement
        if statement is None and parsed.error is None:
            found.append(COMMENT if parsed.comment is not None else None)
        elif type(statement) in _BLOCK_STATEMENTS:
            found.append(_role(document, outline, index))
        else:
            found.append(len(text) if text.isascii() else document.to_character(index, len(text)))
    return found


def _role(document: OpenDocument, outline: _Outline, index: int) -> LineRole:
    parsed = document.document.lines[index].parsed
    shared = outline.shared.get(id(parsed))
    if shared is not None and shared[0] is parsed:
        return shared[1]
    role = line_role(document, index)
    if type(role) is Role and role.kind in _SHARED_KINDS:
        if len(outline.shared) > len(document.document):  # parses edits left behind
            outline.shared.clear()
        outline.shared[id(parsed)] = (parsed, role)
    return role


def _segments(document: OpenDocument, outline: _Outline) -> list[tuple[int, _Segment]]:
    """The segments of today's text: those whose roles are unchanged are the ones kept.
    After an edit, only the segments between those before the first changed line and
    those after the last are found again; those after move with the lines."""
    if outline.segments is not None:
        return outline.segments
    roles = outline.roles.values
    if outline.settled is None:
        found = _found_segments(document, outline, 0, len(roles), outline.kept)
        outline.kept = {_segment_key(segment): segment for _, segment in found}
    else:
        before, head, tail = outline.settled
        starts = [start for start, _ in before]
        old_size = before[-1][0] + len(before[-1][1].roles)
        moved = len(roles) - old_size
        first = max(bisect_left(starts, head) - 1, 0)  # the first that may have changed
        # the first that did not, and starts at a turn or a game (not the text's start)
        after = max(bisect_left(starts, old_size - tail, first), 1)
        low = starts[first]
        high = starts[after] + moved if after < len(starts) else len(roles)
        middle = _found_segments(document, outline, low, high, outline.kept)
        for _, segment in before[first:after]:
            outline.kept.pop(_segment_key(segment), None)
        outline.kept.update((_segment_key(segment), segment) for _, segment in middle)
        found = [
            *before[:first],
            *middle,
            *((start + moved, segment) for start, segment in before[after:]),
        ]
    outline.segments = found
    outline.settled = None
    return found


def _found_segments(
    document: OpenDocument,
    outline: _Outline,
    low: int,
    high: int,
    kept: dict[int, _Segment],
) -> list[tuple[int, _Segment]]:
    """The segments from line `low` (where one starts) to before `high`, the kept ones
    where their roles are unchanged."""
    roles = outline.roles.values
    starts = [low + start for start in _split_starts(roles[low:high])]
    if not starts or starts[0] != low:
        starts.insert(0, low)
    starts.append(high)
    found: list[tuple[int, _Segment]] = []
    for start, end in pairwise(starts):
        segment = kept.get(_key_of(roles[start]))
        if segment is None or segment.roles != roles[start:end]:
            segment = _segment(document, outline, roles[start:end], start)
        found.append((start, segment))
    return found


def _segment_key(segment: _Segment) -> int:
    return _key_of(segment.roles[0])


def _key_of(first: LineRole) -> int:
    """The key among those kept of the segment a role starts: the id of a turn's or a
    game's own role (-1 for the document's start)."""
    return id(first) if type(first) is Role else -1


def _split_starts(roles: list[LineRole]) -> list[int]:
    """Where turns and games start: the few lines whose role is a `Role` found at C speed
    first (most roles are widths), then those of the splitting kinds among them."""
    places = list(compress(count(), map(is_, map(type, roles), repeat(Role))))
    kinds = map(attrgetter("kind"), map(roles.__getitem__, places))
    return list(compress(places, map(_SPLITS.__contains__, kinds)))


def _segment(
    document: OpenDocument, outline: _Outline, roles: list[LineRole], start: int
) -> _Segment:
    last = _last_content(roles)
    last_width = 0 if last is None else _width(roles[last])
    first = roles[0]
    if type(first) is not Role or first.kind != "turn":
        blocks = blocks_of_roles(roles, lambda index: pregame_role(document, start + index))
        return _Segment(roles, blocks, None, last, last_width)
    key = _shape_key(roles)
    shape = outline.shapes.get(key)
    if shape is None:
        if len(outline.shapes) > len(document.document):  # shapes edits left behind
            outline.shapes.clear()
        (turn,) = blocks_of_roles(roles, _no_pregame)  # a turn closes nothing it holds
        held = tuple(compress(roles, map(is_not, map(type, roles), repeat(int))))
        shape = outline.shapes[key] = _Shape(held, turn.end - turn.start, turn.children)
    return _Segment(roles, None, shape, last, last_width)


def _no_pregame(index: int) -> Role | None:
    """Where a turn opens the lines, no pregame can open."""
    return None


def _shape_key(roles: list[LineRole]) -> tuple[object, ...]:
    """What decides a turn's blocks, found at C speed: the number of lines, and where the
    roles that are not widths stand and which they are (by id; the first, the turn's own,
    does not count)."""
    not_widths = list(map(is_not, map(type, roles), repeat(int)))
    return (
        len(roles),
        tuple(compress(count(), not_widths)),
        tuple(map(id, compress(roles[1:], not_widths[1:]))),
    )


def _last_content(roles: list[LineRole]) -> int | None:
    for last in range(len(roles) - 1, -1, -1):
        role = roles[last]
        if type(role) is int or (role is not None and role is not COMMENT):
            return last
    return None


def document_blocks(document: OpenDocument) -> list[Block]:
    """The document's blocks, built again only after an edit (for selection ranges and
    the flat outline; the outline and the folds are written from the segments)."""
    outline = _outline(document)
    if outline.blocks is None:
        outline.blocks = blocks_of_roles(
            outline.roles.values, lambda index: pregame_role(document, index)
        )
    return outline.blocks


def reply(document: OpenDocument, key: object, build: Callable[[], RawResult]) -> RawResult:
    """A reply, built once for each state of the document."""
    outline = _outline(document)
    found = outline.replies.get(key)
    if found is None:
        found = outline.replies[key] = build()
    return found


@lru_cache(maxsize=4096)
def _text(value: str) -> str:
    return dumps(value)


def _range_json(block: Block) -> str:
    return (
        f'{{"start":{{"line":{block.start},"character":0}},'
        f'"end":{{"line":{block.end},"character":{block.end_width}}}}}'
    )


def _symbol(
    head: str,
    start: int | str,
    end: int | str,
    end_width: int | str,
    first: int | str,
    last: int | str,
    children: str,
) -> str:
    """A DocumentSymbol's JSON; the numbers may be template slots ("%d"), and then `head`
    is escaped for the template."""
    return (
        f'{head}"range":{{"start":{{"line":{start},"character":0}},'
        f'"end":{{"line":{end},"character":{end_width}}}}},'
        f'"selectionRange":{{"start":{{"line":{start},"character":{first}}},'
        f'"end":{{"line":{start},"character":{last}}}}}{children}}}'
    )


def _symbols_template(
    blocks: list[Block], roles: Sequence[LineRole] | None = None
) -> tuple[str, list[int]]:
    """The blocks as DocumentSymbol JSON with a slot for each line number, and the line of
    each slot. With the roles of a turn's lines (for its shape), an end width on a line
    that is a width is a slot too, its place that of the line's role in a turn segment's
    values (after the line numbers: `_turn_symbol`)."""
    numbers: list[int] = []

    def convert(block: Block) -> str:
        role = block.role
        assert role is not None
        numbers.extend((block.start, block.end))
        end_width: int | str = block.end_width
        if roles is not None:  # a role other than a width is the same in every segment
            on_end = roles[block.end]
            if type(on_end) is int:
                end_width = "%d"
                numbers.append(len(roles) + block.end)
            else:
                end_width = cast(Role, on_end).width
        numbers.extend((block.start, block.start))
        children = ",".join(map(convert, block.children))
        return _symbol(
            role.head.replace("%", "%%"),
            "%d",
            "%d",
            end_width,
            role.first,
            role.last,
            f',"children":[{children}]' if children else "",
        )

    return ",".join(map(convert, blocks)), numbers


def _game_children(segment: _Segment) -> _Part:
    assert segment.blocks is not None
    return (*_symbols_template(segment.blocks[0].children), ())


def _all_blocks(segment: _Segment) -> _Part:
    shape = segment.shape
    if shape is None:
        assert segment.blocks is not None
        return (*_symbols_template(segment.blocks), ())
    roles = segment.roles
    template, places = shape.template("symbols", lambda: _turn_symbol(shape, roles))
    turn = cast(Role, roles[0])
    end_width = _width(roles[shape.turn_end])
    return template, places, (*roles, turn.head, turn.first, turn.last, end_width)


def _turn_symbol(shape: _Shape, roles: Sequence[LineRole]) -> tuple[str, list[int]]:
    """The symbol of a turn of this shape (one of whose segments' roles are given): its
    values are its lines' numbers, their roles, then the turn's head, first and last
    column, and end width."""
    children, numbers = _symbols_template(shape.children, roles)
    size = len(roles)
    head, first, last, end_width = range(2 * size, 2 * size + 4)
    template = _symbol(
        "%s", "%d", "%d", "%d", "%d", "%d", f',"children":[{children}]' if children else ""
    )
    return template, [head, 0, shape.turn_end, end_width, 0, first, 0, last, *numbers]


def document_symbols(document: OpenDocument) -> RawResult:
    """The outline as DocumentSymbol JSON (each block once, children nested), written a
    segment at a time; a game's own symbol around its segments."""

    def build() -> RawResult:
        pieces = ["["]  # the reply's, commas included, joined once: it is megabytes
        game: tuple[int, int, Role] | None = None  # its slot in the pieces, start, role
        items = 0  # at the level parts go to: the top, then the open game's children
        end = (0, 0)  # the last content line so far, and its width

        def add(part: str) -> None:
            nonlocal items
            if part:
                if items:
                    pieces.append(",")
                pieces.append(part)
                items += 1

        def close_game() -> None:
            if game is not None:
                slot, start, role = game
                symbol = _symbol(role.head, start, end[0], end[1], role.first, role.last, "")
                if items:
                    pieces[slot] = symbol[:-1] + ',"children":['
                    pieces.append("]}")
                else:
                    pieces[slot] = symbol

        for start, segment in _segments(document, _outline(document)):
            first = segment.roles[0]
            if isinstance(first, Role) and first.kind == "game":
                close_game()
                if game is not None or items:  # a game or a top item before it
                    pieces.append(",")
                pieces.append("game")  # its place, filled when it closes
                game, items = (len(pieces) - 1, start, first), 0
            add(_symbols_part(start, segment))
            if segment.last is not None:
                end = (start + segment.last, segment.last_width)
        close_game()
        pieces.append("]")
        return RawResult("".join(pieces))

    return reply(document, "symbols", build)


def _symbols_part(start: int, segment: _Segment) -> str:
    """A segment's part of the outline: a game's children, or its blocks."""
    if _opens_game(segment):
        return segment.written("game", start, _game_children)
    return segment.written("symbols", start, _all_blocks)


def prepared_in_steps(document: OpenDocument, lines_per_step: int) -> Iterator[None]:
    """Derives the roles, finds the segments and writes their parts of the outline,
    pausing after about `lines_per_step` lines each: the first outline after a long record
    opens is then mostly joining what is ready. The caller stops when the text changes;
    what a request built meanwhile is kept."""
    outline = _OUTLINES.get(document)
    if outline is None:
        outline = _OUTLINES[document] = _Outline()
    count = len(document.document)
    if not outline.roles.values:  # never derived: the first outline of the document
        roles: list[LineRole] = []
        for first in range(0, count, lines_per_step):
            roles += _roles(document, outline, first, min(first + lines_per_step, count))
            yield
        _outline(document, roles)
        yield
    else:
        _outline(document)
    if outline.segments is None and outline.settled is None:
        values = outline.roles.values
        starts = [*_split_starts(values), len(values)]
        if starts[0] != 0:
            starts.insert(0, 0)
        found: list[tuple[int, _Segment]] = []
        low = 0
        for high in starts[1:]:
            if high - low >= lines_per_step or high == len(values):
                found += _found_segments(document, outline, low, high, outline.kept)
                low = high
                yield
        if outline.segments is None and outline.settled is None:
            outline.kept = {_segment_key(segment): segment for _, segment in found}
            outline.segments = found
    done = 0
    for start, segment in _segments(document, outline):
        _symbols_part(start, segment)
        if start - done >= lines_per_step:
            done = start
            yield


def segment_folds(document: OpenDocument, collapsed_text: bool) -> Iterator[str]:
    """Folding ranges of the blocks (a game's first, then what it holds), then of the runs
    of comment lines, as JSON."""
    outline = _outline(document)
    segments = _segments(document, outline)
    named = collapsed_text

    def folds(segment: _Segment) -> _Part:
        shape = segment.shape
        if shape is None:
            assert segment.blocks is not None
            blocks = segment.blocks[0].children if _opens_game(segment) else segment.blocks
            return (*_folds_template(blocks, named), ())
        template, places = shape.template(
            ("folds", named), lambda: _turn_folds(shape, len(segment.roles), named)
        )
        turn = cast(Role, segment.roles[0])
        return template, places, (dumps(turn.name),) if named else ()

    found: list[str] = []
    game: tuple[int, int, Block] | None = None  # where its fold goes, its start, its block
    end = 0

    def close_game() -> None:
        if game is not None:
            slot, start, block = game
            if end > start:
                found[slot] = _fold_template(block.name, named) % (start, end)

    for start, segment in segments:
        if _opens_game(segment):
            assert segment.blocks is not None
            close_game()
            game = (len(found), start, segment.blocks[0])
            found.append("")
        found.append(segment.written(("folds", named), start, folds))
        if segment.last is not None:
            end = start + segment.last
    close_game()
    yield from (part for part in found if part)
    for start, segment in segments:
        part = segment.written("comments", start, _comments)
        if part:
            yield part


def _folds_template(blocks: list[Block], collapsed_text: bool) -> tuple[str, list[int]]:
    """The folds of the blocks and all they hold, with a slot for each line number."""
    parts: list[str] = []
    numbers: list[int] = []
    for block in walk_blocks(blocks):
        if block.end > block.start:
            parts.append(_fold_template(block.name, collapsed_text))
            numbers += (block.start, block.end)
    return ",".join(parts), numbers


def _turn_folds(shape: _Shape, size: int, collapsed_text: bool) -> tuple[str, list[int]]:
    """The folds of a turn of this shape, `size` lines long: its values are its lines'
    numbers, then its name's JSON (where the folds are named)."""
    inside, numbers = _folds_template(shape.children, collapsed_text)
    if shape.turn_end == 0:  # a turn without content folds nothing
        return inside, numbers
    named = ',"collapsedText":%s' if collapsed_text else ""
    turn = f'{{"startLine":%d,"endLine":%d,"kind":"region"{named}}}'
    places = [0, shape.turn_end, size] if collapsed_text else [0, shape.turn_end]
    return ",".join(filter(None, (turn, inside))), places + numbers


def _opens_game(segment: _Segment) -> bool:
    first = segment.roles[0]
    return isinstance(first, Role) and first.kind == "game"


def _fold_template(name: str, collapsed_text: bool) -> str:
    named = f',"collapsedText":{dumps(name)}'.replace("%", "%%") if collapsed_text else ""
    return f'{{"startLine":%d,"endLine":%d,"kind":"region"{named}}}'


def _comments(segment: _Segment) -> _Part:
    """The segment's `_comment_runs`, once for the segments of a shape (where the roles
    that are not widths stand, which comments are, is part of it)."""
    roles = segment.roles
    if segment.shape is None:
        return (*_comment_runs(roles), ())
    return (*segment.shape.template("comments", lambda: _comment_runs(roles)), ())


def _comment_runs(roles: list[LineRole]) -> tuple[str, list[int]]:
    """Runs of two or more comment-only lines (a run never crosses a segment's start,
    which is a turn or a game line), from the comment lines found at C speed (few)."""
    parts: list[str] = []
    numbers: list[int] = []
    comments = list(compress(count(), map(is_, roles, repeat(COMMENT))))
    run_start = 0
    for k in range(1, len(comments) + 1):
        if k == len(comments) or comments[k] != comments[k - 1] + 1:  # a run ends
            if k - 1 > run_start:
                parts.append('{"startLine":%d,"endLine":%d,"kind":"comment"}')
                numbers += (comments[run_start], comments[k - 1])
            run_start = k
    return ",".join(parts), numbers


def flat_symbols(document: OpenDocument) -> RawResult:
    """For clients without hierarchical symbols: each block, named with its container."""

    def build() -> RawResult:
        uri = dumps(document.uri)
        found: list[str] = []

        def add(block: Block, container: str | None) -> None:
            named = f',"containerName":{_text(container)}' if container is not None else ""
            found.append(
                f'{{"name":{_text(block.name)},"kind":{_KINDS[block.kind].value},'
                f'"location":{{"uri":{uri},"range":{_range_json(block)}}}{named}}}'
            )
            for child in block.children:
                add(child, block.name)

        for block in document_blocks(document):
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
