"""The case corpus: each offending line carries `// expect: CODE`, and a case must produce
exactly those diagnostics (code and line), no more and no fewer. A case whose first line is
`// needs: cards` is checked with the fixture card index (tests/cards/); the others
without one, as a user without card data checks them."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from mtgr.cards.store import SqliteCardIndex, open_index
from mtgr.check import check_record
from mtgr.rules.registry import all_rules

CASES = Path(__file__).parent / "cases"
CARDS_FIXTURE = Path(__file__).parent / "cards" / "scryfall-oracle-cards.json"
NEEDS_CARDS = "// needs: cards"
EXPECT = re.compile(r"//.*\bexpect:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")


def expected(text: str) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        match = EXPECT.search(line)
        if match:
            found.extend((number, code.strip()) for code in match.group(1).split(","))
    return sorted(found)


@cache
def fixture_cards() -> SqliteCardIndex:
    return open_index(CARDS_FIXTURE)


def actual(text: str) -> list[tuple[int, str]]:
    """The case's diagnostics; a rule that raised fails the case rather than leaving its
    line unchecked (the walk's barrier keeps a user's check going, not a test)."""
    cards = fixture_cards() if text.startswith(NEEDS_CARDS) else None
    found, failed = check_record(text, cards=cards)
    assert not failed, f"the checker raised: {failed}"
    return sorted((d.line + 1, d.code) for d in found)


def case_files(kind: str) -> list[Path]:
    return sorted((CASES / kind).glob("*.mtgr"))


@pytest.mark.parametrize("path", case_files("valid"), ids=lambda p: p.name)
def test_valid_case_has_no_diagnostics(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert expected(text) == [], "valid cases carry no expectations"
    assert actual(text) == []


@pytest.mark.parametrize("path", case_files("invalid"), ids=lambda p: p.name)
def test_invalid_case_has_exactly_its_expected_diagnostics(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert expected(text), "an invalid case must expect at least one diagnostic"
    assert actual(text) == expected(text)


def test_every_code_has_an_invalid_case_and_a_near_miss_valid_case() -> None:
    invalid = " ".join(p.read_text(encoding="utf-8") for p in case_files("invalid"))
    valid_names = " ".join(p.name for p in case_files("valid"))
    for code in all_rules():
        assert f"expect: {code}" in invalid or re.search(rf"expect:[^\n]*\b{code}\b", invalid), (
            f"no invalid case expects {code}"
        )
        assert code.lower() in valid_names, f"no valid near-miss case named after {code}"
