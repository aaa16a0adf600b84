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
#2 resolve
"Alice" concede
game 2
"Alice" sideboard in 2 "Duress"
"Alice" sideboard out 2 "Lava Spike"
"Bob" sideboard
start "Alice" by "Alice"
"Alice" draw #20 "Mountain"
"Alice" draw #21 "Lightning Bolt"
"Alice" draw #22 "Goblin Guide"
"Alice" draw #23 "Mountain"
"Alice" draw #24 "Lava Spike"
"Alice" draw #25 "Monastery Swiftspear"
"Alice" draw #26 "Rift Bolt"
"Bob" draw #27
"Bob" draw #28
"Bob" draw #29
"Bob" draw #30
"Bob" draw #31
"Bob" draw #32
"Bob" draw #33
"Alice" keep
"Bob" keep
turn 1 "Alice"
game drawn
game 3
start "Bob" by "Alice"
"Bob" concede
match drawn 1-1-1
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
    "game 2\n",
    "game drawn\n",
    '"Bob" concede\n',
    '"Alice" sideboard in "Duress"\n',
    'match "Bob" 2-1\n',
    "variant commander\n",
    '#8 new commander "Tymna the Weaver" command "Alice"\n',
    "#8 cast from command tax 2\n",
    '#13 damage 21 -> "Bob"\n',
    'player "Carol"\n',
    '"Carol" concede\n',
    'judge penalty "Bob" game-loss "Deck Problem"\n',
    "judge time turns 1\n",
    "judge backup\n",
    "judge call allow D804\n",
    # notation 0.5, decisions 0020 to 0022: entering in combat, owners, control until
    '#40 new token "Soldier" battlefield "Alice" tapped attacking "Bob" by #13\n',
    "#41 move hand -> battlefield blocking #13 by #2\n",
    '#13 control "Bob" until end-of-turn by #2\n',
    '#15 play "Bob" from hand by #2\n',
    '#2 resolve -> battlefield tapped attacking "Alice"\n',
    'keyframe\n#13 battlefield "Bob" owner "Alice" tapped\nend\n',
    "step cleanup\n",
    # decision 0023: attachments
    "#13 attach #8 by #2\n",
    "#13 unattach by #2\n",
    "#2 resolve -> battlefield attached #13\n",
    "#8 move battlefield -> graveyard by sba\n",
    # decision 0024: state-based actions
    '"Bob" life -25 by #13\n',
    '"Bob" lose by sba\n',
    "#9 damage 2 -> #13\n",
    "#13 move battlefield -> graveyard as destroy by sba\n",
    # decision 0025: phasing
    "#13 phase out by #9\n",
    "#13 phase in\n",
    'keyframe\n#13 battlefield "Alice" phased-out\nend\n',
    "step untap\n",
    # decisions 0040 to 0043: replacement on every event, the mulligan, searches, added phases
    "#14 move library -> graveyard as mill replacement #9\n",
    "#2 resolve -> exile replacement #9\n",
    '#13 damage 0 -> "Bob" replacement #9 #13\n',
    '"Alice" win replacement #9\n',
    '"Alice" search graveyard "Bob" by #13\n',
    '#14 move hand -> library bottom by "Alice"\n',
    '"Alice" mulligan\n',
    "phase combat by #13\nphase main by #13\nphase combat\n",
    # decisions 0044 and 0045: timing, loyalty, targets, casting order, madness
    '#9 choose "x"\n#9 target "Bob"\n#9 pay {R}\n',
    "#30 activate of #13\n#13 counters -2 loyalty by #30\n",
    "#9 cast from exile madness by #13\n",
    "#13 fizzle\n",
    # decision 0026: emblems and designations
    '#42 new emblem "Emblem" command "Alice" by #13\n',
    '"Alice" monarch by #13\n',
    "#43 trigger of monarch\n",
    "day by #13\n",
    "night\n",
    # decision 0027: deathtouch and regeneration
    "#9 damage 1 -> #13 deathtouch\n",
    "#13 regenerate by sba replacement #9\n",
    # decision 0028: face down
    "#44 move hand -> battlefield face-down by #9\n",
    "#13 turn face-up\n",
    '#2 "Grizzly Bears" turn face-up\n',
    # decision 0029: faces
    "#13 transform by #13\n",
    "#15 play back tapped\n",
    "#9 cast back\n",
    # decisions 0060 to 0062: keyframe damage and designations, the legend rule, the Ring
    'keyframe\n#13 battlefield "Alice" damage 2\n"Alice" monarch\nday\nend\n',
    '"Alice" choose #13 by sba\n',
    '#45 new emblem "The Ring" command "Alice" by #9\n"Alice" ring-bearer #13 by #9\n',
    '"Bob" ring-bearer by #9\n',
    'keyframe\n"Alice" ring-bearer #13 tempted 2\nend\n',
    '#46 new card "Undercity" command "Alice" by #9\n"Alice" venture "Secret Entrance" by #9\n',
    "#46 complete by sba\n",
    'keyframe\n"Alice" venture "Forge"\nend\n',
    '#9 cast half "Ice"\n',
    "#9 cast adventure\n#9 resolve -> exile\n",
    "#13 flip by #13\n",
    'keyframe\n#13 battlefield "Alice" flipped\nend\n',
    "#13 meld #2 by #9\n",
    '#13 move battlefield -> graveyard by sba\nkeyframe\n#13 battlefield "Alice" back melded #2\nend\n',
    # decision 0081: ways to cast, and the typo that a quick fix answers
    "#9 cast from graveyard jump-start\n#9 resolve -> exile\n",
    "#9 cast convoke kicker\n#9 pay {G}\n#2 tap by #9\n",
    '#9 cast omen\n#9 resolve -> library\n"Alice" shuffle library by #9\n',
    "#9 cast flashbak\n",
]


@st.composite
def edits(
    draw: st.DrawFn, document_lines: int = len(GAME.splitlines())
) -> list[tuple[int, int, int, int, str]]:
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
        assert {k: v for k, v in result.life_after.items() if k in ids} == fresh.life_after
        numbers = {entry.id: number for number, entry in enumerate(document.lines)}
        for line_id in before | set(numbers):
            assert document.number_of(line_id) == numbers.get(line_id)
    assert [line.parsed for line in document.lines] == [
        parse_line(text) for text in Document(document.text).texts
    ]


@settings(max_examples=150, deadline=None)
@given(edits(), st.integers(1, 4))
def test_line_numbers_asked_after_several_edits_are_those_of_a_fresh_count(
    sequence: list[tuple[int, int, int, int, str]], asked_every: int
) -> None:
    """The number table renumbers from the first line an edit moved, when next asked:
    edits that pile up between two questions must leave it exact."""
    document = Document(GAME)
    document.number_of(0)
    seen = {entry.id for entry in document.lines}
    for done, (line, column, end_line, end_column, text) in enumerate(sequence, 1):
        document.edit((line, column), (end_line, end_column), text)
        seen |= {entry.id for entry in document.lines}
        if done % asked_every == 0 or done == len(sequence):
            numbers = {entry.id: number for number, entry in enumerate(document.lines)}
            assert {line_id: document.number_of(line_id) for line_id in seen} == {
                line_id: numbers.get(line_id) for line_id in seen
            }


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


def test_an_edit_to_how_a_game_ended_stops_after_the_next_game() -> None:
    """Only the next game's chooser depends on how a game ended (decision 0030): the walk
    converges again by the game after it, however long the rest of the file is."""
    text = GAME + GAME.split("game 2\n", 1)[1].replace("game 3", "game 4") + "game 5\n" * 40
    document = Document(text)
    result = walk(document.lines)
    line = document.texts.index('"Alice" concede')
    first = document.edit((line, 1), (line, 2), "X")  # "Xlice" concede: Alice plays on
    result = rewalk(result, document.lines, first)
    fresh = walk(document.lines)
    assert result.findings(document.lines) == fresh.findings(document.lines)
    game_3 = document.texts.index("game 3")
    assert result.lines_walked <= game_3 - line + 16
