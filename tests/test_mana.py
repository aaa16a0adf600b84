"""Mana pools as the lines state them (decision 0071): what `mana` lines add, what `pay` lines
take, when a pool is known, and that what remains is never less than the player may have."""

from __future__ import annotations

import pytest

from mtgr.rules.mana import EMPTY, added, after_paying, can_pay, produced, requirement
from mtgr.rules.summary import render_state
from mtgr.rules.walk import walk
from mtgr.syntax.document import Document

HEAD = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
incomplete
turn 5 "Alice"
phase main
#1 new card "Forest" battlefield "Alice"
#2 new card "Mountain" battlefield "Alice"
#3 new card "Tarmogoyf" hand "Alice"
#4 new card "Llanowar Elves" battlefield "Alice"
keyframe
#1 battlefield "Alice"
#2 battlefield "Alice"
#3 hand "Alice"
#4 battlefield "Alice"
"Alice" life 20
"Bob" life 20
"Alice" library 40
"Bob" library 40
end
"""


def pools(text: str) -> dict[str, tuple[int, ...]]:
    return dict(walk(Document(HEAD + text).lines).final_state.mana_pools)


def test_produced_reads_each_type_and_colorless_generic() -> None:
    assert produced("{G}{G}{R}") == (3, 0, 0, 0, 1, 2, 0)
    assert produced("{2}{C}") == (3, 0, 0, 0, 0, 0, 3)
    assert produced("{X}") is None
    assert produced("{G/W}") is None  # mana is made of one type, never hybrid


def test_requirement_counts_typed_generic_hybrid_and_phyrexian() -> None:
    cost = requirement("{2}{G}{G/W}{U/P}")
    assert cost is not None
    assert cost.typed == (0, 0, 0, 0, 1, 0)
    assert cost.total == 4  # {2}, {G}, and one for the hybrid; Phyrexian may be life
    assert requirement("{X}{R}") is None


@pytest.mark.parametrize(
    ("cost", "payable"), [("{1}{G}", True), ("{R}{G}", True), ("{G}{G}", False), ("{3}", False)]
)
def test_a_payment_needs_its_types_and_its_total(cost: str, payable: bool) -> None:
    pool = produced("{G}{R}")
    needed = requirement(cost)
    assert pool is not None and needed is not None
    assert can_pay(pool, needed) is payable


@pytest.mark.parametrize("made", ["{G}{R}", "{W}{U}{B}", "{G}{G}{C}", "{R}{R}{R}{G}"])
def test_what_remains_after_a_generic_payment_bounds_every_choice(made: str) -> None:
    """Whichever mana paid the generic symbol, what is left fits inside the bounds, so a
    later payment the player could make is never reported."""
    pool = produced(made)
    assert pool is not None
    cost = requirement("{1}")
    assert cost is not None
    bounds = after_paying(pool, cost)
    symbols = made.strip("{}").split("}{")
    for spent in set(symbols):
        left = list(symbols)
        left.remove(spent)
        exact = produced("".join(f"{{{s}}}" for s in left)) or EMPTY
        assert all(have <= bound for have, bound in zip(exact, bounds, strict=True))


def test_pools_follow_mana_and_pay_lines_and_empty_as_a_step_ends() -> None:
    lines = '#1 tap by #1\n"Alice" mana {G} by #1\n#2 tap by #2\n"Alice" mana {R} by #2\n'
    assert pools(lines) == {"Alice": added(produced("{G}") or EMPTY, produced("{R}") or EMPTY)}
    paid = lines + "#3 cast\n#3 pay {1}{G}\n"
    assert pools(paid) == {"Alice": EMPTY}
    assert pools(lines + "phase combat\n") == {}


def test_a_mana_ability_without_its_mana_line_leaves_the_pool_unknown() -> None:
    state = walk(Document(HEAD + '#1 tap by #1\n#2 tap by #2\n"Alice" mana {R} by #2\n').lines)
    assert state.final_state.mana_pools == ()
    assert "Alice" in state.final_state.mana_unstated


def test_a_permanent_paying_another_mana_ability_cost_without_its_mana_line_is_unknown() -> None:
    """Springleaf Drum (#2 here) tapping Llanowar Elves for mana: no `mana` line follows."""
    lines = '#1 tap by #1\n"Alice" mana {G} by #1\n#4 tap by #2\n#3 cast\n'
    assert "Alice" in walk(Document(HEAD + lines).lines).final_state.mana_unstated


def test_a_cost_of_two_lines_keeps_the_pool_known() -> None:
    """Lotus Petal (#2 here): `{T}, Sacrifice`, then its mana line."""
    lines = '#2 tap by #2\n#2 move battlefield -> graveyard as sacrifice by #2\n"Alice" mana {U} by #2\n'
    assert pools(lines) == {"Alice": produced("{U}")}


def test_mtgr_state_shows_the_pools() -> None:
    final = walk(Document(HEAD + '#1 tap by #1\n"Alice" mana {G} by #1\n').lines).final_state
    assert "  Alice: {G}" in render_state(final).splitlines()
