"""Where an object number `#N` is written in a line: its tokens, or for a line that does not
parse a lexical scan, so that renaming and renumbering do not skip such lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mtgr.syntax import tree as t
from mtgr.syntax.parser import MAX_NUMBER_DIGITS, split_comment

_OBJECT = re.compile(r'"(?:[^"\\]|\\.)*"?|(?<![\w#])#([0-9]+)(?![\w#])')


@dataclass(frozen=True, slots=True)
class Occurrence:
    line: int
    span: t.Span
    number: int


def occurrences_in_line(text: str, parsed: t.ParsedLine, line: int) -> Iterator[Occurrence]:
    if parsed.error is None:
        for token in parsed.tokens:
            if token.kind is t.TokenKind.OBJECT:
                raw = text[token.span.start + 1 : token.span.end]
                yield Occurrence(line, token.span, int(raw))
        return
    _start, end, _comment = split_comment(text)
    for match in _OBJECT.finditer(text, 0, end):
        if match.group(1) is not None and len(match.group(1)) <= MAX_NUMBER_DIGITS:
            yield Occurrence(line, t.Span(match.start(), match.end()), int(match.group(1)))
