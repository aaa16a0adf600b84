"""A finding about a tapped permanent points at the line that tapped it: the `tap`, or an
`attack` written without `untapped` (a creature without vigilance stays tapped until its
controller's untap step, which is what a recorder most often forgets)."""

from __future__ import annotations

from mtgr.check import check_text

GAME = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective all
incomplete
turn 5 "Alice"
phase main
#1 new card "Serra Angel" battlefield "Alice"
#2 new card "Goblin Guide" battlefield "Bob"
#3 new card "Island" battlefield "Alice"
keyframe
#1 battlefield "Alice"
#2 battlefield "Bob"
#3 battlefield "Alice"
end
#3 tap by #3
#3 untap by #2
#3 tap by #3
phase combat
step declare-attackers
#1 attack "Bob"
step declare-blockers
step combat-damage
#1 damage 4 -> "Bob"
"Bob" life -4 by #1
phase ending

turn 6 "Bob"
step untap
step upkeep
step draw
"Bob" draw #4 "Mountain"
phase combat
step declare-attackers
#2 attack "Alice"
step declare-blockers
#1 block #2
#3 tap by #3
"""
LINES = GAME.splitlines()


def _line(text: str, after: int = 0) -> int:
    return LINES.index(text, after)


def test_a_creature_that_attacked_points_at_its_attack() -> None:
    (block,) = [d for d in check_text(GAME) if d.code == "T408"]
    assert block.line == _line("#1 block #2")
    assert _line('#1 attack "Bob"') in {r.line for r in block.related}


def test_a_second_tap_points_at_the_last_tap() -> None:
    (tap,) = [d for d in check_text(GAME) if d.code == "D804"]
    assert tap.line == _line("#3 tap by #3", _line("#1 block #2"))
    last_tap = _line("#3 tap by #3", _line("#3 untap by #2"))
    assert last_tap in {r.line for r in tap.related}
    assert _line("#3 tap by #3") not in {r.line for r in tap.related}


def test_vigilance_leaves_nothing_to_point_at() -> None:
    text = GAME.replace('#1 attack "Bob"', '#1 attack "Bob" untapped')
    assert [d.code for d in check_text(text)] == ["D804"]
