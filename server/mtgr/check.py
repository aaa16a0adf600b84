"""Checking a whole text at once: the entry point for the command line and for tests.

Both the parser's errors and the rule checker's findings come out as one list of
`Diagnostic`s with line numbers, after `// allow CODE` comments, judges' rulings
(`judge ... allow CODE`) and settings are applied.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from mtgr.cards.model import CardIndex
from mtgr.rules.context import Finding
from mtgr.rules.registry import Severity
from mtgr.rules.walk import END_OF_FILE, Walk, walk
from mtgr.syntax import tree as t
from mtgr.syntax.document import Document
from mtgr.syntax.tree import Line


@dataclass(frozen=True, slots=True)
class RelatedLocation:
    line: int
    span: t.Span | None
    message: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding placed in the document: zero-based line, code-point columns."""

    code: str
    severity: Severity
    line: int
    span: t.Span
    message: str
    related: tuple[RelatedLocation, ...] = ()


def diagnostics(
    document: Document,
    result: Walk,
    severities: Mapping[str, Severity | None] | None = None,
) -> list[Diagnostic]:
    """Findings placed at line numbers, minus those silenced by `// allow` or settings."""
    number_of = document.number_of
    lines = document.lines
    placed: list[Diagnostic] = []
    # a finding can be about an earlier line: it goes when the line that emitted it goes
    emitted = (
        finding
        for emitter, found in result.emitted.items()
        if number_of(emitter) is not None
        for finding in found
    )
    for finding in (*emitted, *result.end_findings):
        number = number_of(finding.line)  # None: a line an edit removed
        if number is None:
            continue
        if silences(finding.code) and ruled(lines, number, finding.code):
            continue
        severity = effective_severity(finding, lines[number].parsed.allowed, severities)
        if severity is None:
            continue
        placed.append(place(finding, number, severity, number_of))
    placed.sort(key=lambda d: (d.line, d.span.start, d.code))
    return placed


def effective_severity(
    finding: Finding,
    allowed: Collection[str],
    severities: Mapping[str, Severity | None] | None,
) -> Severity | None:
    """The severity a finding is reported with on a line that allows `allowed`, or None
    when `// allow` or the settings silence it."""
    if finding.code in allowed and silences(finding.code):
        return None
    if severities and finding.code in severities:
        return severities[finding.code]
    return finding.severity


def silences(code: str) -> bool:
    """Whether `// allow CODE` may silence a code: not a syntax error's, since a line that
    does not parse is always reported (decision 0002 item 8)."""
    return not code.startswith("S")


def ruled(lines: Sequence[Line], number: int, code: str) -> bool:
    """Whether a judge's line below allows `code` on line `number`: a ruling covers the
    lines above it in its own turn and the turn before (decision 0033 item 7). Looked up
    for each finding only, so a record without findings pays nothing."""
    turns = 0
    for index in range(number + 1, len(lines)):
        statement = lines[index].parsed.statement
        if isinstance(statement, t.Turn):
            turns += 1
            if turns == 2:
                return False
        elif isinstance(statement, t.GameStart):
            return False
        elif isinstance(statement, t.JudgeEvent) and any(c.value == code for c in statement.allow):
            return True
    return False


def ruling_reach(lines: Sequence[Line], low: int) -> int:
    """The first line whose findings a judge's ruling at line `low` or below may silence:
    `ruled` looks down from a finding's line no further than the second turn line or a
    game's start, so an edit at `low` and below changes what it says only for lines from
    there on (the server re-places those alone)."""
    turns = 0
    for index in range(min(low, len(lines)) - 1, -1, -1):
        statement = lines[index].parsed.statement
        if isinstance(statement, t.GameStart):
            return index
        if isinstance(statement, t.Turn):
            turns += 1
            if turns == 2:
                return index
    return 0


def rulings_over(lines: Sequence[Line], start: int, stop: int) -> list[frozenset[str]]:
    """For each line in [start, stop), the codes that judges' rulings below it allow on it:
    `ruled` for every code at once, in one pass up from where no ruling reaches `stop`."""
    end, turns = len(lines), 0
    for index in range(max(stop, 0), len(lines)):
        statement = lines[index].parsed.statement
        if isinstance(statement, t.Turn):
            turns += 1
        if turns == 2 or isinstance(statement, t.GameStart):
            end = index
            break
    found: list[frozenset[str]] = []
    this_turn: frozenset[str] = frozenset()  # rulings below before the next turn line
    next_turn: frozenset[str] = frozenset()  # rulings in the turn after that
    for index in range(end - 1, start - 1, -1):
        if index < stop:
            found.append(this_turn | next_turn)
        statement = lines[index].parsed.statement
        if isinstance(statement, t.Turn):
            this_turn, next_turn = frozenset(), this_turn
        elif isinstance(statement, t.GameStart):
            this_turn = next_turn = frozenset()
        elif isinstance(statement, t.JudgeEvent) and statement.allow:
            this_turn = this_turn | {c.value for c in statement.allow}
    found.reverse()
    return found


def place(
    finding: Finding, number: int, severity: Severity, number_of: Callable[[int], int | None]
) -> Diagnostic:
    """A finding at line `number`, its related places at theirs (those removed dropped)."""
    related = tuple(
        RelatedLocation(line, r.span, r.message)
        for r in finding.related
        if (line := number_of(r.line)) is not None
    )
    return Diagnostic(finding.code, severity, number, finding.span, finding.message, related)


def check_text(
    text: str,
    severities: Mapping[str, Severity | None] | None = None,
    cards: CardIndex | None = None,
    perspective: str | None = None,
) -> list[Diagnostic]:
    """Every diagnostic of a text; the card-aware rules speak only when given a card index.
    `perspective` (a name, "" for all) is assumed until the text declares its own (decision
    0080)."""
    return check_record(text, severities, cards, perspective)[0]


def check_record(
    text: str,
    severities: Mapping[str, Severity | None] | None = None,
    cards: CardIndex | None = None,
    perspective: str | None = None,
) -> tuple[list[Diagnostic], list[tuple[str, str]]]:
    """`check_text`'s diagnostics, and the checker's own failures on the text (`failures`)."""
    document = Document(text)
    result = walk(document.lines, cards, perspective)
    return diagnostics(document, result, severities), failures(document, result)


def failures(document: Document, result: Walk) -> list[tuple[str, str]]:
    """What raised inside the checker, by where ("line 12", "the end checks") and what
    ("KeyError: 7 (apply.py:301)"), in line order: a bug in mtgr, reported so the user can
    file it, while every other line is still checked."""
    placed: list[tuple[int, str, str]] = []
    for line_id, what in result.failures.items():
        if line_id == END_OF_FILE:
            placed.append((len(document.lines), "the end checks", what))
        elif (number := document.number_of(line_id)) is not None:
            placed.append((number, f"line {number + 1}", what))
    return [(where, what) for _number, where, what in sorted(placed)]
