"""The notation's decision records (docs/decisions) as data, so hover and diagnostics can quote
the decision items a rule rests on instead of repeating them in code.

Two layouts are read: the user's own records (0018, 0019, kept byte for byte as handed over,
with indented items and bullets and trailing spaces) and the project's (0001 to 0017).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

SECTIONS = ("Context", "Decision", "Rules basis", "Alternatives rejected", "Consequences")

_TITLE = re.compile(r"^\s*(\d{4}):\s*(.*?)\s*$")
_ITEM = re.compile(r"^\s*(\d+)\.\s+(.*?)\s*$")
_BULLET = re.compile(r"^\s*[•\-*]\s*(.*?)\s*$")
# A rule a bullet is about is written "614.6:" at the start of the bullet or of a sentence.
_BASIS_RULE = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?):")
_REF = re.compile(r"^(\d{4})\.(\d+)$")
_FILE = re.compile(r"^\d{4}-[a-z0-9-]+\.md$")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision record: its numbered items and the CR rules its "Rules basis" quotes."""

    number: int
    title: str
    status: str
    items: dict[int, str]
    rules_basis: dict[str, str]
    sections: tuple[str, ...] = ()


def parse_decision(text: str) -> Decision:
    """Read one record; raises ValueError when the title line is missing."""
    lines = text.splitlines()
    number: int | None = None
    title = ""
    status = ""
    section = ""
    sections: list[str] = []
    items: dict[int, str] = {}
    basis: dict[str, str] = {}
    current_item: int | None = None
    for line in lines:
        stripped = line.strip()
        if number is None:
            match = _TITLE.match(line)
            if match:
                number, title = int(match.group(1)), match.group(2)
            continue
        if stripped.startswith("Status:"):
            status = stripped.removeprefix("Status:").strip()
            sections.append("Status")
            continue
        if stripped in SECTIONS:
            section = stripped
            sections.append(section)
            current_item = None
            continue
        if not stripped:
            continue
        if section == "Decision":
            match = _ITEM.match(line)
            if match:
                current_item = int(match.group(1))
                items[current_item] = match.group(2)
            elif current_item is not None:
                items[current_item] += "\n" + stripped
        elif section == "Rules basis":
            bullet = _BULLET.match(line)
            if bullet:
                text_of_bullet = bullet.group(1)
                for rule in dict.fromkeys(_BASIS_RULE.findall(text_of_bullet)):
                    # a rule quoted in two bullets keeps both, in order
                    basis[rule] = "\n".join(filter(None, (basis.get(rule), text_of_bullet)))
    if number is None:
        raise ValueError("not a decision record: no 'NNNN: Title' line")
    return Decision(number, title, status, items, basis, tuple(sections))


def _decisions_dir() -> Traversable:
    """The records shipped in a wheel, else the repository's docs/decisions (editable installs)."""
    packaged = resources.files("mtgr").joinpath("_data", "decisions")
    if packaged.is_dir():
        return packaged
    repository = Path(__file__).resolve().parents[2] / "docs" / "decisions"
    if repository.is_dir():
        return repository
    raise FileNotFoundError(f"no decision records: looked in {packaged} and {repository}")


@cache
def load_decisions() -> dict[int, Decision]:
    """Every decision record by number, parsed once per process."""
    found: dict[int, Decision] = {}
    for entry in sorted(_decisions_dir().iterdir(), key=lambda e: e.name):
        if not _FILE.match(entry.name):
            continue
        decision = parse_decision(entry.read_text(encoding="utf-8"))
        if entry.name[:4] != f"{decision.number:04d}":
            raise ValueError(f"{entry.name}: file name and title number differ")
        found[decision.number] = decision
    return found


def decision_item(ref: str) -> str:
    """The text of a decision item written as "0018.5"; KeyError if there is no such item."""
    match = _REF.match(ref)
    if not match:
        raise ValueError(f"not a decision item reference: {ref!r} (expected e.g. '0018.5')")
    number, item = int(match.group(1)), int(match.group(2))
    decision = load_decisions().get(number)
    if decision is None or item not in decision.items:
        raise KeyError(f"no decision item {ref}")
    return decision.items[item]
