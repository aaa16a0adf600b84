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

from mtgr.rules.state import Stage
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


@dataclass(frozen=True, slots=True)
class Gate:
    """When a check can find anything: the stages it runs in, whether only on lines that
    list replacements, whether only with a card index, whether only while state-based
    actions are owed (`GameState.sba_due`), and whether only outside gaps and keyframes
    (where events are F902's and F903's and other checks stay quiet, `describe.quiet`)."""

    stages: frozenset[Stage]
    with_replacements: bool = False
    with_cards: bool = False
    with_sba_due: bool = False
    outside_gaps_and_keyframes: bool = False

    def opens(
        self, stage: Stage, replacements: bool, cards: bool, sba_due: bool, in_keyframe: bool
    ) -> bool:
        return (
            stage in self.stages
            and (replacements or not self.with_replacements)
            and (cards or not self.with_cards)
            and (sba_due or not self.with_sba_due)
            and not (self.outside_gaps_and_keyframes and (stage is Stage.GAP or in_keyframe))
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
        outside_gaps_and_keyframes: bool = False,
    ) -> Callable[[Check], Check]:
        """Registers a check for these statement types (and their subclasses), to run only
        in these stages (None: every stage), with `with_replacements` only on lines that
        list replacements, with `with_cards` only when the walk has a card index, with
        `with_sba_due` only while state-based actions are owed, and with
        `outside_gaps_and_keyframes` not in a gap nor inside a keyframe. The walk picks a
        line's checks from a table by statement type and those conditions, so a check
        whose line or stage cannot concern it costs nothing there."""

        def register(check: Check) -> Check:
            for statement_type in statement_types:
                self.checks[statement_type] = check
            self.gates[check] = Gate(
                frozenset(Stage) if stages is None else frozenset(stages),
                with_replacements,
                with_cards,
                with_sba_due,
                outside_gaps_and_keyframes,
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


_CHECKS: dict[tuple[type, Stage, bool, bool, bool, bool], tuple[Check, ...]] = {}


def checks_for(
    statement_type: type,
    stage: Stage,
    replacements: bool,
    cards: bool,
    sba_due: bool,
    in_keyframe: bool,
) -> tuple[Check, ...]:
    """The checks of every rule registered for this statement type whose gate opens in this
    stage, on a line that does or does not list replacements, with or without a card
    index, with or without state-based actions owed, inside a keyframe or not, in code
    order; a plain dict, looked up on every line of every walk."""
    key = (statement_type, stage, replacements, cards, sba_due, in_keyframe)
    found = _CHECKS.get(key)
    if found is None:
        found = _CHECKS[key] = tuple(
            check
            for rule in all_rules().values()
            for registered, check in rule.checks.items()
            if issubclass(statement_type, registered)
            and rule.gates[check].opens(stage, replacements, cards, sba_due, in_keyframe)
        )
    return found


def end_checks() -> Iterator[tuple[Rule, EndCheck]]:
    for rule in all_rules().values():
        for check in rule.end_checks:
            yield rule, check


def rule(code: str) -> Rule | None:
    return all_rules().get(code)
