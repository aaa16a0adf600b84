"""One walk over the game, line by line: check each line against the state, then apply it.

Every consumer reads the result of this walk: diagnostics, hover, completion, `mtgr state`.
The walk keeps the state before every CHECKPOINT_EVERY-th line, keyed by line id. An
incremental walk resumes at the last checkpoint before the first changed line and stops
as soon as it reaches a checkpoint whose state equals the previous walk's: from there on
everything would come out the same, so the previous findings are kept. Rules are pure
functions of (state, statement, line id, card index), which is what makes this exact: a walk
keeps the card index it was given (or None), and the perspective it assumes for a record
that declares none, and `rewalk` goes on with the same ones.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtgr.cards.model import CardIndex
from mtgr.rules.apply import apply
from mtgr.rules.context import Context, Finding
from mtgr.rules.registry import check_key, check_table, checks_for, end_checks, rule
from mtgr.rules.state import Checkpoint, GameState, LineId
from mtgr.syntax import tree as t
from mtgr.syntax.tree import Line

CHECKPOINT_EVERY = 16
END_OF_FILE: LineId = -1  # where the end checks' failures are kept


@dataclass
class Walk:
    """What a walk over a sequence of lines found."""

    checkpoints: dict[LineId, Checkpoint] = field(default_factory=dict)
    emitted: dict[LineId, list[Finding]] = field(default_factory=dict)
    # The objects each line names as they stand after it, (number, card name or None while
    # hidden), for the lines that name a known object: highlighting reads these on every
    # request, where rebuilding the state at each line would cost a second walk.
    objects_after: dict[LineId, tuple[tuple[int, str | None], ...]] = field(default_factory=dict)
    # The players' life totals after each `turn` line, (name, life) in the order declared:
    # the inlay hints show them on every turn line of a long record.
    life_after: dict[LineId, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    end_findings: list[Finding] = field(default_factory=list)
    # What raised while a line was checked or applied (a bug in a rule, never the record's
    # fault), by line id, END_OF_FILE for the end checks: that line goes unchecked, the
    # rest of the record does not, and the server and the CLI report it.
    failures: dict[LineId, str] = field(default_factory=dict)
    final_state: GameState = field(default_factory=GameState)
    lines_walked: int = 0  # how many lines this walk (re)checked, for tests and benchmarks
    cards: CardIndex | None = None  # what the card-aware rules read; None: they stay silent
    # the perspective assumed until the record declares its own (decision 0080): a
    # player's name, "" for all, None for none
    perspective: str | None = None

    def start(self) -> GameState:
        """The state before the first line."""
        return GameState(perspective=self.perspective)

    def findings(self, lines: Sequence[Line]) -> list[Finding]:
        found: list[Finding] = []
        for line in lines:
            found.extend(self.emitted.get(line.id, ()))
        found.extend(self.end_findings)
        return found


def step(
    state: GameState, line: Line, findings: list[Finding], cards: CardIndex | None = None
) -> GameState:
    """Checks one line against the state before it and returns the state after it."""
    parsed = line.parsed
    if parsed.error is not None:
        findings.append(_syntax_finding(line.id, parsed.error))
        return state
    statement = parsed.statement
    if statement is None:
        return state
    context = Context(state, line.id, statement, findings, cards)
    try:
        for check in checks_for(check_key(state, statement), cards is not None):
            check(context, statement)
    except Exception:  # reported by the walk (`Walk.failures`): here it only stops the checks
        pass
    return applied(state, statement, line.id)


def applied(state: GameState, statement: t.Statement, line: LineId) -> GameState:
    """The state after a line, or before it where applying it raised (a bug the walk
    reports): every replay of the lines must skip such a line as the walk did."""
    try:
        return apply(state, statement, line)
    except Exception:
        return state


def failure(error: Exception) -> str:
    """What raised, and where in mtgr, for a bug report."""
    where = traceback.extract_tb(error.__traceback__)[-1:]
    place = f" ({Path(where[0].filename).name}:{where[0].lineno})" if where else ""
    return f"{type(error).__name__}: {error}{place}"


def _syntax_finding(line: LineId, error: t.LineError) -> Finding:
    syntax_rule = rule(error.code)
    severity = syntax_rule.severity if syntax_rule else None
    assert severity is not None, f"syntax code {error.code} has no rule module"
    return Finding(error.code, severity, line, error.span, error.message)


def walk(
    lines: Sequence[Line], cards: CardIndex | None = None, perspective: str | None = None
) -> Walk:
    result = Walk(cards=cards, perspective=perspective)
    for _done in _walk_from(result, lines, 0, result.start(), previous=None):
        pass
    return result


def rewalk(
    previous: Walk, lines: Sequence[Line], first_changed: int, last_changed: int | None = None
) -> Walk:
    """Walks again after edits; lines before `first_changed` kept their ids and text, and
    so did every line after `last_changed` (default: `first_changed`) that kept its id.

    The result starts as a copy of the previous walk's tables and only the lines walked
    again change them, so an edit costs what it re-checks, not the length of the file.
    """
    *_, (_done, result) = rewalk_in_steps(previous, lines, first_changed, last_changed)
    return result


def rewalk_in_steps(
    previous: Walk,
    lines: Sequence[Line],
    first_changed: int,
    last_changed: int | None = None,
    first_step: int = 0,
    lines_per_step: int = 0,
) -> Iterator[tuple[int, Walk]]:
    """The same walk, pausing after `first_step` lines and then every `lines_per_step`
    (0: never) with (lines done, partial walk); the last item is (len(lines), the walk).

    A partial walk has the new findings of the lines walked so far and the previous
    walk's below them; the previous walk itself is never changed, so a caller may drop
    the steps at any point and keep it."""
    # Resume strictly before the changed line: it may carry the id of a line that had
    # other lines before it (the lines deleted above it), so its old checkpoint is stale.
    start, state = (
        _resume_point(previous, lines, first_changed - 1)
        if first_changed > 0
        else (0, previous.start())
    )
    result = Walk(
        checkpoints=dict(previous.checkpoints),
        emitted=dict(previous.emitted),
        objects_after=dict(previous.objects_after),
        life_after=dict(previous.life_after),
        end_findings=previous.end_findings,
        failures=dict(previous.failures),
        cards=previous.cards,
        perspective=previous.perspective,
    )
    last = first_changed if last_changed is None else max(first_changed, last_changed)
    steps = _walk_from(
        result,
        lines,
        start,
        state,
        previous,
        last,
        first_step=first_step,
        pause_every=lines_per_step,
    )
    for done in steps:
        yield done, result
    if len(result.checkpoints) > 2 * (len(lines) // CHECKPOINT_EVERY + 1):
        _forget_removed_lines(result, lines)
    yield len(lines), result


def _walk_from(
    result: Walk,
    lines: Sequence[Line],
    start: int,
    state: GameState,
    previous: Walk | None,
    last_changed: int = 0,
    pause_every: int = 0,
    first_step: int = 0,
) -> Iterator[int]:
    """Walks from `start`; with a previous walk, stops at the first checkpoint after
    `last_changed` whose state equals the previous walk's. Pauses (yields the index) after
    `first_step` lines, then every `pause_every`."""
    walked = 0
    pause = first_step or pause_every
    checkpoints, emitted, objects_after = result.checkpoints, result.emitted, result.objects_after
    life_after, turn, failures = result.life_after, t.Turn, result.failures
    seen_life: dict[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = {}
    cards = result.cards
    with_cards = cards is not None
    table = check_table(with_cards)
    # `step` written out: one context for every line
    context = Context(state, -1, None, [], cards)
    # most lines name what earlier lines named as it stood: each tuple is kept once, the
    # one-object ones by number (a lookup by an int, not the hash of a nested tuple)
    seen_named: dict[tuple[tuple[int, str | None], ...], tuple[tuple[int, str | None], ...]] = {}
    seen_one: dict[int, tuple[tuple[int, str | None]]] = {}
    kept = start - CHECKPOINT_EVERY  # the line of the last checkpoint kept
    # and that checkpoint, with which the next one shares its settled parts while equal
    last_kept = checkpoints.get(lines[start].id) if start < len(lines) else None
    for index in range(start, len(lines)):
        if pause and walked == pause:
            yield index
            pause += pause_every if pause_every else len(lines)
        line = lines[index]
        line_id = line.id
        if previous is not None:
            if index > last_changed:
                old = previous.checkpoints.get(line_id)
                if old is not None:
                    renewed = old.renewed(state)
                    if renewed is None:
                        # from here on all is as the previous walk found it, and in the tables
                        result.final_state = previous.final_state
                        result.end_findings = previous.end_findings
                        result.lines_walked = walked
                        return
                    # kept where the previous walk kept one, sharing what equals it
                    checkpoints[line_id] = last_kept = renewed
                    kept = index
            # what the previous walk kept for this line is stale: replaced below, or dropped
            # (replacing a key keeps its place in a dict; dropping and adding it again
            # takes a new place, and a long walk grew the tables to twice their size)
            if index - kept < CHECKPOINT_EVERY and kept != index:
                checkpoints.pop(line_id, None)
        if index - kept >= CHECKPOINT_EVERY:
            checkpoints[line_id] = last_kept = state.checkpoint(last_kept)
            kept = index
        walked += 1
        if failures:
            failures.pop(line_id, None)
        parsed = line.parsed
        statement = parsed.statement
        if parsed.error is not None or statement is None:
            if parsed.error is not None:
                emitted[line_id] = [_syntax_finding(line_id, parsed.error)]
            elif previous is not None:
                emitted.pop(line_id, None)
            if previous is not None:
                objects_after.pop(line_id, None)
                life_after.pop(line_id, None)
            continue
        key = check_key(state, statement)
        checks = table.get(key)
        if checks is None:
            checks = checks_for(key, with_cards)
        context.state = state
        context.line = line_id
        context.statement = statement
        try:
            for check in checks:
                check(context, statement)
            after = apply(state, statement, line_id)
        except Exception as error:  # a bug in a rule: this line goes unchecked, not the rest
            failures[line_id] = failure(error)
            after = applied(state, statement, line_id)
        if context.findings:
            emitted[line_id] = context.findings
            context.findings = []
        elif previous is not None:
            emitted.pop(line_id, None)
        state = after
        if type(statement) is turn:
            life = tuple((player.name, player.life) for player in state.players)
            life_after[line_id] = seen_life.setdefault(life, life)
        elif previous is not None:
            life_after.pop(line_id, None)
        refs = statement.objects
        named: tuple[tuple[int, str | None], ...] = ()
        if refs:
            objects = state.objects
            if len(refs) == 1:
                number = refs[0].number
                obj = objects.get(number)
                if obj is not None:
                    named = seen_one.get(number, ())
                    if not named or named[0][1] != obj.name:
                        named = seen_one[number] = ((number, obj.name),)
            else:
                named = tuple(
                    (ref.number, obj.name)
                    for ref in refs
                    if (obj := objects.get(ref.number)) is not None
                )
                if named:
                    named = seen_named.setdefault(named, named)
        if named:
            # the previous walk's tuple, where it is the same, is kept (shared with it)
            if previous is None or objects_after.get(line_id) != named:
                objects_after[line_id] = named
        elif previous is not None:
            objects_after.pop(line_id, None)
    result.final_state = state
    failures.pop(END_OF_FILE, None)
    result.end_findings = end_of_file(state, cards, failures)
    result.lines_walked = walked


def _forget_removed_lines(result: Walk, lines: Sequence[Line]) -> None:
    """Drops what the tables keep for lines that edits removed (now and then, not on
    every edit: a removed line's entries are never looked up again)."""
    alive = {line.id for line in lines}
    for table in (result.checkpoints, result.emitted, result.objects_after, result.life_after):
        for line_id in [k for k in table if k not in alive]:
            del table[line_id]


def end_of_file(
    state: GameState, cards: CardIndex | None = None, failures: dict[LineId, str] | None = None
) -> list[Finding]:
    findings: list[Finding] = []
    context = Context(state, -1, None, findings, cards)
    for _rule, check in end_checks():
        try:
            check(context)
        except Exception as error:  # a bug in a rule: the other end checks still run
            if failures is not None:
                failures[END_OF_FILE] = failure(error)
    return findings


def state_before(result: Walk, lines: Sequence[Line], index: int) -> GameState:
    """The state before line `index` (after the last line when index == len(lines))."""
    index = max(0, min(index, len(lines)))
    start, state = _resume_point(result, lines, index)
    # Only applied, not checked: the checks find, they never change the state (hover,
    # completion and the inlay hints ask this on every request).
    for line in lines[start:index]:
        parsed = line.parsed
        if parsed.error is None and parsed.statement is not None:
            state = applied(state, parsed.statement, line.id)
    return state


def _resume_point(result: Walk, lines: Sequence[Line], index: int) -> tuple[int, GameState]:
    """The last checkpointed line at or before `index`, and the state before it."""
    start = min(index, len(lines))
    while start > 0 and (start >= len(lines) or lines[start].id not in result.checkpoints):
        start -= 1
    if start < len(lines) and lines[start].id in result.checkpoints:
        return start, result.checkpoints[lines[start].id].snapshot()
    return 0, result.start()
