"""Text to statements, one line at a time. Parsing never fails: a line that does not parse
gives a `LineError` with exact columns, and the next line is parsed as if nothing happened.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import fields
from functools import cache, lru_cache
from importlib import resources
from operator import attrgetter
from types import CodeType, FunctionType
from typing import Any

from parsimonious.grammar import Grammar
from parsimonious.nodes import Node

from mtgr.syntax import tree as t
from mtgr.syntax.cache import ParseCache
from mtgr.syntax.expectations import (
    Failure,
    closest_word,
    find_failure,
    format_failure,
    words_of,
)

GRAMMAR = Grammar(resources.files("mtgr.syntax").joinpath("mtgr.peg").read_text(encoding="utf-8"))
_STATEMENT = GRAMMAR["statement"]

MAX_NUMBER_DIGITS = 9


def grammar_words(rule: str) -> tuple[str, ...]:
    """The words of a grammar rule that is one alternation of words (`kind`, `cast_mode`,
    `duration`...), so that completion offers exactly what the parser accepts."""
    words = words_of(GRAMMAR[rule])
    if not words:
        raise ValueError(f"grammar rule {rule} is not an alternation of words")
    return words


_ALLOW = re.compile(r"\ballow\s*:?\s*((?:[A-Z]+[0-9]+)(?:\s*,?\s*[A-Z]+[0-9]+)*)")
_ALLOW_CODE = re.compile(r"[A-Z]+[0-9]+")
_ESCAPE = re.compile(r"\\(.)")
# An unterminated string runs to the end of the line (keeping a last lone backslash), so
# that no string is scanned twice: without that, `"\"\"\...` took quadratic time.
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*(?:(?P<close>\")|(?P<open>\\?)$)")
_NONZERO_DIGITS = "123456789"
_DIGITS_TO_ZERO = bytes.maketrans(_NONZERO_DIGITS.encode(), b"0" * len(_NONZERO_DIGITS))


class _NumberTooLarge(Exception):
    def __init__(self, columns: tuple[int, int]) -> None:
        self.columns = columns


def split_comment(line: str) -> tuple[int, int, t.Span | None]:
    """The columns of the statement part and of the `//` comment, outside strings."""
    n = len(line)
    comment: t.Span | None = None
    first = line.find("//")  # most lines have no comment: nothing to scan
    if first >= 0 and line.find("\\", 0, first) < 0 and not line.count('"', 0, first) % 2:
        # no escape before it and every string before it closed: the first "//" starts it
        comment = t.Span(first, len(line.rstrip()))
        n = first
    elif first >= 0:
        in_string = False
        i = 0
        while i < n:
            ch = line[i]
            if in_string:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "/" and line.startswith("//", i):
                comment = t.Span(i, len(line.rstrip()))
                n = i
                break
            i += 1
    code = line[:n]
    stripped_left = len(code) - len(code.lstrip(" \t\ufeff"))
    end = len(code.rstrip())
    return stripped_left, max(end, stripped_left), comment


def _shape(text: str) -> str:
    """The line with digits and string contents masked: lines of one shape parse alike."""
    if '"' in text:
        if "\\" in text or "\n" in text:  # escapes, or a "$" that a line break would meet
            text = _STRING.sub(_mask, text)
        else:  # every other quote opens a string, the last one perhaps to the line's end
            parts = text.split('"')
            parts[1::2] = ["x" * len(inside) for inside in parts[1::2]]
            text = '"'.join(parts)
    if text.isascii():  # with strings masked, nearly every line: bytes translate quickest
        return text.encode().translate(_DIGITS_TO_ZERO).decode()
    for digit in _NONZERO_DIGITS:  # str.replace is much quicker than str.translate
        text = text.replace(digit, "0")
    return text


def _mask(match: re.Match[str]) -> str:
    found = match.group()
    if match.group("close") is not None:
        return '"' + "x" * (len(found) - 2) + '"'
    tail = match.group("open") or ""  # unterminated: a last lone backslash is kept
    return '"' + "x" * (len(found) - 1 - len(tail)) + tail


# the parse of each shape seen lately (see mtgr.syntax.cache)
SHAPES: ParseCache[_Plan | Failure] = ParseCache(max_entries=8192, max_bytes=8 * 2**20)


# What each broad shape seen lately parses to: a broad shape is a shape with each run of
# digits one digit and each string empty. The grammar reads no digit's count but a date's
# and no string's contents, so a shape parses as its broad shape does, at columns moved by
# what was collapsed; a date's broad shape does not parse and its shape is parsed itself.
# A real record's 600 shapes are 150 broad ones. Kept for short shapes only, few of them.
BROAD_SHAPES: ParseCache[_Broad | bool] = ParseCache(max_entries=1024, max_bytes=2 * 2**20)
_BROAD_LENGTH = 160
_COLLAPSED = re.compile(r'"x+"|00+')


def _parse_shape(shape: str, owner: object = None) -> _Plan | Failure:
    found = SHAPES.get(shape, owner)
    if found is not None:
        return found
    if len(shape) <= _BROAD_LENGTH:
        collapsed = _COLLAPSED.split(shape)
        if len(collapsed) > 1:
            broad = _broad_plan(shape, collapsed, owner)
            plan = broad.moved(shape, _Columns(shape, collapsed)) if broad is not None else None
            if plan is not None:
                return SHAPES.put(shape, plan, owner)
    node = _statement_tree(shape)
    if node is not None:
        return SHAPES.put(shape, _Plan(_Tree(node, shape)), owner)
    return SHAPES.put(shape, find_failure(_STATEMENT, shape), owner)


def _broad_plan(shape: str, between: list[str], owner: object) -> _Broad | None:
    """What a shape's broad shape parses to (`between`: the shape's parts between the runs
    collapsed), None if it does not parse."""
    runs = _COLLAPSED.findall(shape)
    broad = between[0] + "".join(
        f"{run[0]}{run[-1]}{rest}" if run[0] == '"' else f"0{rest}"
        for run, rest in zip(runs, between[1:], strict=True)
    )
    found = BROAD_SHAPES.get(broad, owner)
    if found is None:
        node = _statement_tree(broad)
        found = BROAD_SHAPES.put(broad, _Broad(_Tree(node, broad)) if node else False, owner)
    return found or None


def _statement_tree(text: str) -> Node | None:
    try:
        node = _STATEMENT.match(text)
    except Exception as error:  # parsimonious raises ParseError; anything else is a grammar bug
        # parsimonious's frame holds the error it raises, a cycle that only the cyclic
        # collector frees (and the server runs it when idle): break it, so that the error
        # and the frames of its traceback go now
        error.__traceback__ = None
        return None
    return node if node.end == len(text) else None


class _Columns:
    """Where a column of a broad shape stands in its shape: moved right by what the runs
    before it lost. Parse trees' nodes start and end between tokens, never inside a run."""

    __slots__ = ("_moved", "_run_ends")

    def __init__(self, shape: str, between: list[str]) -> None:
        self._run_ends: list[int] = []  # in the broad shape
        self._moved = [0]
        broad_at = len(between[0])
        for run in _COLLAPSED.finditer(shape):
            kept = 2 if run.group()[0] == '"' else 1
            broad_at += kept
            self._run_ends.append(broad_at)
            self._moved.append(self._moved[-1] + run.end() - run.start() - kept)
            broad_at += len(between[len(self._run_ends)])

    def __call__(self, column: int) -> int:
        return column + self._moved[bisect_right(self._run_ends, column)]


def parse_line(line: str, owner: object = None) -> t.ParsedLine:
    """Parse one line (without its line end) into a statement or an error; the shape's
    parse is kept for `owner` (a document, see mtgr.syntax.cache)."""
    if "//" in line:
        start, end, comment = split_comment(line)
        allowed = _allowed_codes(line, comment)
    else:  # most lines: what split_comment does, without its scan and its call
        comment = None
        allowed = _NO_CODES
        start = len(line) - len(line.lstrip(" \t\ufeff"))
        end = len(line.rstrip())
    if start >= end:
        return t.ParsedLine(None, None, comment, allowed)
    text = line[start:end]
    result = _parse_shape(_shape(text), owner)
    if isinstance(result, Failure):
        err_start, err_end, message = format_failure(text, result)
        error = t.LineError("S001", message, t.Span(start + err_start, start + err_end))
        return t.ParsedLine(None, error, comment, allowed)
    if result.too_large is not None:
        err_start, err_end = result.too_large
        error = t.LineError(
            "S002",
            f"number too large: at most {MAX_NUMBER_DIGITS} digits are allowed",
            _shared_span(start + err_start, start + err_end),
        )
        return t.ParsedLine(None, error, comment, allowed)
    build = result.compiled
    statement = build(line, start) if build is not None else result.build(line, start)
    return _parsed_line(statement, None, comment, allowed, result.tokens, start)


def suggested_word(line: str) -> tuple[t.Span, str] | None:
    """Where a line stops parsing and the word the grammar takes there that is closest to
    the one written (`battelfield` -> `battlefield`), for a quick fix of the typo."""
    start, end, _ = split_comment(line)
    text = line[start:end]
    result = _parse_shape(_shape(text)) if start < end else None
    if not isinstance(result, Failure) or not result.expected:
        return None
    word_end = result.position
    while word_end < len(text) and not text[word_end].isspace():
        word_end += 1
    word = closest_word(text[result.position : word_end], result.words)
    return (t.Span(start + result.position, start + word_end), word) if word else None


# Shared parts of parsed lines. A 50,000-line record holds about 110,000 spans, 28,000
# words, 12,000 player names and 24,000 sets of silenced codes, nearly all equal to others:
# they are frozen, so equal ones are built once (the parsed record took 32 MB, now 19 MB).
# The caches are bounded and keep only short strings, so a closed document frees the rest.
_NO_CODES: frozenset[str] = frozenset()  # an empty frozenset is a new 216-byte object each time
# They are looked up by their values and columns: a Span's hash is Python code, ints' is not.
_shared_span = lru_cache(maxsize=16384)(t.Span)


@lru_cache(maxsize=16384)
def _shared_word(value: str, start: int, end: int) -> t.Word:
    return t.Word(value, _shared_span(start, end))


@lru_cache(maxsize=16384)
def _shared_player(name: str, start: int, end: int) -> t.PlayerRef:
    return t.PlayerRef(name, _shared_span(start, end))


@lru_cache(maxsize=16384)
def _shared_object(number: int, start: int, end: int) -> t.ObjectRef:
    return t.ObjectRef(number, _shared_span(start, end))


_SHARED_TEXT_LENGTH = 64  # longer names and texts are rare and not shared


def _short(value: str) -> bool:
    return len(value) <= _SHARED_TEXT_LENGTH


def _shared_text(value: str) -> str:
    """The one copy of a short repeated string (a card name, an effect's words)."""
    return sys.intern(value) if _short(value) else value


def _allowed_codes(line: str, comment: t.Span | None) -> frozenset[str]:
    if comment is None or line.find("allow", comment.start) < 0:  # a search costs 5 µs
        return _NO_CODES
    match = _ALLOW.search(line, comment.start)
    if not match:
        return _NO_CODES
    return frozenset(_ALLOW_CODE.findall(match.group(1)))


# ---- tree to statement ---------------------------------------------------------------

_PLAYER_QUOTES = frozenset(
    {
        "player_subject",
        "caster",
        "place_player",
        "searched_owner",
        "declared_player",
        "viewer",
        "starting_player",
        "active_player",
        "new_controller",
        "target",
        "defender",
        "recipient",
        "agent",
        "match_winner",
        "judged_player",
        "stated_owner",
        "host",
    }
)
_WORD_TOKENS = frozenset(
    {
        "kind",
        "cast_mode",
        "duration",
        "phase_name",
        "step_name",
        "position_end",
        "counter_kind",
        "die",
        "sideboard_way",
        "variant_name",
        "penalty",
        "remedy",
        "phasing",
        "designation_source",
        "coin_result",
    }
)
_LEAF_KINDS = {
    "object_ref": t.TokenKind.OBJECT,
    "zone": t.TokenKind.ZONE,
    "number": t.TokenKind.NUMBER,
    "signed": t.TokenKind.NUMBER,
    "version": t.TokenKind.NUMBER,
    "date": t.TokenKind.NUMBER,
    "arrow": t.TokenKind.OPERATOR,
    "mana": t.TokenKind.MANA,
    "score": t.TokenKind.NUMBER,
    "diagnostic_code": t.TokenKind.KEYWORD,
    "searched_zone": t.TokenKind.ZONE,
}
# Rules whose nodes become statement parts; the walk does not descend below them.
_PART_RULES = frozenset(
    {
        "object_subject",
        "player_subject",
        "identify_name",
        "card",
        "original",
        "source",
        "destination",
        "leave_to",
        "cast_from",
        "place",
        "kind",
        "entered_tapped",
        "snapshot_tapped",
        "attack_untapped",
        "cause",
        "replacements",
        "caster",
        "cast_mode",
        "ability_source",
        "target",
        "choice",
        "cost",
        "defender",
        "blocked",
        "recipient",
        "number",
        "signed",
        "counter_kind",
        "effect_text",
        "effect_on",
        "effect_until",
        "new_controller",
        "snapshot_counters",
        "drawn",
        "damage_commander",
        "searched_owner",
        "searched_zone",
        "die",
        "version",
        "title_text",
        "date",
        "declared_player",
        "deck_size",
        "viewer",
        "starting_player",
        "active_player",
        "phase_name",
        "step_name",
        "k_card",
        "k_hidden",
        "k_token",
        "k_copy",
        "sideboard_way",
        "sideboard_count",
        "match_winner",
        "score",
        "cast_tax",
        "variant_name",
        "k_commander",
        "judged_player",
        "penalty",
        "infraction",
        "trigger_source",
        "missed_designation",
        "remedy",
        "extra_turns",
        "diagnostic_code",
        "k_call",
        "k_penalty",
        "k_missed_trigger",
        "k_time",
        "k_backup",
        "entered_attacking",
        "entered_blocking",
        "owner_clause",
        "entered_attached",
        "host",
        "phasing",
        "snapshot_phased",
        "k_emblem",
        "designation_source",
        "damage_deathtouch",
        "entered_face_down",
        "entered_back",
        "produced",
        "cast_split_second",
        "damage_double_strike",
        "damage_trample",
        "snapshot_damage",
        "legend_kept",
        "ring_bearer",
        "room",
        "door",
        "cast_half",
        "snapshot_flipped",
        "melded",
        "ring_tempted",
        "coin_result",
    }
)


class _Tree:
    """A shape's parse tree read once: its form, its parts, its verb and its tokens."""

    def __init__(self, root: Node, shape: str) -> None:
        self.shape = shape
        self.parts: dict[str, list[Node]] = {}
        self.verb: Node | None = None
        self.phrase = ""
        tokens: list[tuple[int, int, t.TokenKind]] = []
        self._walk(root, "", False, tokens)
        self.tokens: tuple[tuple[int, int, t.TokenKind], ...] = tuple(tokens)

    def columns(self, node: Node) -> tuple[int, int]:
        """A node's columns, trailing blanks trimmed. Masking keeps a line's length and no
        node ends inside a string, so trimming the shape trims every line of it alike."""
        raw = self.shape[node.start : node.end]
        return node.start, node.start + len(raw.rstrip(" \t"))

    def _walk(
        self, node: Node, parent: str, inside_part: bool, tokens: list[tuple[int, int, t.TokenKind]]
    ) -> None:
        name = node.expr_name
        if name.endswith(("_phrase", "_header", "_statement")) and name not in _DISPATCHERS:
            self.phrase = name
        if name.startswith("v_"):
            self.verb = node
            tokens.append((*self.columns(node), t.TokenKind.VERB))
            return
        if name in _PART_RULES and not inside_part:
            self.parts.setdefault(name, []).append(node)
            inside_part = True
        if name.startswith("k_") or name in _WORD_TOKENS:
            tokens.append((*self.columns(node), t.TokenKind.KEYWORD))
        elif name == "quoted":
            kind = t.TokenKind.PLAYER if parent in _PLAYER_QUOTES else t.TokenKind.STRING
            tokens.append((*self.columns(node), kind))
        elif name in _LEAF_KINDS:
            tokens.append((*self.columns(node), _LEAF_KINDS[name]))
        else:
            child_parent = name or parent
            for child in node.children:
                self._walk(child, child_parent, inside_part, tokens)


_DISPATCHERS = frozenset({"object_statement", "player_statement", "keyword_statement"})


class _Plan:
    """What every line of one shape parses to: its tokens, and its statement as a function of
    the line, or the columns of a number too large to read.

    Made once a shape; the shape's parse tree is not kept. The first lines of a shape are
    built from its template; the shape is compiled (`_compile`) once it has served
    COMPILED_AFTER lines, since compiling costs about what building a few lines does and
    most shapes of a short record serve only a few."""

    __slots__ = ("_template", "_uses", "compiled", "tokens", "too_large")

    def __init__(
        self,
        tree: _Tree | None,
        template: _Template = None,
        tokens: tuple[tuple[int, int, t.TokenKind], ...] = (),
        compiled: Callable[[str, int], t.Statement] | None = None,
    ) -> None:
        """From a shape's parse tree, or its template or compiled function and its tokens
        (see `_Broad.moved`)."""
        # `build(line, offset)`, once compiled (a bound method here would be a cycle)
        self.compiled = compiled
        self.too_large: tuple[int, int] | None = None
        self._uses = 0
        self._template = template
        self.tokens = tokens
        if tree is not None:
            self.tokens = tree.tokens
            try:
                self._template = _Builder(tree).statement()
            except _NumberTooLarge as too_large:
                self.too_large = too_large.columns

    def build(self, line: str, offset: int) -> t.Statement:
        """The statement of a line of this shape that starts at `offset`."""
        if self.compiled is not None:
            return self.compiled(line, offset)
        self._uses += 1
        if self._uses < COMPILED_AFTER:
            return _instantiate(self._template, line, offset, {})  # type: ignore[return-value]
        self.compiled = _compile(self._template)
        self._template = None
        return self.compiled(line, offset)


COMPILED_AFTER = 3


class _Broad:
    """What a broad shape parses to, its template and tokens at the broad shape's columns,
    from which each shape of it gets its plan without a parse of its own."""

    __slots__ = ("_shapes", "_shared", "template", "tokens")

    def __init__(self, tree: _Tree) -> None:
        self.tokens = tree.tokens
        self.template: _Template = _Builder(tree).statement()  # 1-digit numbers: never too large
        self._shapes = 0  # the shapes it served before its template was compiled
        # its compiled template once it has served COMPILED_AFTER shapes (False: none)
        self._shared: _Shared | bool | None = None

    def moved(self, shape: str, columns: _Columns) -> _Plan | None:
        """The plan of a shape of this broad shape; None when a number of it is too large
        (the shape's own parse says which one)."""
        shared = self._shared
        if shared is None:
            self._shapes += 1
            if self._shapes >= COMPILED_AFTER:
                shared = self._shared = _Shared.of(self.template) or False
        tokens = tuple((columns(start), columns(end), kind) for start, end, kind in self.tokens)
        try:
            build = shared.build(shape, columns) if shared else None
            if build is not None:
                return _Plan(None, None, tokens, build)
            template = _moved(self.template, shape, columns, {})
        except _NumberTooLarge:
            return None
        return _Plan(None, template, tokens)


def _moved(part: object, shape: str, columns: _Columns, made: dict[int, object]) -> object:
    """A broad shape's template (or a part) at a shape's columns (shared stays shared)."""
    return _rebuilt(part, lambda leaf: _moved_leaf(leaf, shape, columns), made)


def _moved_leaf(leaf: _Leaf, shape: str, columns: _Columns) -> _Leaf:
    start, end = columns(leaf.start), columns(leaf.end)
    digits = end - start - 1 if leaf.kind == "object" else 0
    if leaf.kind == "number":
        digits = len(shape[start:end].lstrip("+-"))
    if digits > MAX_NUMBER_DIGITS:
        raise _NumberTooLarge((start, end))
    return _Leaf(leaf.kind, (start, end), shape)


def _rebuilt(
    part: object, leaf_value: Callable[[_Leaf], object], made: dict[int, object]
) -> object:
    """A template (or a part) with each leaf replaced by `leaf_value(leaf)`; each part is
    rebuilt once, so what the template shares stays shared."""
    if part is None:
        return None
    found = made.get(id(part))
    if found is None:
        if type(part) is _Leaf:
            found = leaf_value(part)
        else:
            values = [_rebuilt(item, leaf_value, made) for item in _parts(part)]
            found = tuple(values) if type(part) is tuple else _construct(type(part), values)
        made[id(part)] = found
    return found


class _Leaf:
    """Where a statement holds a value of its line: a kind of value and the columns it is
    read from, the same in every line of a shape. A fixed leaf is the same in every line
    of the shape that starts at the same column: a span, or a word without digits."""

    __slots__ = ("end", "fixed", "kind", "start")

    def __init__(self, kind: str, columns: tuple[int, int], shape: str) -> None:
        self.kind = kind
        self.start, self.end = columns
        self.fixed = kind == "span" or (
            kind in ("word", "raw") and "0" not in shape[self.start : self.end]
        )


# A template: a statement whose leaves (words, numbers, references, texts, spans) are _Leafs.
_Template = Any


class _Builder:
    """Builds the template of a shape's statement: its types and structure, which every line
    of the shape shares, with a `_Leaf` for each value a line has of its own."""

    def __init__(self, tree: _Tree) -> None:
        self.tree = tree
        self.parts = tree.parts
        self.verb: _Template = self.word(tree.verb) if tree.verb is not None else None

    def statement(self) -> _Template:
        return _BUILDERS[self.tree.phrase](self)

    def find(self, node: Node | None, name: str) -> Node | None:
        return _find(node, name)

    # -- leaves
    def span(self, node: Node) -> _Template:
        return _Leaf("span", self.tree.columns(node), self.tree.shape)

    def raw(self, node: Node) -> _Template:
        return _Leaf("raw", self.tree.columns(node), self.tree.shape)

    def word(self, node: Node) -> _Template:
        return _Leaf("word", self.tree.columns(node), self.tree.shape)

    def integer(self, node: Node) -> _Template:
        """A number, unless it has too many digits (masking keeps their count)."""
        start, end = columns = self.tree.columns(node)
        if len(self.tree.shape[start:end].lstrip("+-")) > MAX_NUMBER_DIGITS:
            raise _NumberTooLarge(columns)
        return _Leaf("number", columns, self.tree.shape)

    def object_ref(self, node: Node) -> _Template:
        start, end = columns = self.tree.columns(self.find(node, "object_ref"))
        if end - start - 1 > MAX_NUMBER_DIGITS:
            raise _NumberTooLarge(columns)
        return _Leaf("object", columns, self.tree.shape)

    def text(self, node: Node) -> _Template:
        return _Leaf("text", self.tree.columns(self.find(node, "quoted")), self.tree.shape)

    def player(self, node: Node) -> _Template:
        return _Leaf("player", self.tree.columns(self.find(node, "quoted")), self.tree.shape)

    def reference(self, node: Node) -> _Template:
        if self.find(node, "object_ref") is not None:
            return self.object_ref(node)
        return self.player(node)

    def place(self, node: Node) -> _Template:
        place = self.find(node, "place")
        zone = self.word(self.find(place, "zone"))
        player_node = self.find(place, "place_player")
        position_node = self.find(place, "position")
        position = None
        if position_node is not None:
            depth_node = self.find(position_node, "position_depth")
            position = t.Position(
                self.word(self.find(position_node, "position_end")),
                self.integer(depth_node) if depth_node is not None else None,
            )
        return t.Place(
            zone, self.player(player_node) if player_node else None, position, self.span(place)
        )

    def cause(self) -> _Template:
        node = self.one("cause")
        if node is None:
            return None
        agent_node = self.find(node, "agent")
        keyword = self.span(self.find(node, "k_by"))
        if self.find(agent_node, "object_ref") is not None:
            return t.Cause(keyword, self.object_ref(agent_node))
        if self.find(agent_node, "quoted") is not None:
            return t.Cause(keyword, self.player(agent_node))
        return t.Cause(keyword, t.Sba(self.span(agent_node)))

    # -- parts
    def one(self, name: str) -> Node | None:
        nodes = self.parts.get(name)
        return nodes[0] if nodes else None

    def all(self, name: str) -> list[Node]:
        return self.parts.get(name, [])

    def common(self) -> dict[str, object]:
        node = self.one("replacements")
        replacements: tuple[_Template, ...] = ()
        keyword = None
        if node is not None:
            keyword = self.span(self.find(node, "k_replacement"))
            replacements = tuple(self.object_ref(r) for r in _find_all(node, "replacing"))
        return {
            "verb": self.verb,
            "span": _Leaf("span", (0, len(self.tree.shape)), self.tree.shape),
            "cause": self.cause(),
            "replacements": replacements,
            "replacement_keyword": keyword,
        }

    def object_common(self) -> dict[str, object]:
        fields = self.common()
        fields["subject"] = self.object_ref(self.one("object_subject"))
        name = self.one("identify_name")
        fields["name"] = self.text(name) if name is not None else None
        return fields

    def player_common(self) -> dict[str, object]:
        fields = self.common()
        fields["subject"] = self.player(self.one("player_subject"))
        return fields

    def optional(self, name: str, convert: Callable[[Node], object]) -> object:
        node = self.one(name)
        return convert(node) if node is not None else None


# ---- templates compiled --------------------------------------------------------------
#
# Building a statement through the parse tree took most of the time of opening a record
# (dozens of lookups and calls a line). A shape's template is compiled instead into one
# Python function, `build(line, offset)`, that reads each value from the line at its
# columns and makes the statement's objects directly. The source names only the tree's
# types and the helpers below, never text of the line, and leaves its columns as
# parameters: shapes that differ only in where their parts stand share one compiled
# factory, which makes each shape's function with its own columns.


def _line_text(raw: str, span: t.Span) -> t.Text:
    value = _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
    return t.Text(_shared_text(value), span)


def _line_player(raw: str, start: int, end: int) -> t.PlayerRef:
    name = _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw
    if _short(name):
        return _shared_player(sys.intern(name), start, end)
    return t.PlayerRef(name, _shared_span(start, end))


# What a leaf of each kind that holds a value of its line's own reads, with `{s}` and `{e}`
# its columns in the line (the other kinds are fixed parts: see `_instantiate`).
_LEAF_CODE = {
    "raw": "line[{s}:{e}]",
    "short word": "W(intern(line[{s}:{e}]), {s}, {e})",
    "word": "Word(line[{s}:{e}], S({s}, {e}))",
    "number": "Number(int(line[{s}:{e}]), S({s}, {e}))",
    "object": "O(int(line[{s} + 1:{e}]), {s}, {e})",
    "text": "line_text(line[{s} + 1:{e} - 1], S({s}, {e}))",
    "player": "line_player(line[{s} + 1:{e} - 1], {s}, {e})",
}
_COMPILED_NAMES: dict[str, object] = {
    "S": _shared_span,
    "W": _shared_word,
    "O": _shared_object,
    "intern": sys.intern,
    "line_text": _line_text,
    "line_player": _line_player,
    "R": t.References,
    "NAMES_NONE": t.References((), (), ()),
    "set_named": t.set_references,
}
_OFFSETS_KEPT = 16  # the starting columns a shape keeps its fixed parts for
_DEFAULT_CODE = {None: "None", (): "()"}  # the defaults the tree's types have, as code


def _constructor(cls: type) -> str:
    """The name the compiled code calls to make a `cls` from its constructor's fields in
    order (defaults too); made on first use.

    It writes each slot directly: a frozen dataclass's own __init__ parses keywords and
    sets each field through object.__setattr__, which took most of the time of making a
    statement. The result is the same object: every field set, the others to their
    defaults (`Statement._references`). Classes whose fields follow one pattern (how many,
    which are defaults) share one compiled code, bound to each class's own slots."""
    name = cls.__name__
    if name not in _COMPILED_NAMES:
        every = fields(cls)
        values = tuple(f"a{i}" if f.init else _DEFAULT_CODE[f.default] for i, f in enumerate(every))
        setters = {
            f"set{i}": next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__).__set__
            for i, f in enumerate(every)
        }
        code = _constructor_code(values).replace(
            co_name=name, co_qualname=name, co_filename=f"<mtgr {name}>"
        )
        namespace = {"new": object.__new__, "cls": cls, **setters}
        _COMPILED_NAMES[name] = FunctionType(code, namespace, name)
    return name


@cache
def _constructor_code(values: tuple[str, ...]) -> CodeType:
    """The code of a constructor that sets slot i to `values[i]` (a parameter `a<i>`, or a
    default as code), compiled once for every class with that pattern: opening a real
    record made about fifty constructors of fifteen patterns, and compiling them was a
    third of what compiling cost there."""
    given = [value for value in values if value.startswith("a")]
    sets = "".join(f"    set{i}(self, {value})\n" for i, value in enumerate(values))
    source = f"def constructor({', '.join(given)}):\n    self = new(cls)\n{sets}    return self\n"
    module = compile(source, "<mtgr constructor>", "exec")
    return next(code for code in module.co_consts if isinstance(code, CodeType))


def direct_constructor(cls: type) -> Callable[..., Any]:
    """A frozen dataclass's constructor that takes its fields in order and sets each slot
    directly (see `_constructor`): for objects made once a line, such as the document's."""
    return _COMPILED_NAMES[_constructor(cls)]  # type: ignore[return-value]


_constructor(t.Word)
_constructor(t.Number)
# every line that parses makes one
_parsed_line: Callable[..., t.ParsedLine] = _COMPILED_NAMES[_constructor(t.ParsedLine)]  # type: ignore[assignment]


def _compile(template: _Template) -> Callable[[str, int], t.Statement]:
    """The function that builds, from a line of the template's shape and the column where
    its statement starts, the statement the template describes.

    Only what holds a value of each line's own is compiled. The fixed parts are made once
    for each column the shape starts at (a few a shape: a bounded table) and shared by
    its lines; a statement with nothing of its own is the same object for all of them."""
    source = _Source()
    result = source.value(template)
    if len(source.each) > _MOST_COMPILED_PARTS:  # compiling would cost more than it saves
        return lambda line, o: _instantiate(template, line, o, {})
    at, fixed = _fixed_parts(source.kept)
    if not source.each:  # nothing of each line's own: the statement is its one fixed part
        return lambda line, o: (at.get(o) or fixed(line, o))[0]
    return _factory(_code(template, result, source))(at, fixed, *source.columns)


def _code(template: _Template, result: str, source: _Source) -> str:
    """The source of a compiled template: a factory of `build(line, o)` that takes the
    template's fixed parts and its columns."""
    kept = "".join(f"k{i}, " for i in range(len(source.kept)))
    unpacked = f"        {kept}= at.get(o) or fixed(line, o)\n" if kept else ""
    parameters = "".join(f", c{i}" for i in range(len(source.columns)))
    return (
        f"def make(at, fixed{parameters}):\n    def build(line, o):\n"
        f"{unpacked}{''.join(source.each)}{_named_code(template, result, source)}"
        f"        return {result}\n    return build\n"
    )


class _Shared:
    """A broad shape's compiled template, which serves each of its shapes: they differ from
    it only in their columns, and the compiled code takes its columns as parameters. A
    shape gets its function from the columns moved (`_Columns`) and its fixed parts moved;
    no template of its own is made, instantiated or compiled."""

    __slots__ = ("_columns", "_factory", "_kept", "_leaves")

    def __init__(self, source: _Source, factory: Callable[..., Callable[[str, int], t.Statement]]):
        self._factory = factory
        self._kept = source.kept
        self._columns = source.columns
        self._leaves = source.leaves

    @staticmethod
    def of(template: _Template) -> _Shared | None:
        """None for a template compiled otherwise (too many parts, or none of its own)."""
        source = _Source()
        result = source.value(template)
        if not source.each or len(source.each) > _MOST_COMPILED_PARTS:
            return None
        return _Shared(source, _factory(_code(template, result, source)))

    def build(self, shape: str, columns: _Columns) -> Callable[[str, int], t.Statement] | None:
        """A shape's function; None when its code would differ (a word longer than those
        shared); raises _NumberTooLarge as `_moved_leaf` does."""
        for leaf in self._leaves:
            start, end = columns(leaf.start), columns(leaf.end)
            if leaf.kind == "word":
                if (end - start <= _SHARED_TEXT_LENGTH) != (
                    leaf.end - leaf.start <= _SHARED_TEXT_LENGTH
                ):
                    return None
            elif leaf.kind == "object" or leaf.kind == "number":
                _moved_leaf(leaf, shape, columns)
        made: dict[int, object] = {}
        at, fixed = _fixed_parts([_moved(part, shape, columns, made) for part in self._kept])
        return self._factory(at, fixed, *map(columns, self._columns))


def _named_code(template: _Template, result: str, source: _Source) -> str:
    """The code that gives a compiled statement what it names (`Statement.references`):
    the leaves that become references stand at the same columns in every line of the
    shape, so their order is known here, and the walk finds them made instead of searching
    each new statement's fields for them."""
    if not isinstance(template, t.Statement):
        return ""
    leaves = _template_references(template)
    if not leaves:
        return f"        set_named({result}, NAMES_NONE)\n"
    every = "(" + "".join(f"{source.value(leaf)}, " for leaf in leaves) + ")"
    players = [source.value(leaf) for leaf in leaves if leaf.kind == "player"]
    if not players:  # one tuple serves twice, as in `Statement._named`
        named = "R(r, (), r)"
    elif len(players) == len(leaves):
        named = "R(r, r, ())"
    else:
        objects = [source.value(leaf) for leaf in leaves if leaf.kind != "player"]
        named = f"R(r, ({', '.join(players)},), ({', '.join(objects)},))"
    return f"        r = {every}\n        set_named({result}, {named})\n"


def _template_references(template: t.Statement) -> list[_Leaf]:
    """The leaves of a statement's template that its lines' references are made from, in
    the order written: what `tree._collect_references` reads from a statement."""
    found: list[_Leaf] = []
    for value in t.reference_fields(type(template))(template):
        for item in value if type(value) is tuple else (value,):
            kind = type(item)
            if kind is t.Cause:
                item = item.agent
            elif kind is t.Place:
                item = item.player
            elif kind is t.CombatEntry:
                item = item.target
            if type(item) is _Leaf and item.kind in ("object", "player"):
                found.append(item)
    found.sort(key=_leaf_start)
    return found


def _leaf_start(leaf: _Leaf) -> int:
    return leaf.start


# A line with more parts than this (a target list of thousands) is made from its template:
# compiling a function of 2,000 parts took 0.4 s, more than building such lines for a while.
_MOST_COMPILED_PARTS = 200


class _Source:
    """The code that makes the parts of a template that hold a line's own values.

    (A class, not closures: closures that call themselves are reference cycles, garbage
    that only the cyclic collector frees.)"""

    def __init__(self) -> None:
        self.kept: list[object] = []  # the fixed parts that the parts made for each line hold
        self.each: list[str] = []  # the code that makes the parts of each line
        self.columns: list[int] = []
        self.leaves: list[_Leaf] = []  # the leaves the parts made for each line read
        self._names: dict[int, str] = {}  # a part's id -> its name in the code
        self._fixed: dict[int, bool] = {}

    def is_fixed(self, part: object) -> bool:
        key = id(part)
        found = self._fixed.get(key)
        if found is None:
            if part is None:
                found = True
            elif type(part) is _Leaf:
                found = part.fixed
            else:
                found = all(self.is_fixed(item) for item in _parts(part))
            self._fixed[key] = found
        return found

    def value(self, part: object) -> str:
        """A part's name in the code; each part once: shared stays shared."""
        if part is None or (type(part) is tuple and not part):
            return repr(part)
        name = self._names.get(id(part))
        if name is not None:
            return name
        if self.is_fixed(part):
            name = self._names[id(part)] = f"k{len(self.kept)}"
            self.kept.append(part)
            return name
        if type(part) is _Leaf:
            kind = part.kind
            if kind == "word" and part.end - part.start <= _SHARED_TEXT_LENGTH:
                kind = "short word"  # shared like any short string; its length is its shape's
            first = len(self.columns)
            self.columns.extend((part.start, part.end))
            self.leaves.append(part)
            expression = _LEAF_CODE[kind].format(s=f"o + c{first}", e=f"o + c{first + 1}")
        elif type(part) is tuple:
            expression = "(" + "".join(f"{self.value(item)}, " for item in part) + ")"
        else:
            arguments = ", ".join(self.value(item) for item in _parts(part))
            expression = f"{_constructor(type(part))}({arguments})"
        name = self._names[id(part)] = f"v{len(self.each)}"
        self.each.append(f"        {name} = {expression}\n")
        return name


def _parts(part: object) -> tuple[object, ...]:
    """A template's parts: a tuple's items, or a statement type's constructor fields."""
    if type(part) is tuple:
        return part
    read = _CONSTRUCTOR_FIELDS.get(type(part))
    if read is None:
        names = [f.name for f in fields(part) if f.init]  # type: ignore[arg-type]
        # one C call for all of them; attrgetter of one name gives the value, not a tuple
        getter = attrgetter(*names)
        read = _CONSTRUCTOR_FIELDS[type(part)] = (
            getter if len(names) > 1 else lambda value: (getter(value),)
        )
    return read(part)  # type: ignore[no-any-return]


_CONSTRUCTOR_FIELDS: dict[type, Callable[[object], tuple[object, ...]]] = {}


def _fixed_parts(
    parts: list[object],
) -> tuple[dict[int, tuple[object, ...]], Callable[[str, int], tuple[object, ...]]]:
    """The table of the fixed parts made for each starting column, and what makes them."""
    at: dict[int, tuple[object, ...]] = {}

    def fixed(line: str, offset: int) -> tuple[object, ...]:
        if len(at) >= _OFFSETS_KEPT:
            at.clear()
        made: dict[int, object] = {}
        found = at[offset] = tuple(_instantiate(part, line, offset, made) for part in parts)
        return found

    return at, fixed


def _instantiate(part: object, line: str, offset: int, made: dict[int, object]) -> object:
    """A template (or a part) made for a line (each part once: shared stays shared)."""
    return _rebuilt(
        part, lambda leaf: _leaf_value(leaf, line, offset + leaf.start, offset + leaf.end), made
    )


def _leaf_value(leaf: _Leaf, line: str, start: int, end: int) -> object:
    """What a leaf reads from a line at its columns; `_LEAF_CODE` compiles the same."""
    kind = leaf.kind
    if kind == "span":
        return _shared_span(start, end)
    if kind == "raw":
        return line[start:end]
    if kind == "word":
        if end - start <= _SHARED_TEXT_LENGTH:
            return _shared_word(sys.intern(line[start:end]), start, end)
        return _construct(t.Word, [line[start:end], _shared_span(start, end)])
    if kind == "number":
        return _construct(t.Number, [int(line[start:end]), _shared_span(start, end)])
    if kind == "object":
        return _shared_object(int(line[start + 1 : end]), start, end)
    if kind == "text":
        return _line_text(line[start + 1 : end - 1], _shared_span(start, end))
    return _line_player(line[start + 1 : end - 1], start, end)


def _construct(cls: type, values: list[object]) -> object:
    make = _CONSTRUCTORS.get(cls)
    if make is None:
        make = _CONSTRUCTORS[cls] = _COMPILED_NAMES[_constructor(cls)]  # type: ignore[assignment]
    return make(*values)  # type: ignore[operator]


_CONSTRUCTORS: dict[type, Callable[..., object]] = {}


@lru_cache(maxsize=1024)
def _factory(source: str) -> Callable[..., Callable[[str, int], t.Statement]]:
    """Compiles a template's source once; its globals are the tree's types and helpers."""
    defined: dict[str, Any] = {}
    exec(compile(source, "<mtgr statement template>", "exec"), _COMPILED_NAMES, defined)
    return defined["make"]


def _find(node: Node | None, name: str) -> Node | None:
    if node is None:
        return None
    if node.expr_name == name:
        return node
    for child in node.children:
        found = _find(child, name)
        if found is not None:
            return found
    return None


def _find_all(node: Node, name: str) -> list[Node]:
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.expr_name == name:
            found.append(current)
            continue
        stack.extend(reversed(current.children))
    return found


# ---- one builder a statement form ----------------------------------------------------

_Build = Callable[[_Builder], t.Statement]
_BUILDERS: dict[str, _Build] = {}


def _form(*phrases: str) -> Callable[[_Build], _Build]:
    def register(build: _Build) -> _Build:
        for phrase in phrases:
            _BUILDERS[phrase] = build
        return build

    return register


@_form("new_phrase")
def _new(b: _Builder) -> t.Statement:
    what = next(
        b.word(n)
        for key in ("k_card", "k_hidden", "k_token", "k_copy", "k_commander", "k_emblem")
        for n in b.all(key)
    )
    return t.New(
        **b.object_common(),
        what=what,
        card=b.optional("card", b.text),
        original=b.optional("original", b.object_ref),
        place=b.place(b.one("place")),
        owner=b.optional("owner_clause", b.player),
        back=b.optional("entered_back", b.word),
        tapped=b.optional("entered_tapped", b.word),
        face_down=b.optional("entered_face_down", b.word),
        attached=b.optional("entered_attached", b.reference),
        combat=_combat(b),
    )


def _combat(b: _Builder) -> t.CombatEntry | None:
    """`attacking "P" | #M` or `blocking #M` (decision 0020)."""
    for name, keyword, target in (
        ("entered_attacking", "k_attacking", "defender"),
        ("entered_blocking", "k_blocking", "blocked"),
    ):
        node = b.one(name)
        if node is not None:
            return t.CombatEntry(b.word(b.find(node, keyword)), b.reference(b.find(node, target)))
    return None


@_form("move_phrase")
def _move(b: _Builder) -> t.Statement:
    return t.Move(
        **b.object_common(),
        source=b.place(b.one("source")),
        destination=b.place(b.one("destination")),
        kind=b.optional("kind", b.word),
        back=b.optional("entered_back", b.word),
        tapped=b.optional("entered_tapped", b.word),
        face_down=b.optional("entered_face_down", b.word),
        attached=b.optional("entered_attached", b.reference),
        combat=_combat(b),
    )


@_form("identify_phrase")
def _identify(b: _Builder) -> t.Statement:
    return t.Identify(**b.object_common(), card=b.text(b.one("card")))


@_form("reveal_phrase")
def _reveal(b: _Builder) -> t.Statement:
    return t.Reveal(**b.object_common())


@_form("cast_phrase")
def _cast(b: _Builder) -> t.Statement:
    return t.Cast(
        **b.object_common(),
        caster=b.optional("caster", b.player),
        source=b.optional("cast_from", b.place),
        back=b.optional("entered_back", b.word),
        half=b.optional("cast_half", b.text),
        modes=tuple(b.word(n) for n in b.all("cast_mode")),
        tax=b.integer(b.find(b.one("cast_tax"), "number")) if b.one("cast_tax") else None,
        split_second=b.optional("cast_split_second", b.word),
    )


@_form("play_phrase")
def _play(b: _Builder) -> t.Statement:
    return t.Play(
        **b.object_common(),
        player=b.optional("caster", b.player),
        source=b.optional("cast_from", b.place),
        back=b.optional("entered_back", b.word),
        tapped=b.optional("entered_tapped", b.word),
    )


@_form("activate_phrase", "trigger_phrase")
def _ability(b: _Builder) -> t.Statement:
    return t.AbilityOf(**b.object_common(), source=b.object_ref(b.one("ability_source")))


@_form("target_phrase")
def _target(b: _Builder) -> t.Statement:
    return t.Target(**b.object_common(), targets=tuple(b.reference(n) for n in b.all("target")))


def _choice(b: _Builder, node: Node) -> t.ObjectRef | t.Text | t.Number:
    if b.find(node, "object_ref") is not None:
        return b.object_ref(node)
    if b.find(node, "quoted") is not None:
        return b.text(node)
    return b.integer(node)


@_form("choose_phrase")
def _choose(b: _Builder) -> t.Statement:
    return t.Choose(**b.object_common(), choices=tuple(_choice(b, n) for n in b.all("choice")))


def _cost(b: _Builder, node: Node) -> t.Text | t.LifeCost:
    life = b.find(node, "life_cost")
    if life is not None:
        return t.LifeCost(b.integer(b.find(life, "number")), b.span(life))
    mana = b.find(node, "mana")
    if mana is not None:
        return t.Text(b.raw(mana), b.span(mana))
    return b.text(node)


@_form("pay_phrase")
def _pay(b: _Builder) -> t.Statement:
    return t.Pay(**b.object_common(), costs=tuple(_cost(b, n) for n in b.all("cost")))


@_form("resolve_phrase", "fizzle_phrase", "countered_phrase")
def _leave(b: _Builder) -> t.Statement:
    return t.Leave(
        **b.object_common(),
        destination=b.optional("leave_to", b.place),
        back=b.optional("entered_back", b.word),
        tapped=b.optional("entered_tapped", b.word),
        attached=b.optional("entered_attached", b.reference),
        combat=_combat(b),
    )


@_form("tap_phrase", "untap_phrase")
def _tap(b: _Builder) -> t.Statement:
    return t.TapChange(**b.object_common())


@_form("attack_phrase")
def _attack(b: _Builder) -> t.Statement:
    return t.Attack(
        **b.object_common(),
        defender=b.reference(b.one("defender")),
        untapped=b.optional("attack_untapped", b.word),
    )


@_form("block_phrase")
def _block(b: _Builder) -> t.Statement:
    return t.Block(**b.object_common(), blocked=b.object_ref(b.one("blocked")))


@_form("damage_phrase")
def _damage(b: _Builder) -> t.Statement:
    return t.Damage(
        **b.object_common(),
        amount=b.integer(b.one("number")),
        recipient=b.reference(b.one("recipient")),
        deathtouch=b.optional("damage_deathtouch", b.word),
        double_strike=b.optional("damage_double_strike", b.word),
        trample=b.optional("damage_trample", b.word),
    )


@_form("counters_phrase")
def _object_counters(b: _Builder) -> t.Statement:
    return t.ObjectCounters(
        **b.object_common(),
        delta=b.integer(b.one("signed")),
        counter=b.word(b.one("counter_kind")),
    )


@_form("effect_phrase")
def _effect(b: _Builder) -> t.Statement:
    return t.Effect(
        **b.object_common(),
        text=b.text(b.one("effect_text")),
        on=b.optional("effect_on", b.object_ref),
        until=b.optional("effect_until", lambda n: b.word(b.find(n, "duration"))),
    )


@_form("control_phrase")
def _control(b: _Builder) -> t.Statement:
    return t.Control(
        **b.object_common(),
        controller=b.player(b.one("new_controller")),
        until=b.optional("effect_until", lambda n: b.word(b.find(n, "duration"))),
    )


@_form("attach_phrase", "unattach_phrase")
def _attach(b: _Builder) -> t.Statement:
    return t.Attach(**b.object_common(), host=b.optional("host", b.reference))


@_form("phasing_phrase")
def _phasing(b: _Builder) -> t.Statement:
    return t.Phasing(**b.object_common(), direction=b.word(b.one("phasing")))


@_form("transform_phrase")
def _transform(b: _Builder) -> t.Statement:
    return t.Transform(**b.object_common())


@_form("meld_phrase")
def _meld(b: _Builder) -> t.Statement:
    return t.Meld(**b.object_common(), other=b.object_ref(b.one("melded")))


@_form("flip_phrase")
def _flip(b: _Builder) -> t.Statement:
    return t.Flip(**b.object_common())


@_form("unlock_phrase")
def _unlock(b: _Builder) -> t.Statement:
    return t.Unlock(**b.object_common(), door=b.text(b.one("door")))


@_form("class_level_phrase")
def _class_level(b: _Builder) -> t.Statement:
    return t.ClassLevel(**b.object_common(), value=b.integer(b.one("number")))


@_form("hidden_phrase")
def _hidden(b: _Builder) -> t.Statement:
    return t.Hidden(**b.object_common())


@_form("turn_face_phrase")
def _turn_face_up(b: _Builder) -> t.Statement:
    return t.TurnFaceUp(**b.object_common())


@_form("regenerate_phrase")
def _regenerate(b: _Builder) -> t.Statement:
    return t.Regenerate(**b.object_common())


@_form("designation_trigger_phrase")
def _designation_trigger(b: _Builder) -> t.Statement:
    return t.AbilityOf(**b.object_common(), designation=b.word(b.one("designation_source")))


@_form("designation_phrase")
def _designation(b: _Builder) -> t.Statement:
    return t.Designation(**b.player_common())


@_form("legend_choice_phrase")
def _legend_choice(b: _Builder) -> t.Statement:
    return t.LegendChoice(**b.player_common(), kept=b.object_ref(b.one("legend_kept")))


@_form("ring_phrase")
def _ring(b: _Builder) -> t.Statement:
    tempted = b.one("ring_tempted")
    return t.RingTempts(
        **b.player_common(),
        bearer=b.optional("ring_bearer", b.object_ref),
        tempted=b.integer(b.find(tempted, "number")) if tempted is not None else None,
    )


@_form("venture_phrase")
def _venture(b: _Builder) -> t.Statement:
    return t.Venture(**b.player_common(), room=b.text(b.one("room")))


@_form("speed_phrase")
def _speed(b: _Builder) -> t.Statement:
    return t.Speed(**b.player_common(), value=b.integer(b.one("number")))


@_form("complete_phrase")
def _complete(b: _Builder) -> t.Statement:
    return t.Complete(**b.object_common())


@_form("day_night_statement")
def _day_night(b: _Builder) -> t.Statement:
    return t.DayNight(**b.common())


@_form("snapshot_object_phrase")
def _snapshot_object(b: _Builder) -> t.Statement:
    counters = tuple(
        (b.integer(b.find(n, "number")), b.word(b.find(n, "counter_kind")))
        for n in b.all("snapshot_counters")
    )
    place = b.place(b.one("place"))
    fields = b.object_common()
    fields["verb"] = place.zone  # a keyframe entry has no verb: its zone stands in
    return t.SnapshotObject(
        **fields,
        place=place,
        owner=b.optional("owner_clause", b.player),
        back=b.optional("entered_back", b.word),
        melded=b.optional("melded", b.object_ref),
        flipped=b.optional("snapshot_flipped", b.word),
        tapped=b.optional("snapshot_tapped", b.word),
        face_down=b.optional("entered_face_down", b.word),
        attached=b.optional("entered_attached", b.reference),
        phased_out=b.optional("snapshot_phased", b.word),
        damage=b.optional("snapshot_damage", lambda n: b.integer(b.find(n, "number"))),
        counters=counters,
    )


@_form("draw_phrase")
def _draw(b: _Builder) -> t.Statement:
    return t.Draw(
        **b.player_common(),
        drawn=b.object_ref(b.one("drawn")),
        card=b.optional("card", b.text),
    )


@_form("stays_tapped_phrase")
def _stays_tapped(b: _Builder) -> t.Statement:
    return t.StaysTapped(**b.object_common())


@_form("leaves_combat_phrase")
def _leaves_combat(b: _Builder) -> t.Statement:
    return t.LeavesCombat(**b.object_common())


@_form("mana_phrase")
def _mana(b: _Builder) -> t.Statement:
    produced = b.one("produced")
    return t.ManaAdded(**b.player_common(), mana=t.Text(b.raw(produced), b.span(produced)))


@_form("life_phrase")
def _life(b: _Builder) -> t.Statement:
    return t.Life(**b.player_common(), delta=b.integer(b.one("signed")))


@_form("player_counters_phrase")
def _player_counters(b: _Builder) -> t.Statement:
    return t.PlayerCounters(
        **b.player_common(),
        delta=b.integer(b.one("signed")),
        counter=b.word(b.one("counter_kind")),
    )


@_form("search_phrase", "shuffle_phrase")
def _library_action(b: _Builder) -> t.Statement:
    zone = b.one("searched_zone")
    return t.LibraryAction(
        **b.player_common(),
        zone=b.word(zone) if zone is not None else None,
        owner=b.optional("searched_owner", b.player),
    )


@_form("roll_phrase")
def _roll(b: _Builder) -> t.Statement:
    return t.Roll(**b.player_common(), die=b.word(b.one("die")), result=b.integer(b.one("number")))


@_form("coin_phrase")
def _coin(b: _Builder) -> t.Statement:
    return t.CoinFlip(**b.player_common(), result=b.word(b.one("coin_result")))


@_form("mulligan_phrase", "keep_phrase", "concede_phrase", "lose_phrase", "win_phrase")
def _player_action(b: _Builder) -> t.Statement:
    return t.PlayerAction(**b.player_common())


@_form("sideboard_phrase")
def _sideboard(b: _Builder) -> t.Statement:
    deck = b.one("deck_size")
    return t.Sideboard(
        **b.player_common(),
        way=b.optional("sideboard_way", b.word),
        count=b.optional("sideboard_count", b.integer),
        card=b.optional("card", b.text),
        deck=b.integer(b.find(deck, "number")) if deck is not None else None,
    )


@_form("snapshot_life_phrase", "snapshot_library_phrase")
def _snapshot_player(b: _Builder) -> t.Statement:
    return t.SnapshotPlayer(**b.player_common(), value=b.integer(b.one("number")))


@_form("snapshot_player_counters_phrase")
def _snapshot_player_counters(b: _Builder) -> t.Statement:
    return t.SnapshotPlayer(
        **b.player_common(),
        value=b.integer(b.one("number")),
        counter=b.word(b.one("counter_kind")),
    )


@_form("snapshot_commander_damage_phrase")
def _snapshot_commander_damage(b: _Builder) -> t.Statement:
    return t.SnapshotPlayer(
        **b.player_common(),
        value=b.integer(b.one("number")),
        commander=b.object_ref(b.one("damage_commander")),
    )


@_form("mtgr_header")
def _version(b: _Builder) -> t.Statement:
    return t.Header(**b.common(), value=b.word(b.one("version")))


@_form("title_header")
def _title(b: _Builder) -> t.Statement:
    return t.Header(**b.common(), value=b.text(b.one("title_text")))


@_form("rules_header")
def _rules(b: _Builder) -> t.Statement:
    return t.Header(**b.common(), value=b.word(b.one("date")))


@_form("variant_header")
def _variant(b: _Builder) -> t.Statement:
    return t.Header(**b.common(), value=b.word(b.one("variant_name")))


@_form("perspective_header")
def _perspective(b: _Builder) -> t.Statement:
    viewer = b.one("viewer")
    value = b.player(viewer) if b.find(viewer, "quoted") is not None else None
    return t.Header(**b.common(), value=value)


@_form("player_header")
def _player(b: _Builder) -> t.Statement:
    deck = b.one("deck_size")
    return t.PlayerDeclaration(
        **b.common(),
        player=b.player(b.one("declared_player")),
        deck=b.integer(b.find(deck, "number")) if deck is not None else None,
    )


@_form("start_statement")
def _start(b: _Builder) -> t.Statement:
    return t.Start(**b.common(), player=b.player(b.one("starting_player")))


@_form("game_statement")
def _game(b: _Builder) -> t.Statement:
    return t.GameStart(**b.common(), number=b.integer(b.one("number")))


@_form("game_drawn_statement")
def _game_drawn(b: _Builder) -> t.Statement:
    return t.GameDrawn(**b.common())


@_form("match_statement")
def _match(b: _Builder) -> t.Statement:
    winner = b.one("match_winner")
    return t.MatchResult(
        **b.common(),
        winner=b.player(winner) if b.find(winner, "quoted") is not None else None,
        score=b.word(b.one("score")),
    )


@_form(
    "judge_call_statement",
    "judge_penalty_statement",
    "judge_missed_statement",
    "judge_time_statement",
    "judge_backup_statement",
)
def _judge(b: _Builder) -> t.Statement:
    event = next(
        b.word(node)
        for key in ("k_call", "k_penalty", "k_missed_trigger", "k_time", "k_backup")
        for node in b.all(key)
    )
    turns = b.one("extra_turns")
    return t.JudgeEvent(
        **b.common(),
        event=event,
        player=b.optional("judged_player", b.player),
        penalty=b.optional("penalty", b.word),
        infraction=b.optional("infraction", b.text),
        trigger_source=b.optional("trigger_source", b.object_ref),
        trigger_designation=b.optional("missed_designation", b.word),
        remedy=b.optional("remedy", b.word),
        turns=b.integer(b.find(turns, "number")) if turns is not None else None,
        allow=tuple(b.word(node) for node in b.all("diagnostic_code")),
    )


@_form("turn_statement")
def _turn(b: _Builder) -> t.Statement:
    return t.Turn(
        **b.common(),
        number=b.integer(b.one("number")),
        player=b.player(b.one("active_player")),
    )


@_form("phase_statement")
def _phase(b: _Builder) -> t.Statement:
    return t.PhaseOrStep(**b.common(), name=b.word(b.one("phase_name")))


@_form("step_statement")
def _step(b: _Builder) -> t.Statement:
    return t.PhaseOrStep(**b.common(), name=b.word(b.one("step_name")))


@_form("incomplete_statement", "keyframe_statement", "end_statement")
def _marker(b: _Builder) -> t.Statement:
    return t.Marker(**b.common())
