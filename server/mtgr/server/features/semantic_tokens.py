"""Semantic tokens: highlighting from the parser's tokens and the game state, with no grammar.

Editors without a TextMate grammar (Neovim) colour a file from these alone. An object's
token says whether its card is known or hidden at that line, which a grammar cannot.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.rules.apply import apply
from mtgr.rules.state import ZONES, GameState
from mtgr.rules.walk import Walk
from mtgr.syntax import tree as t
from mtgr.syntax.parser import GRAMMAR

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


def states_after(document: OpenDocument, first: int, last: int) -> Iterator[GameState]:
    """The state after each line from `first` to `last`, applying lines one by one."""
    state = document.state_before(first)
    for index in range(first, last + 1):
        statement = document.document.lines[index].parsed.statement
        if statement is not None:
            state = apply(state, statement, document.document.lines[index].id)
        yield state


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


def line_tokens(
    document: OpenDocument, line: int, state: GameState
) -> list[tuple[int, int, int, int]]:
    """(start, length, type, modifiers) in the client's units, for one line."""
    parsed = document.document.lines[line].parsed
    text = document.document.texts[line]
    statement = parsed.statement
    tokens = parsed.tokens if parsed.error is None else rough_tokens(text, parsed)
    causes = cause_spans(statement)
    introduced = statement.subject.span if isinstance(statement, t.New | t.AbilityOf) else None
    if isinstance(statement, t.Draw):
        introduced = statement.drawn.span
    out: list[tuple[int, int, int, int]] = []
    for token in sorted(tokens, key=lambda k: k.span.start):
        kind = _KIND_TYPE[token.kind]
        modifiers = 0
        word = text[token.span.start : token.span.end]
        if token.kind is t.TokenKind.OBJECT:
            obj = state.obj(int(word[1:])) if word[1:].isdigit() else None
            if obj is not None:
                modifiers |= _MOD["hidden"] if obj.hidden else _MOD["known"]
            if token.span == introduced:
                modifiers |= _MOD["declaration"]
        if token.kind is t.TokenKind.KEYWORD and word in CAUSE_WORDS:
            modifiers |= _MOD["cause"]
        if token.span in causes:
            modifiers |= _MOD["cause"]
        start = document.to_character(line, token.span.start)
        end = document.to_character(line, token.span.end)
        if end > start:
            out.append((start, end - start, _TYPE[kind], modifiers))
    return out


def encode(document: OpenDocument) -> list[int]:
    """The whole document as LSP's relative five-integer groups."""
    data: list[int] = []
    previous_line = 0
    previous_start = 0
    count = len(document.document)
    if count == 0:
        return data
    for line, state in enumerate(states_after(document, 0, count - 1)):
        for start, length, kind, modifiers in line_tokens(document, line, state):
            delta_line = line - previous_line
            delta_start = start - previous_start if delta_line == 0 else start
            data.extend((delta_line, delta_start, length, kind, modifiers))
            previous_line, previous_start = line, start
    return data


# The last answer per document, kept while its walk is the same: an edit makes a new walk.
_CACHE: dict[str, tuple[Walk, list[int]]] = {}


def cached_encode(document: OpenDocument) -> list[int]:
    """Clients ask again on every focus and scroll; the text has usually not changed."""
    cached = _CACHE.get(document.uri)
    if cached is not None and cached[0] is document.walk:
        return cached[1]
    data = encode(document)
    _CACHE[document.uri] = (document.walk, data)
    return data


def register(server: MtgrServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def semantic_tokens_full(params: types.SemanticTokensParams) -> types.SemanticTokens:
        document = server.session.get(params.text_document.uri)
        if document is None:
            _CACHE.pop(params.text_document.uri, None)
            return types.SemanticTokens(data=[])
        return types.SemanticTokens(data=cached_encode(document))
