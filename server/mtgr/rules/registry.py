"""The registry of checker rules: one module a rule under `rules/checks/`, one stable code each.

A rule's module docstring is its documentation, under fixed headings. `mtgr explain`,
`docs/diagnostics.md` and hover are all generated from that one text.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

from mtgr.rules.state import GameState, Stage
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.rules.context import Context

DOC_HEADINGS = ("What it flags", "Why", "Example", "Use instead", "Rules basis")

# Codes that once existed and must never be given to another rule.
RETIRED_CODES: frozenset[str] = frozenset()


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class RuleDoc:
    summary: str
    sections: dict[str, str]

    def section(self, heading: str) -> str:
        return self.sections.get(heading, "")


Check = Callable[["Context", t.Statement], None]
EndCheck = Callable[["Context"], None]
# What picks a line's checks (see `check_key`): the statement's type, the stage, and
# whether the line lists no replacements, state-based actions are owed, no keyframe is
# open, no damage waits for its result, no commander damage loss is owed, no permanent is
# phased out, no change of day or night is owed, nothing is being cast.
CheckKey = tuple[type, Stage, bool, bool, bool, bool, bool, bool, bool, bool]


@dataclass(frozen=True, slots=True)
class Gate:
    """When a check can find anything: the stages it runs in, whether only on lines that
    list replacements, whether only with a card index, whether only while state-based
    actions are owed (`GameState.sba_due`), while damage waits for its result
    (`pending_damage`), while a player dealt 21 commander damage has not lost yet
    (`commander_losses`), while a permanent is phased out (`phased`), while day or night
    is owed a change (`day_night_due`), while a spell or ability is being cast
    (`casting`), whether only outside gaps and keyframes (where events are F902's and
    F903's and other checks stay quiet, `describe.quiet`), and whether only inside an open
    keyframe."""

    stages: frozenset[Stage]
    with_replacements: bool = False
    with_cards: bool = False
    with_sba_due: bool = False
    with_pending_damage: bool = False
    with_commander_losses: bool = False
    with_phased: bool = False
    with_day_night_due: bool = False
    while_casting: bool = False
    outside_gaps_and_keyframes: bool = False
    inside_keyframes: bool = False

    def opens(self, key: CheckKey) -> bool:
        _kind, stage, plain, sba_due, outside_keyframe, *absent = key
        no_damage, no_losses, none_phased, no_day_night_due, not_casting = absent
        return (
            stage in self.stages
            and not (plain and self.with_replacements)
            and not (self.with_sba_due and not sba_due)
            and not (self.with_pending_damage and no_damage)
            and not (self.with_commander_losses and no_losses)
            and not (self.with_phased and none_phased)
            and not (self.with_day_night_due and no_day_night_due)
            and not (self.while_casting and not_casting)
            and not (self.inside_keyframes and outside_keyframe)
            and not (
                self.outside_gaps_and_keyframes and (stage is Stage.GAP or not outside_keyframe)
            )
        )


@dataclass(eq=False)
class Rule:
    code: str
    title: str
    severity: Severity
    decisions: tuple[str, ...]
    cr: tuple[str, ...]
    doc: RuleDoc
    checks: dict[type, Check] = field(default_factory=dict)
    end_checks: list[EndCheck] = field(default_factory=list)
    # what a check needs before it can find anything, tested by the walk before calling it
    gates: dict[Check, Gate] = field(default_factory=dict)

    def on(
        self,
        *statement_types: type,
        stages: Collection[Stage] | None = None,
        with_replacements: bool = False,
        with_cards: bool = False,
        with_sba_due: bool = False,
        with_pending_damage: bool = False,
        with_commander_losses: bool = False,
        with_phased: bool = False,
        with_day_night_due: bool = False,
        while_casting: bool = False,
        outside_gaps_and_keyframes: bool = False,
        inside_keyframes: bool = False,
    ) -> Callable[[Check], Check]:
        """Registers a check for these statement types (and their subclasses), to run only
        in these stages (None: every stage), with `with_replacements` only on lines that
        list replacements, with `with_cards` only when the walk has a card index, with
        `with_sba_due` only while state-based actions are owed, with `with_pending_damage`
        only while damage waits for its life or loyalty line, with `with_commander_losses`
        only while a loss to commander damage is owed, with `with_phased` only while a
        permanent is phased out, with `with_day_night_due` only while day or night is owed
        a change, with `while_casting` only while a spell or ability is being cast (its
        parts, decision 0045), with `outside_gaps_and_keyframes`
        not in a gap nor inside a keyframe, and with `inside_keyframes` only inside one.
        The walk picks a line's checks from a table by statement type and those
        conditions, so a check whose line or state cannot concern it costs nothing there."""

        def register(check: Check) -> Check:
            for statement_type in statement_types:
                self.checks[statement_type] = check
            self.gates[check] = Gate(
                frozenset(Stage) if stages is None else frozenset(stages),
                with_replacements,
                with_cards,
                with_sba_due,
                with_pending_damage,
                with_commander_losses,
                with_phased,
                with_day_night_due,
                while_casting,
                outside_gaps_and_keyframes,
                inside_keyframes,
            )
            return check

        return register

    def at_end(self, check: EndCheck) -> EndCheck:
        """Registers a check that runs once after the last line."""
        self.end_checks.append(check)
        return check


def define(
    code: str,
    title: str,
    *,
    severity: Severity,
    decisions: tuple[str, ...] = (),
    cr: tuple[str, ...] = (),
    doc: str | None,
) -> Rule:
    return Rule(code, title, severity, decisions, cr, parse_doc(doc or ""))


def parse_doc(text: str) -> RuleDoc:
    lines = text.strip("\n").splitlines()
    summary = lines[0].strip() if lines else ""
    sections: dict[str, str] = {}
    heading = None
    body: list[str] = []
    for line in lines[1:]:
        match = re.match(r"^##\s+(.*?)\s*$", line)
        if match:
            if heading:
                sections[heading] = "\n".join(body).strip("\n")
            heading, body = match.group(1), []
        elif heading:
            body.append(line)
    if heading:
        sections[heading] = "\n".join(body).strip("\n")
    return RuleDoc(summary, sections)


@cache
def all_rules() -> dict[str, Rule]:
    """Every rule, by code, from the modules of `mtgr.rules.checks`."""
    from mtgr.rules import checks

    rules: dict[str, Rule] = {}
    for module_info in sorted(pkgutil.iter_modules(checks.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{checks.__name__}.{module_info.name}")
        rule = getattr(module, "RULE", None)
        if not isinstance(rule, Rule):
            raise RuntimeError(f"{module.__name__} defines no RULE")
        if rule.code in rules:
            raise RuntimeError(f"code {rule.code} is defined twice")
        if rule.code in RETIRED_CODES:
            raise RuntimeError(f"code {rule.code} is retired and must not be reused")
        rules[rule.code] = rule
    return rules


def check_key(state: GameState, statement: t.Statement) -> CheckKey:
    """The key of a line's checks in `check_table`."""
    return (
        type(statement),
        state.stage,
        not statement.replacements,
        state.sba_due,
        state.in_keyframe is None,
        not state.pending_damage,
        not state.commander_losses,
        not state.phased,
        state.day_night_due is None,
        state.casting is None,
    )


_TABLES: tuple[dict[CheckKey, tuple[Check, ...]], dict[CheckKey, tuple[Check, ...]]] = ({}, {})


def check_table(cards: bool) -> dict[CheckKey, tuple[Check, ...]]:
    """The checks for each `check_key` seen so far, with or without a card index: a plain
    dict the walk looks every line up in, filled by `checks_for` on a miss."""
    return _TABLES[cards]


def checks_for(key: CheckKey, cards: bool) -> tuple[Check, ...]:
    """The checks of every rule registered for the key's statement type whose gate opens
    there, with or without a card index, in code order."""
    table = _TABLES[cards]
    found = table.get(key)
    if found is None:
        found = table[key] = tuple(
            check
            for check, gate in _registered_for(key[0])
            if (cards or not gate.with_cards) and gate.opens(key)
        )
    return found


@cache
def _registered_for(statement_type: type) -> tuple[tuple[Check, Gate], ...]:
    """The checks registered for a statement type (or a type it derives from), with their
    gates, in code order: what each new key of `checks_for` chooses from (a walk meets
    about a hundred keys, and there are hundreds of checks)."""
    return tuple(
        (check, rule.gates[check])
        for rule in all_rules().values()
        for registered, check in rule.checks.items()
        if issubclass(statement_type, registered)
    )


def end_checks() -> Iterator[tuple[Rule, EndCheck]]:
    for rule in all_rules().values():
        for check in rule.end_checks:
            yield rule, check


def rule(code: str) -> Rule | None:
    return all_rules().get(code)
