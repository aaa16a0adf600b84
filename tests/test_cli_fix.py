"""`mtgr check --fix` (mtgr.fixes.fix_all) on every example and case: the safe fixes never
add a finding, each code they fix is found less often after, and a second run has
nothing left to fix."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mtgr.fixes import CheckedText, fix_all
from mtgr.syntax.document import split_lines

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted(
    [
        *ROOT.glob("examples/*.mtgr"),
        *ROOT.glob("tests/cases/invalid/*.mtgr"),
        *ROOT.glob("tests/cases/valid/*.mtgr"),
    ]
)


def _codes(text: str) -> Counter[str]:
    return Counter(d.code for d in CheckedText(text).diagnostics())


def test_the_corpus_has_safe_fixes_to_apply() -> None:
    applied: Counter[str] = Counter()
    for path in RECORDS:
        applied += fix_all("\n".join(split_lines(path.read_text(encoding="utf-8"))))[1]
    assert {"V701", "V702", "N105", "N107", "P505", "N103"} <= set(applied)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_safe_fixes_only_remove_findings(path: Path) -> None:
    text = "\n".join(split_lines(path.read_text(encoding="utf-8")))
    before = _codes(text)
    fixed, applied = fix_all(text)
    after = _codes(fixed)
    assert after - before == Counter()
    for code in applied:
        assert after[code] < before[code]
    assert fix_all(fixed)[1] == Counter()
