"""Lasting effects end when the rules say (decisions 0013 item 7 and 0044 item 5): an effect on
an object when that object leaves its zone, an effect `until leaves` when its source leaves
the battlefield; other effects stay."""

from __future__ import annotations

from mtgr.rules.walk import walk
from mtgr.syntax.document import Document

GAME = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
incomplete
turn 5 "Alice"
phase main
#1 new card "Sower of Temptation" battlefield "Alice"
#2 new card "Goblin Guide" battlefield "Bob"
#3 new card "Giant Growth" graveyard "Alice"
#4 new card "Intangible Virtue" battlefield "Alice"
keyframe
#1 battlefield "Alice"
#2 battlefield "Bob"
#3 graveyard "Alice"
#4 battlefield "Alice"
"Alice" life 20
"Bob" life 20
"Alice" library 40
"Bob" library 40
end
#1 effect "Goblin Guide can't attack" on #2 until leaves
#3 effect "Goblin Guide gets +3/+3" on #2 until end-of-turn
#4 effect "the next token enters tapped"
"""


def effect_texts(text: str) -> list[str]:
    return [effect.text for effect in walk(Document(text).lines).final_state.effects]


def test_effects_stay_while_their_objects_stay() -> None:
    assert effect_texts(GAME) == [
        "Goblin Guide can't attack",
        "Goblin Guide gets +3/+3",
        "the next token enters tapped",
    ]


def test_an_effect_until_leaves_ends_when_its_source_leaves() -> None:
    text = GAME + "#1 move battlefield -> graveyard as destroy by #4\n"
    assert "Goblin Guide can't attack" not in effect_texts(text)
    assert "Goblin Guide gets +3/+3" in effect_texts(text)


def test_effects_on_an_object_end_when_it_leaves_its_zone() -> None:
    text = GAME + "#2 move battlefield -> exile by #4\n"
    assert effect_texts(text) == ["the next token enters tapped"]
