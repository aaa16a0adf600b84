"""What the lines say about an object that the game state does not keep: the targets
chosen for a spell or ability, and the evidence that a permanent is a land or a creature.

The checker needs neither (there is no card database, see docs/ARCHITECTURE.md), but a
picture of the board does: the stack shows targets, and a player lays out lands apart from
creatures. Object numbers only go up through a file (decision 0004 item 3), so one scan of
the lines gives, per object, the line index from which each fact holds; a board at line L
uses the facts from lines up to L.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mtgr.syntax import tree as t
from mtgr.syntax.tree import Line

Reference = int | str  # an object's number or a player's name

LAND, CREATURE = "land", "creature"


@dataclass
class RecordFacts:
    """Per object: (line index, targets) for each `target` line, and the first line index
    that shows it is a land or a creature."""

    targets: dict[int, list[tuple[int, tuple[Reference, ...]]]] = field(default_factory=dict)
    roles: dict[int, dict[str, int]] = field(default_factory=dict)
    title: str | None = None  # the `title` header

    def targets_at(self, number: int, index: int) -> tuple[Reference, ...]:
        """The targets written for `number` on lines up to `index`, in the order written
        (a later `target` line for the same object adds to them)."""
        chosen: list[Reference] = []
        for line, refs in self.targets.get(number, ()):
            if line <= index:
                chosen.extend(r for r in refs if r not in chosen)
        return tuple(chosen)

    def role_at(self, number: int, index: int) -> str | None:
        found = self.roles.get(number)
        if not found:
            return None
        for role in (LAND, CREATURE):
            if found.get(role, index + 1) <= index:
                return role
        return None

    def _role(self, number: int, role: str, index: int) -> None:
        self.roles.setdefault(number, {}).setdefault(role, index)


def scan(lines: Sequence[Line]) -> RecordFacts:
    """One pass over the statements; cheap enough to redo after each edit."""
    facts = RecordFacts()
    cast: set[int] = set()
    for index, line in enumerate(lines):
        statement = line.parsed.statement
        if statement is None:
            continue
        if isinstance(statement, t.Header):
            if statement.verb.value == "title" and isinstance(statement.value, t.Text):
                facts.title = statement.value.value
        elif isinstance(statement, t.Target):
            refs = tuple(
                ref.number if isinstance(ref, t.ObjectRef) else ref.name
                for ref in statement.targets
            )
            facts.targets.setdefault(statement.subject.number, []).append((index, refs))
        elif isinstance(statement, t.Play):
            facts._role(statement.subject.number, LAND, index)  # playing a land (CR 305.1)
        elif isinstance(statement, t.Cast):
            cast.add(statement.subject.number)
        elif isinstance(statement, t.Attack | t.Block):
            facts._role(statement.subject.number, CREATURE, index)
        elif (
            isinstance(statement, t.TapChange)
            and _taps_itself(statement)
            and statement.subject.number not in cast
        ):
            # a permanent never cast that taps for its own ability: a fetched or
            # otherwise put-in land, as far as the record shows
            facts._role(statement.subject.number, LAND, index)
    return facts


def _taps_itself(statement: t.TapChange) -> bool:
    cause = statement.cause
    return (
        statement.verb.value == "tap"
        and cause is not None
        and isinstance(cause.agent, t.ObjectRef)
        and cause.agent.number == statement.subject.number
    )
