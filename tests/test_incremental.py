"""An incremental check gives exactly what a full check gives, after any sequence of edits,
with the fixture card index (the card-aware rules speaking) and without one."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgr.cards.store import open_index
from mtgr.rules.walk import rewalk, walk
from mtgr.syntax.document import Document
from mtgr.syntax.parser import parse_line

GAME = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 6
"Bob" roll d20 17
start "Bob" by "Bob"
"Bob" draw #1
"Bob" draw #2
"Bob" draw #3
"Bob" draw #4
"Bob" draw #5
"Bob" draw #6
"Bob" draw #7
"Alice" draw #8 "Mountain"
"Alice" draw #9 "Lightning Bolt"
"Alice" draw #10 "Goblin Guide"
"Alice" draw #11 "Mountain"
"Alice" draw #12 "Lava Spike"
"Alice" draw #13 "Monastery Swiftspear"
"Alice" draw #14 "Rift Bolt"
"Bob" keep
"Alice" keep
turn 1 "Bob"
step upkeep
phase main
#1 "Island" play
phase ending
turn 2 "Alice"
step draw
"Alice" draw #15 "Mountain"
phase main
#8 play
#8 tap by "Alice"
#13 cast
#13 pay {R} by "Alice"
#13 resolve -> battlefield
phase combat
step declare-attackers
#13 attack "Bob"
step combat-damage
#13 damage 1 -> "Bob"
"Bob" life -1 by #13
phase ending
turn 3 "Bob"
step untap
step draw
"Bob" draw #16
phase main
#2 "Counterspell" cast
"""

CARDS = open_index(Path(__file__).parent / "cards" / "scryfall-oracle-cards.json")

SNIPPETS = [
    "",
    "x",
    " ",
    "\n",
    "#",
    "1",
    '"',
    "->",
    "resolve",
    "#9 cast\n",
    "step end\n",
    '\n#13 tap by "Alice"',
    'turn 4 "Alice"\n',
    '"Bob" life -3 by #9\n',
    "keyframe\nend\n",
    "incomplete\n",
    "#9 play\n",
    '#17 "Lightnig Bolt" cast\n',
    '#10 cast\n#10 resolve -> battlefield\n#10 attack "Bob"\n',
]


@st.composite
def edits(draw: st.DrawFn, document_lines: int = 60) -> list[tuple[int, int, int, int, str]]:
    count = draw(st.integers(1, 12))
    result = []
    for _ in range(count):
        line = draw(st.integers(0, document_lines))
        column = draw(st.integers(0, 30))
        end_line = line + draw(st.integers(0, 2))
        end_column = draw(st.integers(0, 30))
        text = draw(st.sampled_from(SNIPPETS))
        result.append((line, column, end_line, end_column, text))
    return result


@pytest.mark.parametrize("cards", [None, CARDS], ids=["no cards", "fixture cards"])
@settings(max_examples=150, deadline=None)
@given(edits())
def test_incremental_equals_full_after_any_edits(
    cards, sequence: list[tuple[int, int, int, int, str]]
) -> None:
    document = Document(GAME)
    result = walk(document.lines, cards)
    for line, column, end_line, end_column, text in sequence:
        before = {entry.id for entry in document.lines}
        assert document.number_of(document.lines[-1].id) == len(document.lines) - 1
        first = document.edit((line, column), (end_line, end_column), text)
        result = rewalk(result, document.lines, first)
        fresh = walk(document.lines, cards)
        assert result.findings(document.lines) == fresh.findings(document.lines)
        assert result.final_state == fresh.final_state
        ids = {entry.id for entry in document.lines}
        assert {k: v for k, v in result.objects_after.items() if k in ids} == fresh.objects_after
        numbers = {entry.id: number for number, entry in enumerate(document.lines)}
        for line_id in before | set(numbers):
            assert document.number_of(line_id) == numbers.get(line_id)
    assert [line.parsed for line in document.lines] == [
        parse_line(text) for text in Document(document.text).texts
    ]


def test_an_edit_keeps_the_ids_of_untouched_lines() -> None:
    document = Document(GAME)
    before = [line.id for line in document.lines]
    document.edit((30, 0), (30, 0), "// a note\n")
    after = [line.id for line in document.lines]
    assert after[:30] == before[:30]
    assert after[31:] == before[30:]


def test_rewalk_after_a_late_edit_does_not_walk_the_whole_file() -> None:
    document = Document(GAME * 1)
    result = walk(document.lines)
    first = document.edit((40, 0), (40, 0), "// note\n")
    result = rewalk(result, document.lines, first)
    assert 0 < result.lines_walked < len(document.lines) // 2


def test_replace_all_keeps_common_prefix_and_suffix_ids() -> None:
    document = Document(GAME)
    before = [line.id for line in document.lines]
    new_text = GAME.replace("#8 play", "#11 play")
    first = document.replace_all(new_text)
    assert first == GAME.splitlines().index("#8 play")
    after = [line.id for line in document.lines]
    assert after[:first] == before[:first] and after[first + 1 :] == before[first + 1 :]
