"""Every example checks clean, with the fixture card index and without one; the mistakes
file gives exactly its pinned diagnostics, with the index as without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgr.cards.store import open_index
from mtgr.check import check_text
from mtgr.syntax.markdown import mtgr_blocks

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CARDS = open_index(Path(__file__).resolve().parent / "cards" / "scryfall-oracle-cards.json")
PROMISED = ["opening-hand.md", "mycospawn-turn-5.mtgr", "lasting-effects.mtgr"]


def record(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return mtgr_blocks(text) if path.suffix == ".md" else text


def examples() -> list[Path]:
    return sorted(
        p for p in EXAMPLES.iterdir() if p.suffix in (".mtgr", ".md") and p.stem != "mistakes"
    )


def test_the_examples_the_records_promise_exist() -> None:
    for name in PROMISED:
        assert (EXAMPLES / name).is_file(), name
    assert any("Ragavan, Nimble Pilferer" in p.read_text(encoding="utf-8") for p in examples())


@pytest.mark.parametrize("cards", [None, CARDS], ids=["no cards", "fixture cards"])
@pytest.mark.parametrize("path", examples(), ids=lambda p: p.name)
def test_example_checks_clean(path: Path, cards) -> None:
    assert [(d.line + 1, d.code, d.message) for d in check_text(record(path), cards=cards)] == []


@pytest.mark.parametrize("cards", [None, CARDS], ids=["no cards", "fixture cards"])
def test_mistakes_give_exactly_the_pinned_diagnostics(cards) -> None:
    text = (EXAMPLES / "mistakes.mtgr").read_text(encoding="utf-8")
    found = [(d.line + 1, d.code) for d in check_text(text, cards=cards)]
    assert found == [(57, "R601"), (74, "K301"), (117, "F901"), (130, "V701"), (190, "D801")]
    marked = [
        n
        for n, line in enumerate(text.splitlines(), 1)
        if "// mistake:" in line and line.split("//")[0].strip()
    ]
    assert marked == [line for line, _ in found]


def test_mycospawn_records_impulse_at_top_one_to_four() -> None:
    text = (EXAMPLES / "mycospawn-turn-5.mtgr").read_text(encoding="utf-8")
    for depth in (1, 2, 3, 4):
        assert f'library "Alice" top {depth}' in text


def test_late_recordings_start_with_a_gap_and_a_keyframe() -> None:
    for name in ("mycospawn-turn-5.mtgr", "lasting-effects.mtgr"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        assert "\nincomplete" in text and "\nkeyframe" in text
