"""The benchmark generator writes long, valid, deterministic recordings."""

from __future__ import annotations

from benchmarks.generate import generate

from mtgr.check import check_text


def test_a_generated_thousand_line_recording_checks_clean() -> None:
    text = generate(1000, seed=3)
    assert 1000 <= text.count("\n") < 1200
    assert [(d.line + 1, d.code, d.message) for d in check_text(text)] == []


def test_same_seed_same_text_and_real_game_patterns() -> None:
    text = generate(3000, seed=5)
    assert text == generate(3000, seed=5) != generate(3000, seed=6)
    for pattern in (
        " resolve -> battlefield",
        " new token ",
        " counters +1 +1/+1 by ",
        " search library by ",
        " shuffle library by ",
        " damage ",
        " life -",
        "\nkeyframe\n",
        "\ngame 2\n",
    ):
        assert pattern in text, pattern
