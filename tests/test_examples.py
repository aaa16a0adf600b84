"""Every example checks clean, with the fixture card index and without one; the mistakes
file gives exactly its pinned diagnostics, with the index as without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgr.cards.store import open_index
from mtgr.check import check_record, check_text
from mtgr.syntax.markdown import mtgr_blocks
from mtgr.syntax.parser import parse_line
from mtgr.syntax.tree import (
    Cast,
    Damage,
    GameStart,
    JudgeEvent,
    MatchResult,
    PlayerDeclaration,
    Roll,
    Sideboard,
    Turn,
)

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
    found, failed = check_record(record(path), cards=cards)
    assert [(d.line + 1, d.code, d.message) for d in found] == []
    assert failed == []  # no rule raised, which would leave its line unchecked


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


def test_the_match_example_rolls_once_and_sideboards_between_games() -> None:
    """Decision 0030: the roll opens game 1 only; each later game starts with its game line,
    its sideboarding and the previous game's loser choosing; the match result ends it."""
    lines = (EXAMPLES / "match-alice-side.mtgr").read_text(encoding="utf-8").splitlines()
    statements = [s for s in (parse_line(line).statement for line in lines) if s is not None]
    games = [i for i, s in enumerate(statements) if isinstance(s, GameStart)]
    assert [statements[i].number.value for i in games] == [1, 2, 3]  # type: ignore[attr-defined]
    rolls = [i for i, s in enumerate(statements) if isinstance(s, Roll)]
    assert rolls and all(games[0] < i < games[1] for i in rolls)
    for start in games[1:]:
        assert isinstance(statements[start + 1], Sideboard)
    assert isinstance(statements[-1], MatchResult)
    assert 'start "Alice" by "Alice"' in lines and 'start "Bob" by "Bob"' in lines


def test_the_commander_example_eliminates_a_player_by_commander_damage() -> None:
    """Decisions 0031 and 0032: four players, at least eight turns, a commander-damage loss
    after which the game goes on without that player."""
    lines = (EXAMPLES / "commander-four-players.mtgr").read_text(encoding="utf-8").splitlines()
    statements = [s for s in (parse_line(line).statement for line in lines) if s is not None]
    assert sum(isinstance(s, PlayerDeclaration) for s in statements) == 4
    assert sum(isinstance(s, Turn) for s in statements) >= 8
    loss = next(i for i, s in enumerate(statements) if s.verb.value == "lose")
    assert any(isinstance(s, Damage) for s in statements[loss - 3 : loss])
    assert any(isinstance(s, Turn) for s in statements[loss:])
    assert any(isinstance(s, Cast) and s.tax is not None for s in statements)


def test_the_judge_example_keeps_an_illegal_play_by_a_ruling() -> None:
    """Decision 0033: without the ruling's `allow K304`, the second land is reported."""
    text = (EXAMPLES / "judge-missed-trigger-and-game-loss.mtgr").read_text(encoding="utf-8")
    statements = [s for s in (parse_line(line).statement for line in text.splitlines()) if s]
    events = [s.event.value for s in statements if isinstance(s, JudgeEvent)]
    assert {"missed-trigger", "penalty", "backup"} <= set(events)
    assert any(
        isinstance(s, JudgeEvent) and s.penalty and s.penalty.value == "game-loss"
        for s in statements
    )
    assert check_text(text) == []
    unruled = text.replace(" allow K304", "")
    assert [d.code for d in check_text(unruled)] == ["K304"]
