"""Every rule is complete: a stable code, a title, its decision items, CR rules that exist,
and documentation under every fixed heading with a ```mtgr example and fix."""

from __future__ import annotations

import re

import pytest

from mtgr.rules.registry import DOC_HEADINGS, RETIRED_CODES, all_rules

RULES = sorted(all_rules().values(), key=lambda r: r.code)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_complete(rule) -> None:
    assert re.fullmatch(r"[A-Z][0-9]{3}", rule.code)
    assert rule.code not in RETIRED_CODES
    assert rule.title and rule.doc.summary
    for heading in DOC_HEADINGS:
        assert rule.doc.section(heading).strip(), f"{rule.code} lacks '## {heading}'"
    for heading in ("Example", "Use instead"):
        assert "```mtgr" in rule.doc.section(heading), f"{rule.code}: {heading} needs an mtgr block"
    assert rule.decisions, f"{rule.code} names no decision item"
    for item in rule.decisions:
        assert re.fullmatch(r"[0-9]{4}\.[0-9]+", item), item
    assert rule.checks or rule.end_checks or rule.code.startswith("S"), (
        f"{rule.code} checks nothing"
    )


def test_codes_are_unique_and_ordered_by_area() -> None:
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))


def test_card_aware_checks_wait_for_a_card_index() -> None:
    """The A1xx rules read card text only: the walk does not call them without an index."""
    card_aware = [rule for rule in RULES if rule.code.startswith("A")]
    assert len(card_aware) >= 12
    for rule in card_aware:
        assert rule.gates, rule.code
        for check, gate in rule.gates.items():
            assert gate.with_cards, f"{rule.code}: {check.__name__} runs without a card index"
