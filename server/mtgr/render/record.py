"""A checked record, ready to draw: its lines, the walk over them, the placed diagnostics
and the facts the pictures add. The command line builds one from a file; the server
builds one from an open document's own walk, so drawing never re-checks anything."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from mtgr.check import Diagnostic, diagnostics
from mtgr.render.board import Board, build_board
from mtgr.render.facts import RecordFacts, scan
from mtgr.rules.context import Finding
from mtgr.rules.state import GameState
from mtgr.rules.walk import Walk, state_before, step, walk
from mtgr.syntax.document import Document
from mtgr.syntax.tree import Line


@dataclass
class Record:
    lines: Sequence[Line]
    texts: Sequence[str]
    walk: Walk
    diagnostics: Sequence[Diagnostic]  # sorted by line, as check.diagnostics places them
    facts: RecordFacts = field(default_factory=RecordFacts)
    _diagnostic_lines: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._diagnostic_lines = [d.line for d in self.diagnostics]

    @classmethod
    def check(cls, text: str) -> Record:
        document = Document(text)
        result = walk(document.lines)
        return cls(
            document.lines,
            document.texts,
            result,
            diagnostics(document, result),
            scan(document.lines),
        )

    def board(self, line: int) -> Board:
        """The board after 1-based `line` (0: before the first line)."""
        line = max(0, min(line, len(self.lines)))
        return self._board(state_before(self.walk, self.lines, line), line)

    def boards(self) -> Iterator[Board]:
        """The board after every line, first to last, stepping through the record once."""
        state = GameState()
        scratch: list[Finding] = []
        for number, line in enumerate(self.lines, 1):
            state = step(state, line, scratch)
            scratch.clear()
            yield self._board(state, number)

    def _board(self, state: GameState, line: int) -> Board:
        first = bisect.bisect_left(self._diagnostic_lines, line - 1)
        last = bisect.bisect_left(self._diagnostic_lines, line)
        return build_board(
            state,
            self.facts,
            line,
            self.texts[line - 1] if line else "",
            len(self.lines),
            self.diagnostics[first:last],
            last,
        )
