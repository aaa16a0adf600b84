"""A player who leaves a game that goes on takes what they own with them (CR 800.4a): their
Aura is attached to nothing any more, and another player's Aura on their creature becomes
unattached, to go to the graveyard by state-based action (CR 704.5m)."""

from __future__ import annotations

from mtgr.rules.state import GONE
from mtgr.rules.walk import walk
from mtgr.syntax.document import Document

THREE_PLAYERS_ON_CAROLS_TURN = """mtgr 0.4
player "Alice"
player "Bob"
player "Carol"
perspective all
incomplete
turn 9 "Carol"
phase main
"""

GAME = (
    THREE_PLAYERS_ON_CAROLS_TURN
    + """#1 new card "Control Magic" battlefield "Carol"
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
)


def test_what_the_leaving_player_owns_is_attached_to_nothing() -> None:
    state = walk(Document(GAME).lines).final_state
    control_magic, bears, rancor = state.obj(1), state.obj(2), state.obj(4)
    assert control_magic is not None and control_magic.zone == GONE
    assert control_magic.attached_to is None
    assert bears is not None and bears.controller == "Alice"
    assert rancor is not None and rancor.zone == "battlefield"
    assert rancor.attached_to is None and rancor.detached_moment is not None  # sba: graveyard
    assert state.attached == frozenset()


LEAVING_WITH_OTHERS_OBJECTS = (
    THREE_PLAYERS_ON_CAROLS_TURN
    + """#10 new card "Griselbrand" graveyard "Alice"
#11 new card "Reanimate" hand "Carol"
#12 new card "Goblin Guide" battlefield "Bob"
#13 new card "Act of Treason" hand "Carol"
#14 new card "Lightning Bolt" graveyard "Bob"
keyframe
#10 graveyard "Alice"
#11 hand "Carol"
#12 battlefield "Bob"
#13 hand "Carol"
#14 graveyard "Bob"
"Alice" life 20
"Bob" life 20
"Carol" life 20
end
#11 cast
#11 target #10
#11 pay {B}
#11 resolve
#10 move graveyard -> battlefield "Carol" by #11
#13 cast
#13 target #12
#13 pay {2}{R}
#13 resolve
#12 control "Carol" until end-of-turn by #13
#14 cast "Carol" from graveyard by #11
#14 target "Alice"
#14 pay {R}
#15 activate of #10
#15 pay life 7
"Carol" concede
"""
)


def test_what_the_leaving_player_still_controls_is_exiled() -> None:
    """CR 800.4a: control effects end, abilities cease to exist, and the rest is exiled."""
    state = walk(Document(LEAVING_WITH_OTHERS_OBJECTS).lines).final_state
    griselbrand, goblin, bolt, ability = (state.obj(n) for n in (10, 12, 14, 15))
    assert griselbrand is not None and griselbrand.zone == "exile"
    assert griselbrand.controller is None
    assert goblin is not None and goblin.zone == "battlefield" and goblin.controller == "Bob"
    assert bolt is not None and bolt.zone == "exile"
    assert ability is not None and ability.zone == GONE
    assert state.stack == ()
