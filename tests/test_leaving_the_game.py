"""A player who leaves a game that goes on takes what they own with them (CR 800.4a): their
Aura is attached to nothing any more, and another player's Aura on their creature becomes
unattached, to go to the graveyard by state-based action (CR 704.5m)."""

from __future__ import annotations

from mtgr.rules.state import GONE
from mtgr.rules.walk import walk
from mtgr.syntax.document import Document

GAME = """mtgr 0.4
player "Alice"
player "Bob"
player "Carol"
perspective all
incomplete
turn 9 "Carol"
phase main
#1 new card "Control Magic" battlefield "Carol"
#2 new card "Grizzly Bears" battlefield "Carol" owner "Alice"
#3 new card "Llanowar Elves" battlefield "Carol"
#4 new card "Rancor" battlefield "Bob"
keyframe
#1 battlefield "Carol" attached #2
#2 battlefield "Carol" owner "Alice"
#3 battlefield "Carol"
#4 battlefield "Bob" attached #3
"Alice" life 20
"Bob" life 20
"Carol" life 3
end
"Carol" concede
"""


def test_what_the_leaving_player_owns_is_attached_to_nothing() -> None:
    state = walk(Document(GAME).lines).final_state
    control_magic, bears, rancor = state.obj(1), state.obj(2), state.obj(4)
    assert control_magic is not None and control_magic.zone == GONE
    assert control_magic.attached_to is None
    assert bears is not None and bears.controller == "Alice"
    assert rancor is not None and rancor.zone == "battlefield"
    assert rancor.attached_to is None and rancor.detached  # to the graveyard by sba
    assert state.attached == frozenset()
