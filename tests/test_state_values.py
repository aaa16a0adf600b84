"""The walk's values: copies made by `evolve`, and seats counted round the table."""

from __future__ import annotations

import dataclasses

import pytest

from mtgr.rules.state import (
    NO_DETAILS,
    Casting,
    GameObject,
    GameState,
    Library,
    ObjectKind,
    PlayerState,
    Turn,
    evolve,
    new_object,
)

CARD = GameObject(7, ObjectKind.CARD, "Forest", "Alice", "Alice", "battlefield", 3, "hand")


@pytest.mark.parametrize(
    ("value", "changes"),
    [
        (CARD, {"tapped": True, "counters": (("+1/+1", 2),)}),
        (CARD, {}),
        (Turn(3, "Bob", 12, 4, "main", None), {"position": 5, "phase": "combat"}),
        (PlayerState("Alice", library=Library(40, (1,), ())), {"life": 17}),
        (Casting(9, 2, (1, None, 4, None, None, None)), {"stage": 3}),
    ],
)
def test_evolve_equals_dataclasses_replace(value: object, changes: dict[str, object]) -> None:
    copy = evolve(value, **changes)
    assert copy == dataclasses.replace(value, **changes)  # type: ignore[type-var]
    assert type(copy) is type(value)
    assert copy is not value
    assert hash(copy) == hash(dataclasses.replace(value, **changes))  # type: ignore[type-var]


def test_evolve_leaves_the_original_and_gives_a_frozen_copy() -> None:
    copy = evolve(CARD, tapped=False, zone="graveyard")
    assert (CARD.tapped, CARD.zone) == (False, "battlefield")
    assert copy.zone == "graveyard"
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.zone = "exile"  # type: ignore[misc]


def test_evolve_refuses_a_field_the_value_does_not_have() -> None:
    with pytest.raises(AttributeError):
        evolve(CARD, zoen="exile")


def test_versions_share_their_details_until_a_detail_changes() -> None:
    tapped = evolve(CARD, tapped=True, tapped_at=9)
    assert tapped.details is CARD.details is NO_DETAILS
    attacking = evolve(tapped, attacking=True, attack_target="Bob")
    assert (attacking.attacking, attacking.attack_target, attacking.tapped) == (True, "Bob", True)
    assert attacking.details is not NO_DETAILS
    untapped = evolve(attacking, tapped=False)
    assert untapped.details is attacking.details
    # back to every default (out of combat): the one shared blank again, equal as before
    back = evolve(untapped, attacking=False, attack_target=None)
    assert back.details is NO_DETAILS and back == evolve(CARD, tapped_at=9)
    # a change that changes nothing (a move resetting what the card never had) copies none
    assert evolve(CARD, damage=0, counters=(), face_down=False).details is NO_DETAILS


def test_an_unknown_field_is_refused_by_the_constructor() -> None:
    with pytest.raises(TypeError):
        GameObject(7, ObjectKind.CARD, "Forest", "Alice", "Alice", "hand", 3, "hand", zoen=1)  # type: ignore[call-arg]


def test_new_object_equals_the_constructed_one() -> None:
    fields = {
        "number": 12,
        "kind": ObjectKind.TOKEN,
        "name": "Goblin",
        "owner": "Bob",
        "controller": "Bob",
        "zone": "battlefield",
        "introduced": 40,
        "introduced_zone": "battlefield",
        "tapped": True,
        "entered_moment": 38,
        "damage": 2,
    }
    made = new_object(**fields)  # type: ignore[arg-type]
    assert made == GameObject(**fields)  # type: ignore[arg-type]
    assert type(made) is GameObject


def _table(*seats: tuple[str, bool]) -> GameState:
    return GameState(players=tuple(PlayerState(name, lost=lost) for name, lost in seats))


@pytest.mark.parametrize(
    ("after", "steps", "expected"),
    [
        ("A", 0, "A"),
        ("A", 1, "C"),  # B left the game
        ("A", 2, "D"),
        ("A", 3, "A"),
        ("B", 1, "C"),  # from a player who left, the next one still in
        ("D", 1, "A"),
        ("A", 3 * 10**12 + 1, "C"),  # a turn number far ahead: counted round, not stepped
        ("X", 1, None),
    ],
)
def test_next_player_skips_players_who_left(after: str, steps: int, expected: str | None) -> None:
    state = _table(("A", False), ("B", True), ("C", False), ("D", False))
    assert state.next_player(after, steps) == expected
