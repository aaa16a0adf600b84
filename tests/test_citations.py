"""Every CR rule the docs and forms.toml cite exists, and every quotation is the CR's own words.

A wrong rule number sends a reader, and hover, to the wrong rule; decision 0019 item 9 exists
because that happened. The reference text is the CR effective 2026-09-25 in ../shared/cr/.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from mtgr.syntax.forms import load_forms
from mtgr.syntax.parser import grammar_words

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CR_PATH = ROOT.parent / "shared" / "cr" / "MagicCompRules-20260925.txt"
CHECKER = ROOT.parent / "shared" / "tools" / "check-citations.py"

RULE = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)(?!\d)")
SECTION = re.compile(r"\bCR (\d{3})\b(?!\.\d)")
QUOTE_MARKS = re.compile("[\"'\u2018\u2019\u201c\u201d]")
ELISION = re.compile(r"\.\s?\.\s?\.|…")
MIN_QUOTE = 25


def _absent(path: Path, what: str) -> None:
    """Fail in CI, where ../shared is provided; skip on a machine that lacks it."""
    message = f"{what} not found at {path} (expected ../shared beside the repository)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@cache
def _cr_text() -> str:
    return CR_PATH.read_text(encoding="utf-8")


@pytest.fixture
def cr() -> str:
    if not CR_PATH.exists():
        _absent(CR_PATH, "the Comprehensive Rules text")
    return _cr_text()


def _fold(text: str) -> str:
    """Normalise only quote marks and white space."""
    return re.sub(r"\s+", " ", QUOTE_MARKS.sub('"', text)).strip()


def _rules_in(cr: str) -> set[str]:
    numbered = set(re.findall(r"^(\d{3}\.\d+[a-z]?)[. ]", cr, re.M))
    sections = set(re.findall(r"^(\d{3})\. ", cr, re.M))
    return numbered | sections


def _doc_lines() -> list[tuple[str, int, str]]:
    lines = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            lines.append((str(path.relative_to(ROOT)), number, line))
    return lines


def quotations(line: str) -> list[str]:
    """Quoted stretches of a line: curly pairs, then straight pairs outside them."""
    curly = re.findall(r"“([^”]*)”", line)
    straight = re.findall(r'"([^"]*)"', re.sub(r"“[^”]*”", "", line))
    return [q for q in (*curly, *straight) if len(q) >= MIN_QUOTE]


def quote_in_cr(quote: str, cr_folded: str) -> bool:
    """A quotation may elide with ... or . . .; each remaining piece must appear in the CR.

    A quotation may also end its sentence where the CR's goes on ("occurs instead." for the
    CR's "occurs instead, which..."), so one closing punctuation mark is not compared.
    """
    folded = _fold(quote)
    folded = folded[:-1] if folded.endswith((".", ",", ";", ":")) else folded
    pieces = [p.strip() for p in ELISION.split(folded)]
    return all(piece in cr_folded for piece in pieces if piece)


def test_docs_cite_rules(cr: str) -> None:
    cited = {m for _, _, line in _doc_lines() for m in RULE.findall(line)}
    assert len(cited) > 100, "the docs cite the CR throughout"


def test_every_rule_cited_in_docs_exists(cr: str) -> None:
    rules = _rules_in(cr)
    missing = [
        f"{path}:{number}: {rule}"
        for path, number, line in _doc_lines()
        for rule in [*RULE.findall(line), *SECTION.findall(line)]
        if rule not in rules
    ]
    assert missing == []


def test_every_quotation_next_to_a_citation_is_in_the_cr(cr: str) -> None:
    cr_folded = _fold(cr)
    checked = 0
    not_found = []
    for path, number, line in _doc_lines():
        if not RULE.search(line):
            continue
        for quote in quotations(line):
            checked += 1
            if not quote_in_cr(quote, cr_folded):
                not_found.append(f"{path}:{number}: {quote[:80]}")
    assert checked > 100
    assert not_found == []


def test_every_rule_in_forms_exists(cr: str) -> None:
    rules = _rules_in(cr)
    missing = [
        (name, r) for name, form in load_forms().items() for r in form.rules if r not in rules
    ]
    assert missing == []


def test_quote_matching_folds_only_quotes_and_space_and_allows_elision(cr: str) -> None:
    cr_folded = _fold(cr)
    assert quote_in_cr("If an event is replaced, it never happens.", cr_folded)
    assert quote_in_cr("The order of objects in a library ... can't be changed", cr_folded)
    assert quote_in_cr("The order of objects in a library . . . can\u2019t be changed", cr_folded)
    assert not quote_in_cr("If an event is replaced, it never happened.", cr_folded)
    assert not quote_in_cr("If an event is replaced it never happens.", cr_folded)
    assert quote_in_cr("A modified event occurs instead.", cr_folded)  # the CR goes on: ", which"
    assert not quote_in_cr("A modified event occurs instead!", cr_folded)
    assert quotations('• 608.1: "short" and "Each time all players pass in succession"') == [
        "Each time all players pass in succession"
    ]


def test_independent_citation_checker_reports_nothing_missing(cr: str) -> None:
    if not CHECKER.exists():
        _absent(CHECKER, "the independent citation checker")
    result = subprocess.run(
        [sys.executable, str(CHECKER), str(DOCS), str(CR_PATH)],
        capture_output=True,
        text=True,
        check=False,
    )
    last = result.stdout.strip().splitlines()[-1]
    assert re.search(r", 0 missing; \d+ quotes, 0 not found$", last), result.stdout
    assert result.returncode == 0


# CR 702 keywords that are ways to cast a spell (decision 0081 item 1): an alternative or
# additional cost, or a permission to cast the card from another zone.
WAY_TO_CAST = re.compile(
    r"rather than pay|as an additional cost to cast|you may cast this card from", re.I
)


def test_every_way_to_cast_in_cr_702_is_a_cast_mode(cr: str) -> None:
    modes = set(grammar_words("cast_mode"))
    keywords = re.findall(r"^702\.(\d+)\. (.+)$", cr, re.M)
    # a keyword's variants have a sub-rule of their own (702.37b: "Megamorph is a variant of
    # the morph ability. ...")
    variants = re.findall(r"^702\.(\d+[a-z]) ([A-Z][a-z -]*?) is a variant of (.+)$", cr, re.M)
    missing = []
    for number, name in keywords:
        text = " ".join(re.findall(rf"^702\.{number}[a-z] (.+)$", cr, re.M))
        word = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        if WAY_TO_CAST.search(text) and word not in modes:
            missing.append(f"702.{number} {name}")
    for number, name, text in variants:
        word = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        if WAY_TO_CAST.search(text) and word not in modes:
            missing.append(f"702.{number} {name}")
    assert len(keywords) > 150
    assert {"multikicker", "megamorph"} <= {v[1].lower() for v in variants}
    assert missing == []
