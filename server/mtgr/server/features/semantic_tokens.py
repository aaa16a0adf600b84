"""Semantic tokens: highlighting from the parser's tokens and the game state, with no grammar.

Editors without a TextMate grammar (Neovim) colour a file from these alone. An object's
token says whether its card is known or hidden at that line, which a grammar cannot.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count, pairwise
from operator import itemgetter
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from lsprotocol import types

from mtgr.rules.state import ZONES
from mtgr.rules.walk import Walk
from mtgr.server.features.per_line import common_length, line_chunks
from mtgr.server.features.raw import RawResult, raw_joined
from mtgr.syntax import tree as t
from mtgr.syntax.parser import GRAMMAR
from mtgr.syntax.tree import Line

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

TOKEN_TYPES = (
    "variable",  # an object, #N
    "class",  # a player
    "enumMember",  # a zone
    "function",  # a verb
    "keyword",  # other keywords; `by`, `sba`, `replacement` carry the cause modifier
    "number",
    "string",
    "comment",
    "operator",
)
TOKEN_MODIFIERS = ("known", "hidden", "cause", "declaration")
LEGEND = types.SemanticTokensLegend(
    token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)
)

_TYPE = {name: i for i, name in enumerate(TOKEN_TYPES)}
_MOD = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}
_KIND_TYPE = {
    t.TokenKind.OBJECT: "variable",
    t.TokenKind.PLAYER: "class",
    t.TokenKind.STRING: "string",
    t.TokenKind.VERB: "function",
    t.TokenKind.KEYWORD: "keyword",
    t.TokenKind.ZONE: "enumMember",
    t.TokenKind.NUMBER: "number",
    t.TokenKind.OPERATOR: "operator",
    t.TokenKind.MANA: "string",
    t.TokenKind.COMMENT: "comment",
}
CAUSE_WORDS = frozenset({"by", "sba", "replacement"})


def cause_spans(statement: t.Statement | None) -> set[t.Span]:
    """Where the objects and players named as causes or replacements are."""
    if statement is None:
        return set()
    spans = {ref.span for ref in statement.replacements}
    if statement.cause is not None:
        spans.add(statement.cause.agent.span)
    return spans


_VERBS = frozenset(name[2:] for name in GRAMMAR if name.startswith("v_"))
_KEYWORDS = frozenset(name[2:] for name in GRAMMAR if name.startswith("k_"))
_ZONES = frozenset(ZONES)
_WORD = re.compile(r'"(?:[^"\\]|\\.)*"?|\S+')


def rough_tokens(text: str, parsed: t.ParsedLine) -> tuple[t.Token, ...]:
    """Tokens of a line that does not parse (yet), by the look of each word, so a line
    being typed is coloured too. The comment, if any, keeps its own token."""
    end = parsed.comment.start if parsed.comment is not None else len(text)
    found: list[t.Token] = []
    for match in _WORD.finditer(text, 0, end):
        word = match.group()
        kind = _rough_kind(word)
        if kind is t.TokenKind.STRING and not found:  # a line about a player starts with it
            kind = t.TokenKind.PLAYER
        if kind is not None:
            found.append(t.Token(t.Span(match.start(), match.end()), kind))
    if parsed.comment is not None:
        found.append(t.Token(parsed.comment, t.TokenKind.COMMENT))
    return tuple(found)


def _rough_kind(word: str) -> t.TokenKind | None:
    if re.fullmatch(r"#[0-9]+", word):
        return t.TokenKind.OBJECT
    if word.startswith('"'):
        return t.TokenKind.STRING
    if word == "->":
        return t.TokenKind.OPERATOR
    if re.fullmatch(r"[+-]?[0-9]+", word):
        return t.TokenKind.NUMBER
    if word in _ZONES:
        return t.TokenKind.ZONE
    if word in _VERBS:
        return t.TokenKind.VERB
    if word in _KEYWORDS:
        return t.TokenKind.KEYWORD
    return None


def _marked(statement: t.Statement | None) -> tuple[set[tuple[int, int]] | None, t.Span | None]:
    """The columns of the causes and replacements a line names (None: none), and the object
    it introduces, if any: the tokens that carry the cause and declaration modifiers."""
    causes = (
        {(span.start, span.end) for span in cause_spans(statement)}
        if statement is not None and (statement.replacements or statement.cause is not None)
        else None
    )
    introduced: t.Span | None = None
    if isinstance(statement, t.New | t.AbilityOf):
        introduced = statement.subject.span
    elif isinstance(statement, t.Draw):
        introduced = statement.drawn.span
    return causes, introduced


def line_tokens(
    document: OpenDocument, line: int, objects: Mapping[int, str | None]
) -> list[tuple[int, int, int, int]]:
    """(start, length, type, modifiers) in the client's units, for one line, given the
    objects the line names as they stand after it (number -> card name, None if hidden).

    Read from the parse's token columns, not from Token objects: the first request after
    a long record opens asks this of every line."""
    parsed = document.document.lines[line].parsed
    text = document.document.texts[line]
    statement = parsed.statement
    if parsed.error is None:
        offset = parsed.offset
        columns = [
            (offset + start, offset + end, kind) for start, end, kind in parsed.token_columns
        ]
        if parsed.comment is not None:
            columns.append((parsed.comment.start, parsed.comment.end, t.TokenKind.COMMENT))
    else:
        columns = [(k.span.start, k.span.end, k.kind) for k in rough_tokens(text, parsed)]
    columns.sort(key=_START)
    causes, introduced = _marked(statement)
    ascii_only = text.isascii()  # one unit a character: columns are the client's units
    out: list[tuple[int, int, int, int]] = []
    for start, end, kind in columns:
        modifiers = 0
        if kind is t.TokenKind.OBJECT:
            digits = text[start + 1 : end]
            number = int(digits) if digits.isdigit() else None
            if number in objects:
                modifiers |= _HIDDEN if objects[number] is None else _KNOWN
            if introduced is not None and introduced.start == start and introduced.end == end:
                modifiers |= _DECLARATION
        elif kind is t.TokenKind.KEYWORD and text[start:end] in CAUSE_WORDS:
            modifiers |= _CAUSE
        if causes and (start, end) in causes:
            modifiers |= _CAUSE
        if not ascii_only:
            start, end = document.to_character(line, start), document.to_character(line, end)
        if end > start:
            out.append((start, end - start, _TYPE_OF_KIND[kind], modifiers))
    return out


_START = itemgetter(0)
_TYPE_OF_KIND = {kind: _TYPE[name] for kind, name in _KIND_TYPE.items()}
_KNOWN, _HIDDEN, _CAUSE, _DECLARATION = (_MOD[name] for name in TOKEN_MODIFIERS)
_OBJECT, _KEYWORD = t.TokenKind.OBJECT, t.TokenKind.KEYWORD
# by the member's id: an Enum member's hash is Python code, an int's is not
_TYPE_OF_KIND_ID = {id(kind): number for kind, number in _TYPE_OF_KIND.items()}
# Most numbers in the data are small (deltas, lengths, types): written from a table.
_SMALL = 512
_DIGITS = [str(n) for n in range(_SMALL)]
_COMMENT_TYPE = _TYPE_OF_KIND[t.TokenKind.COMMENT]


def encode(document: OpenDocument, first: int = 0, last: int | None = None) -> list[int]:
    """Lines `first` to `last` (the whole document by default) as LSP's relative
    five-integer groups; the first token is relative to the start of the document."""
    count = len(document.document)
    last = count - 1 if last is None else min(last, count - 1)
    data: list[int] = []
    previous_line = 0
    for line in range(max(first, 0), last + 1):
        encoded = _line_groups(document, line)
        if encoded:
            data.append(line - previous_line)
            data.extend(encoded)
            previous_line = line
    return data


def _line_groups(
    document: OpenDocument, line: int, remembered: _Remembered | None = None
) -> tuple[int, ...]:
    """A line's groups (`_encode_line`)."""
    return _line_encoded(document, line, remembered)[0]


def _line_encoded(
    document: OpenDocument, line: int, remembered: _Remembered | None = None
) -> tuple[tuple[int, ...], str]:
    """A line's groups and the same as JSON (without brackets). A line that parses, and
    whose columns the client counts in characters, is encoded from its shape (`_Shape`)
    with the marks of the objects it names; any other line is kept with the parse and the
    objects its groups came from."""
    entry = document.document.lines[line]
    parsed = entry.parsed
    if remembered is None:
        remembered = _remembered(document)
    text = document.document.texts[line]
    if parsed.error is None and document.counts_characters(text):
        shape = _shape_of(remembered.shapes, text, parsed)
        named = document.walk.objects_after.get(entry.id)
        comment = parsed.comment
        if comment is None or comment.end <= comment.start:
            if not (named and shape.objects):
                return shape.groups, shape.written  # shared by the lines of the shape
            marked = shape.marked_by(named)
            if marked is not None:
                return marked
        data: list[int] = []
        parts: list[str] = []
        shape.put(text, named, comment, data, parts)
        return tuple(data), ",".join(parts)
    objects = document.walk.objects_after.get(entry.id, ())
    if parsed.error is not None:  # a line being typed changes nothing
        objects = _objects_before(document, line)
    cached = remembered.lines.get(entry.id)
    if cached is not None and cached[0] is parsed and cached[1] == objects:
        return cached[2]
    groups = _encode_line(line_tokens(document, line, dict(objects)))
    encoded = (groups, _written(groups))
    remembered.lines[entry.id] = (parsed, objects, encoded)
    return encoded


def _written(data: Sequence[int]) -> str:
    """Numbers as JSON, without the brackets."""
    return ",".join([_DIGITS[n] if 0 <= n < _SMALL else str(n) for n in data])


@dataclass(frozen=True, slots=True)
class _Shape:
    """The groups of every line of one parse shape at one column (its columns counted in
    characters, `OpenDocument.counts_characters`), before the objects it names are marked
    known or hidden and before its comment. The parser gives the lines of a shape one
    tuple of token columns and statements alike but for their numbers and strings, so the
    first request after a long record opens encodes each shape once (a few hundred on
    50,000 lines), not each line."""

    columns: tuple[tuple[int, int, t.TokenKind], ...]  # kept: its id keys the shape
    offset: int
    kind: type  # of the statement
    groups: tuple[int, ...]
    written: str  # `groups` as JSON
    template: str  # the same with a %d slot for the modifiers of each object token
    # each object token: where its modifiers are in `groups`, its digits' columns, and
    # its modifiers when the object is neither known nor hidden
    objects: tuple[tuple[int, int, int, int], ...]
    last_start: int  # the column of the last token (-1: none), for a comment after it
    # how many objects the statement names, when each object token is one of them (-1:
    # not so), and for each object token, which of them (its index in `statement.objects`)
    references: int
    referenced: tuple[int, ...]
    # the groups and JSON of the lines whose objects the walk kept all of, by which of
    # them are hidden: a few for each shape (`marked`)
    marked: dict[tuple[bool, ...], tuple[tuple[int, ...], str]] = field(
        default_factory=dict, compare=False
    )

    def marked_by(self, objects: _Objects) -> tuple[tuple[int, ...], str] | None:
        """A line's groups and JSON, given the objects it names as the walk keeps them
        (`Walk.objects_after`: each existing one the statement names, in the order
        written). When the walk kept them all, which are hidden decides the marks, and the
        lines that agree on it share them; otherwise None (`put` marks the line)."""
        if len(objects) != self.references:
            return None
        hidden = tuple([name is None for _, name in objects])
        found = self.marked.get(hidden)
        if found is None:
            groups = list(self.groups)
            modifiers: list[int] = []
            for (slot, _, _, base), reference in zip(self.objects, self.referenced, strict=True):
                base |= _HIDDEN if hidden[reference] else _KNOWN
                groups[slot] = base
                modifiers.append(base)
            found = self.marked[hidden] = (tuple(groups), self.template % tuple(modifiers))
        return found

    def put(
        self,
        text: str,
        objects: _Objects | None,
        comment: t.Span | None,
        data: list[int],
        parts: list[str],
    ) -> None:
        """Adds a line's groups to `data` and their JSON to `parts`, given the objects the
        line names as they stand after it."""
        groups = self.groups
        if objects and self.objects:
            at = len(data)
            data.extend(groups)
            modifiers: list[int] = []
            for slot, start, end, base in self.objects:
                digits = text[start:end]
                if digits.isdigit():
                    number = int(digits)
                    for named, name in objects:
                        if named == number:
                            base |= _HIDDEN if name is None else _KNOWN
                            break
                data[at + slot] = base
                modifiers.append(base)
            parts.append(self.template % tuple(modifiers))
        elif groups:
            data.extend(groups)
            parts.append(self.written)
        if comment is not None and comment.end > comment.start:
            tail = (comment.start - max(self.last_start, 0), comment.end - comment.start)
            if groups:
                data.append(0)  # same line as the token before
                parts.append("0")
            data.extend((*tail, _COMMENT_TYPE, 0))
            parts.append(f"{_written(tail)},{_COMMENT_TYPE},0")


def _shape_of(shapes: dict[int, _Shape], text: str, parsed: t.ParsedLine) -> _Shape:
    """The shape of a line that parses (its columns counted in characters), made from it
    the first time."""
    columns = parsed.token_columns
    shape = shapes.get(id(columns))
    if (
        shape is None
        or shape.columns is not columns
        or shape.offset != parsed.offset
        or shape.kind is not type(parsed.statement)
    ):
        shape = shapes[id(columns)] = _shape(text, parsed)
    return shape


def _shape(text: str, parsed: t.ParsedLine) -> _Shape:
    statement = parsed.statement
    causes, introduced = _marked(statement)
    offset = parsed.offset
    encoded: list[int] = []
    slots: list[str] = []
    objects: list[tuple[int, int, int, int]] = []
    previous = 0
    last_start = -1
    for start, end, kind in parsed.token_columns:
        if end <= start:
            continue
        start += offset
        end += offset
        modifiers = 0
        if kind is _OBJECT:
            if introduced is not None and introduced.start == start and introduced.end == end:
                modifiers |= _DECLARATION
        elif kind is _KEYWORD and text[start:end] in CAUSE_WORDS:
            modifiers = _CAUSE
        if causes and (start, end) in causes:
            modifiers |= _CAUSE
        if encoded:
            encoded.append(0)  # same line as the token before
            slots.append("0")
        group = (start - previous, end - start, _TYPE_OF_KIND_ID[id(kind)])
        encoded += (*group, modifiers)
        slots += (_written(group), "%d" if kind is _OBJECT else str(modifiers))
        if kind is _OBJECT:
            objects.append((len(encoded) - 1, start + 1, end, modifiers))
        previous = last_start = start
    groups = tuple(encoded)
    references = statement.objects if statement is not None else ()
    spans = [(reference.span.start + 1, reference.span.end) for reference in references]
    referenced = tuple(
        spans.index((start, end)) for _, start, end, _ in objects if (start, end) in spans
    )
    return _Shape(
        parsed.token_columns,
        offset,
        type(statement),
        groups,
        _written(groups),
        ",".join(slots),
        tuple(objects),
        last_start,
        len(references) if len(referenced) == len(objects) else -1,
        referenced,
    )


# the key of `_Shape.marked` for a line naming one object, by whether it is hidden
_ALONE = ((False,), (True,))


@dataclass
class _Chunk:
    """The groups of a stretch of lines, kept while its lines and the objects they name
    are the same; its first token's line delta is left to whoever places it."""

    lines: list[Line]
    objects: list[_Objects | None]  # what the walk kept for each line (None: nothing)
    first: int  # the first line with a token, counted from the chunk's start; -1: none
    last: int  # the last line with a token, the same way
    data: list[int]
    written: str  # `data` as JSON, without the brackets
    kept: bool  # False when a line does not parse (its colours come from the state)


def _encode_whole(document: OpenDocument) -> tuple[list[tuple[int, _Chunk]], list[str]]:
    """`encode` of the whole document, and the same as JSON pieces, a chunk at a time
    (`per_line.chunk_starts`)."""
    lines = document.document.lines
    ids, starts = line_chunks(document)
    objects_after = document.walk.objects_after
    remembered = _remembered(document)
    chunks: dict[int, _Chunk] = {}
    parts: list[tuple[int, _Chunk]] = []
    pieces: list[str] = []
    previous_line = 0
    for start, end in pairwise(starts):
        objects = list(map(objects_after.get, ids[start:end]))
        chunk = remembered.chunks.get(ids[start])
        if (
            chunk is None
            or not chunk.kept
            or chunk.objects != objects
            or chunk.lines != lines[start:end]
        ):
            chunk = _chunk(document, start, end, objects)
        chunks[ids[start]] = chunk
        if chunk.first >= 0:
            delta = start + chunk.first - previous_line
            parts.append((delta, chunk))
            pieces.append(str(delta))
            pieces.append(chunk.written)
            previous_line = start + chunk.last
    remembered.chunks = chunks
    if len(remembered.lines) > 2 * len(lines):  # forget the lines edits removed
        alive = set(ids)
        for line_id in [i for i in remembered.lines if i not in alive]:
            del remembered.lines[line_id]
    if len(remembered.shapes) > len(lines):  # shapes edits left behind: made again if asked
        remembered.shapes.clear()
    return parts, pieces


def _chunk(document: OpenDocument, start: int, end: int, objects: list[_Objects | None]) -> _Chunk:
    """A chunk's groups, each line's from its shape where it parses (`_line_encoded`, its
    usual case in line here: the first request after a long record opens asks it of every
    line). A line with a comment, or not ASCII, or that does not parse, goes the long way
    (`_line_encoded`)."""
    lines = document.document.lines[start:end]
    texts = document.document.texts[start:end]
    remembered = _remembered(document)
    shapes = remembered.shapes
    data: list[int] = []
    parts: list[str] = []
    first = -1
    previous = start
    kept = True
    for line, entry, text, named in zip(range(start, end), lines, texts, objects, strict=True):
        parsed = entry.parsed
        columns = parsed.token_columns
        shape = shapes.get(id(columns))
        if (
            shape is not None
            and shape.columns is columns
            and shape.offset == parsed.offset
            and shape.kind is type(parsed.statement)
            and parsed.error is None
            and parsed.comment is None
            and text.isascii()
        ):
            if not (named and shape.objects):  # shared by its shape's lines
                groups, written = shape.groups, shape.written
            else:  # `marked_by`, its usual case (one object) in line
                encoded = (
                    shape.marked.get(_ALONE[named[0][1] is None])
                    if len(named) == shape.references == 1
                    else None
                ) or shape.marked_by(named)
                groups, written = encoded or _line_encoded(document, line, remembered)
        else:
            kept = kept and parsed.error is None
            groups, written = _line_encoded(document, line, remembered)
        if not groups:
            continue  # no token: a blank line
        if first < 0:
            first = line - start
        else:
            delta = line - previous
            data.append(delta)
            parts.append(_DIGITS[delta] if delta < _SMALL else str(delta))
        data.extend(groups)
        parts.append(written)
        previous = line
    return _Chunk(lines, objects, first, previous - start, data, ",".join(parts), kept)


def _objects_before(document: OpenDocument, line: int) -> tuple[tuple[int, str | None], ...]:
    """The `#N` a line that does not parse looks like it names, as they stand before it."""
    text = document.document.texts[line]
    numbers = [int(match[1:]) for match in re.findall(r"#[0-9]{1,9}\b", text)]
    if not numbers:
        return ()
    state = document.state_before(line)
    return tuple((n, obj.name) for n in numbers if (obj := state.obj(n)) is not None)


def _encode_line(tokens: list[tuple[int, int, int, int]]) -> tuple[int, ...]:
    """A line's groups as they stand in the answer, but the first group's line delta,
    which depends on the line before: that one the caller puts in front."""
    encoded: list[int] = []
    previous_start = 0
    for start, length, kind, modifiers in tokens:
        if encoded:
            encoded.append(0)  # same line as the token before
        encoded.extend((start - previous_start, length, kind, modifiers))
        previous_start = start
    return tuple(encoded)


@dataclass
class _Sent:
    """The last whole-document answer: the next delta request is an edit of it."""

    result_id: str
    walk: Walk
    # the chunks with tokens, each with the line delta of its first token: 766,000
    # numbers on 50,000 lines, kept as the chunks hold them
    parts: list[tuple[int, _Chunk]]
    pieces: list[str]  # `data` as JSON, in pieces
    written: RawResult | None = None  # the whole answer as JSON, once asked for

    @property
    def data(self) -> list[int]:
        return _flat(self.parts)

    def json(self) -> RawResult:
        if self.written is None:
            head = f'{{"resultId":"{self.result_id}","data":['
            self.written = raw_joined(head, self.pieces, "]}")
        return self.written


_Objects = tuple[tuple[int, str | None], ...]


@dataclass
class _Remembered:
    """What highlighting keeps of an open document: the last answer, and each line's
    tokens with the parse and objects they came from (an edit changes a few lines only)."""

    sent: _Sent | None = None
    # the groups and JSON of a line not encoded from its shape (it does not parse, or is
    # counted in characters), with the parse and objects they came from
    lines: dict[int, tuple[t.ParsedLine, _Objects, tuple[tuple[int, ...], str]]] = field(
        default_factory=dict
    )
    # the shapes of the lines that parse, by the id of their token columns (kept in the value)
    shapes: dict[int, _Shape] = field(default_factory=dict)
    chunks: dict[int, _Chunk] = field(default_factory=dict)  # by the id of the first line


# Gone with the document when it closes.
_REMEMBERED: WeakKeyDictionary[OpenDocument, _Remembered] = WeakKeyDictionary()
_RESULT_IDS = count(1)


def _remembered(document: OpenDocument) -> _Remembered:
    found = _REMEMBERED.get(document)
    if found is None:
        found = _REMEMBERED[document] = _Remembered()
    return found


def prepared_in_steps(document: OpenDocument, lines_per_step: int) -> Iterator[None]:
    """Builds the chunks of the whole document's answer (`_encode_whole` finds them kept),
    pausing after about `lines_per_step` lines: the first answer after a long record
    opens is then mostly joining what is ready. The caller stops when the text changes."""
    ids, starts = line_chunks(document)
    yield  # that alone read every line's id
    objects_after = document.walk.objects_after
    chunks = _remembered(document).chunks
    done = 0
    for start, end in pairwise(starts):
        if ids[start] not in chunks:
            chunks[ids[start]] = _chunk(
                document, start, end, list(map(objects_after.get, ids[start:end]))
            )
        if end - done >= lines_per_step:
            done = end
            yield


def current(document: OpenDocument) -> _Sent:
    """The tokens of the document as it is now: encoded again, with a new result id, only
    after an edit (every edit makes a new walk)."""
    remembered = _remembered(document)
    sent = remembered.sent
    if sent is not None and sent.walk is document.walk:
        return sent
    walk = document.walk
    sent = remembered.sent = _Sent(str(next(_RESULT_IDS)), walk, *_encode_whole(document))
    return sent


def edit_of_chunks(
    old: list[tuple[int, _Chunk]], new: list[tuple[int, _Chunk]]
) -> types.SemanticTokensEdit:
    """`edit_between` the data of two answers, compared a chunk at a time first: the
    chunks an edit left alone (the same, at the same line delta) are not looked into."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and _same_part(old[head], new[head]):
        head += 1
    tail = 0
    while tail < limit - head and _same_part(old[-1 - tail], new[-1 - tail]):
        tail += 1
    edit = edit_between(_flat(old[head : len(old) - tail]), _flat(new[head : len(new) - tail]))
    edit.start += sum(1 + len(chunk.data) for _, chunk in old[:head])
    return edit


def _same_part(old: tuple[int, _Chunk], new: tuple[int, _Chunk]) -> bool:
    return old[0] == new[0] and (old[1] is new[1] or old[1].data == new[1].data)


def _flat(parts: Sequence[tuple[int, _Chunk]]) -> list[int]:
    data: list[int] = []
    for delta, chunk in parts:
        data.append(delta)
        data.extend(chunk.data)
    return data


def edit_between(old: list[int], new: list[int]) -> types.SemanticTokensEdit:
    """One edit turning `old` into `new`: what lies between their common ends. An edit
    changes a line or a few, so the rest of a long document is never sent again."""
    prefix = common_length(old, new, 1)
    limit = min(len(old), len(new)) - prefix
    suffix = min(common_length(old, new, -1), limit)
    return types.SemanticTokensEdit(
        start=prefix, delete_count=len(old) - prefix - suffix, data=new[prefix : len(new) - suffix]
    )


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def semantic_tokens_full(
        params: types.SemanticTokensParams,
    ) -> types.SemanticTokens | RawResult:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return types.SemanticTokens(data=[])
        return current(document).json()

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
    def semantic_tokens_delta(
        params: types.SemanticTokensDeltaParams,
    ) -> types.SemanticTokens | types.SemanticTokensDelta | RawResult:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return types.SemanticTokens(data=[])
        previous = _remembered(document).sent
        sent = current(document)
        if previous is None or previous.result_id != params.previous_result_id:
            return sent.json()
        if previous is sent:
            return types.SemanticTokensDelta(result_id=sent.result_id, edits=[])
        edit = edit_of_chunks(previous.parts, sent.parts)
        return types.SemanticTokensDelta(result_id=sent.result_id, edits=[edit])

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
    def semantic_tokens_range(params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
        """What a client shows first in a long document: the lines on screen."""
        document = server.session.get(params.text_document.uri)
        if document is None:
            return types.SemanticTokens(data=[])
        first, last = params.range.start.line, params.range.end.line
        return types.SemanticTokens(data=encode(document, first, last))
