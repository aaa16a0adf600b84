"""Inlay hints: the card name after a bare `#N`, and the life totals on each `turn` line.

A record names a card once, when it becomes known; after that it is `#N` alone. The hint
puts the name back where the reader needs it, from the state at that line.

Both come from what the walk keeps, not from walking again: the names from the objects
each line names as they stand after it (`Walk.objects_after`), the life totals from the
players' totals after each turn line (`Walk.life_after`). Each line's hints are kept as
JSON (features/raw.py) with what they were made from, so a request after an edit builds
the edited lines only.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from lsprotocol import types

from mtgr.rules.apply import apply
from mtgr.rules.state import GameState
from mtgr.rules.walk import Walk
from mtgr.server.features.per_line import CHUNK_EVERY, line_chunks
from mtgr.server.features.raw import RawResult, dumps, raw_list
from mtgr.syntax import tree as t
from mtgr.syntax.tree import Line

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

_Objects = tuple[tuple[int, str | None], ...]


def named_here(statement: t.Statement) -> int | None:
    """The object whose card name the line itself writes out, if any."""
    if isinstance(statement, t.ObjectStatement):
        if statement.name is not None or isinstance(statement, t.New | t.Identify):
            return statement.subject.number
    elif isinstance(statement, t.Draw) and statement.card is not None:
        return statement.drawn.number
    return None


def life_totals(state: GameState) -> str | None:
    """The label on a turn line; None before any player is declared."""
    return _life_label(tuple((p.name, p.life) for p in state.players))


@lru_cache(maxsize=4096)  # most turns begin with totals some turn before began with
def _life_label(totals: tuple[tuple[str, int], ...]) -> str | None:
    return " · ".join(f"{name} {life}" for name, life in totals) or None


def line_hints(
    document: OpenDocument, line: int, objects: _Objects, life: str | None
) -> tuple[str, ...]:
    """One line's hints as JSON, each without its start, `{"position":{"line":N` (so a
    line that moves keeps them), given the objects the line names as they stand after it
    and, on a turn line, the life totals after it."""
    statement = document.document.lines[line].parsed.statement
    if statement is None:
        return ()
    hints: list[str] = []
    if isinstance(statement, t.Turn) and life is not None:
        hints.append(_life_rest(document.to_character(line, statement.span.end), life))
    if not objects:
        return tuple(hints)
    names = dict(objects)
    skip = named_here(statement)
    ascii_only = document.document.texts[line].isascii()  # columns are the client's units
    for ref in statement.objects:  # in the order written
        name = names.get(ref.number)
        if name is None or ref.number == skip:
            continue
        end = ref.span.end
        character = end if ascii_only else document.to_character(line, end)
        hints.append(_name_rest(character, name))
    return tuple(hints)


@lru_cache(maxsize=4096)  # most turns begin with totals some turn before began with
def _life_rest(character: int, life: str) -> str:
    """The life totals' hint on a turn line, after `{"position":{"line":N`."""
    return (
        f',"character":{character}}},"label":{dumps(life)},'
        '"tooltip":"life totals at the start of the turn","paddingLeft":true}'
    )


@lru_cache(maxsize=8192)  # a record names the same cards at the same columns again and again
def _name_rest(character: int, name: str) -> str:
    """A card name's hint, after `{"position":{"line":N`: position, label, kind, padding."""
    return (
        f',"character":{character}}},"label":{dumps(name)},'
        f'"kind":{types.InlayHintKind.Type.value},"paddingLeft":true}}'
    )


# What each line's hints were made from: (parse, objects, life totals, hints)
_Kept = tuple[t.ParsedLine, _Objects, str | None, tuple[str, ...]]


class _Remembered:
    def __init__(self) -> None:
        self.lines: dict[int, _Kept] = {}
        self.chunks: dict[int, _Chunk] = {}  # by the id of their first line
        # the last answer, with what it answered: the walk (not kept alive for this), and
        # (edits, first, last)
        self.walk: weakref.ref[Walk] | None = None
        self.asked: tuple[int, int, int] | None = None
        self.answer = RawResult("[]")


# Gone with the document when it closes.
_REMEMBERED: WeakKeyDictionary[OpenDocument, _Remembered] = WeakKeyDictionary()


def hints(document: OpenDocument, first: int, last: int) -> RawResult:
    count = len(document.document)
    if count == 0:
        return raw_list(())
    first = max(0, min(first, count - 1))
    last = max(first, min(last, count - 1))
    remembered = _REMEMBERED.get(document)
    if remembered is None:
        remembered = _REMEMBERED[document] = _Remembered()
    walk = document.walk
    asked = (document.edits, first, last)
    if remembered.walk is not None and remembered.walk() is walk and remembered.asked == asked:
        return remembered.answer
    lines = document.document.lines
    if document.checked and last - first >= _BY_CHUNKS_FROM:
        found = _by_chunks(document, remembered, first, last)
    else:
        found = _by_lines(document, remembered, first, last)
    table = remembered.lines
    if len(table) > count:  # forget the lines edits removed
        alive = {line.id for line in lines}
        for line_id in [i for i in table if i not in alive]:
            del table[line_id]
    remembered.walk, remembered.asked, remembered.answer = weakref.ref(walk), asked, raw_list(found)
    return remembered.answer


def _by_lines(document: OpenDocument, remembered: _Remembered, first: int, last: int) -> list[str]:
    return [
        f'{{"position":{{"line":{index}' + rest
        for index, rests in _line_hints(document, remembered, first, last)
        for rest in rests
    ]


def _line_hints(
    document: OpenDocument, remembered: _Remembered, first: int, last: int
) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(line, its hints as `line_hints` gives them) for the lines from `first` to `last`
    that have any, kept per line with what they were made from."""
    kept = remembered.lines
    lines = document.document.lines
    for index, objects, life in _facts(document, remembered, first, last):
        line = lines[index]
        cached = kept.get(line.id)
        if (
            cached is None
            or cached[0] is not line.parsed
            or cached[1] != objects
            or cached[2] != life
        ):
            made = line_hints(document, index, objects, life)
            cached = kept[line.id] = (line.parsed, objects, life, made)
        if cached[3]:
            yield index, cached[3]


@dataclass
class _Chunk:
    """The hints of a stretch of lines (`per_line.chunk_starts`) as a template with a slot
    for each line number, kept while its lines, the objects they name and the life totals
    on its turn lines are the same, wherever it moves."""

    lines: list[Line]
    objects: list[_Objects | None]  # what the walk kept for each line (None: nothing)
    lives: tuple[tuple[int, str | None], ...]  # (turn line from the chunk's start, totals)
    template: str
    numbers: tuple[int, ...]  # the line of each slot, from the chunk's start
    # the template filled in for the line it last started at (-1: none), reused while
    # the chunk stays there (an edit moves only the chunks below it)
    placed: int = -1
    written: str = ""


# A range of lines this long or longer (the whole file, most of all) is answered a chunk at
# a time; a shorter one (the lines on screen) line by line.
_BY_CHUNKS_FROM = 4 * CHUNK_EVERY


def _by_chunks(document: OpenDocument, remembered: _Remembered, first: int, last: int) -> list[str]:
    """The hints of the lines from `first` to `last`, a chunk at a time: the chunks inside
    the range whole, the two it cuts line by line. The chunks outside are kept as they
    were, looked at again when a range holds them."""
    lines = document.document.lines
    ids, starts = line_chunks(document)
    objects_after = document.walk.objects_after
    kept = remembered.chunks
    chunks: dict[int, _Chunk] = {}
    found: list[str] = []
    for start, end in pairwise(starts):
        chunk = kept.get(ids[start])
        if end <= first or start > last:
            if chunk is not None:
                chunks[ids[start]] = chunk
            continue
        if start < first or end - 1 > last:
            found += _by_lines(document, remembered, max(start, first), min(end - 1, last))
            continue
        objects = list(map(objects_after.get, ids[start:end]))
        if (
            chunk is None
            or chunk.objects != objects
            or chunk.lines != lines[start:end]
            or any(_life_after(document, start + i) != life for i, life in chunk.lives)
        ):
            chunk = _chunk(document, remembered, start, end, objects)
        chunks[ids[start]] = chunk
        if chunk.numbers:
            if chunk.placed != start:
                chunk.placed = start
                chunk.written = chunk.template % tuple(map(start.__add__, chunk.numbers))
            found.append(chunk.written)
    remembered.chunks = chunks
    return found


def prepared_in_steps(document: OpenDocument, lines_per_step: int) -> Iterator[None]:
    """Builds the chunks of the whole file's hints (`_by_chunks` finds them kept), pausing
    after each `lines_per_step` lines: the first whole-file answer after a long record
    opens is then mostly joining what is ready. The caller stops when the text changes."""
    remembered = _REMEMBERED.get(document)
    if remembered is None:
        remembered = _REMEMBERED[document] = _Remembered()
    _ids, starts = line_chunks(document)
    first = 0
    for end in starts[1:]:  # steps end where chunks do: none is cut, so each is kept
        if end - first >= lines_per_step or end == starts[-1]:
            _by_chunks(document, remembered, first, end - 1)
            first = end
            yield


def _chunk(
    document: OpenDocument,
    remembered: _Remembered,
    start: int,
    end: int,
    objects: list[_Objects | None],
) -> _Chunk:
    """A chunk's hints, written here line by line as `line_hints` gives them (the first
    request after a long record opens asks this of every line)."""
    lines = document.document.lines[start:end]
    texts = document.document.texts[start:end]
    life_after = document.walk.life_after
    lives: list[tuple[int, str | None]] = []
    parts: list[str] = []
    numbers: list[int] = []
    for at, (line, text, named) in enumerate(zip(lines, texts, objects, strict=True)):
        statement = line.parsed.statement
        if statement is None:
            continue
        life = None
        if isinstance(statement, t.Turn):
            totals = life_after.get(line.id)
            life = None if totals is None else _life_label(totals)
            lives.append((at, life))
        elif not named:
            continue
        if not text.isascii():  # columns are not the client's units
            for rest in line_hints(document, start + at, named or (), life):
                parts.append('{"position":{"line":%d' + rest.replace("%", "%%"))
                numbers.append(at)
            continue
        if life is not None:
            parts.append(_life_hint(statement.span.end, life))
            numbers.append(at)
        if named:
            skip = named_here(statement)
            for ref in statement.objects:  # in the order written
                number = ref.number
                for known, name in named:
                    if known == number:
                        if name is not None and number != skip:
                            parts.append(_name_hint(ref.span.end, name))
                            numbers.append(at)
                        break
    return _Chunk(lines, objects, tuple(lives), ",".join(parts), tuple(numbers))


@lru_cache(maxsize=4096)
def _life_hint(character: int, life: str) -> str:
    """The life totals' hint on a turn line, with a slot for the line's number."""
    return '{"position":{"line":%d' + _life_rest(character, life).replace("%", "%%")


@lru_cache(maxsize=8192)
def _name_hint(character: int, name: str) -> str:
    """A card name's hint, with a slot for the line's number."""
    return '{"position":{"line":%d' + _name_rest(character, name).replace("%", "%%")


def _facts(
    document: OpenDocument, remembered: _Remembered, first: int, last: int
) -> Iterator[tuple[int, _Objects, str | None]]:
    """(line, objects it names after it, life totals after a turn line) for each line
    from `first` to `last` that names an object or begins a turn."""
    lines = document.document.lines
    if not document.checked:  # the first check is under way: walk the lines asked for
        state = document.state_before(first)
        for index in range(first, last + 1):
            statement = lines[index].parsed.statement
            if statement is None:
                continue
            state = apply(state, statement, lines[index].id)
            objects = tuple(
                (ref.number, obj.name)
                for ref in statement.objects
                if (obj := state.obj(ref.number)) is not None
            )
            life = life_totals(state) if isinstance(statement, t.Turn) else None
            if objects or life is not None:
                yield index, objects, life
        return
    objects_after = document.walk.objects_after
    for index in range(first, last + 1):
        line = lines[index]
        statement = line.parsed.statement
        if isinstance(statement, t.Turn):
            yield index, objects_after.get(line.id, ()), _life_after(document, index)
        elif statement is not None and line.id in objects_after:
            yield index, objects_after[line.id], None


def _life_after(document: OpenDocument, index: int) -> str | None:
    """The life totals after a turn line, as the walk kept them."""
    totals = document.walk.life_after.get(document.document.lines[index].id)
    return None if totals is None else _life_label(totals)


def refresh(server: MtgrServer) -> None:
    """Asks the client to fetch hints again (after the `inlayHints` setting changed), if it can."""
    workspace = server.client_capabilities.workspace
    support = workspace.inlay_hint if workspace else None
    if support is not None and support.refresh_support:
        server.workspace_inlay_hint_refresh(None)


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    def inlay_hint(params: types.InlayHintParams) -> list[types.InlayHint] | RawResult | None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return None
        if not document.settings.inlay_hints:
            return []
        return hints(document, params.range.start.line, params.range.end.line)
