"""The starting life a header's variant gives (CR 103.4, 903.7, 903.12f): Brawl's depends on
how many players the header declares, so it is settled only by the last `player` line."""

from __future__ import annotations

import pytest

from mtgr.rules.walk import walk
from mtgr.syntax.document import Document


def _lives(header: str) -> dict[str, int]:
    state = walk(Document(header).lines).final_state
    return {p.name: p.life for p in state.players}


@pytest.mark.parametrize(
    ("variant", "players", "life"),
    [
        ("", 2, 20),
        ("variant commander\n", 4, 40),
        ("variant brawl\n", 2, 25),
        ("variant brawl\n", 3, 30),
        ("variant brawl\n", 4, 30),
    ],
)
def test_each_player_starts_with_the_variants_life(variant: str, players: int, life: int) -> None:
    names = ["Alice", "Bob", "Carol", "Dave"][:players]
    header = "mtgr 0.4\n" + variant + "".join(f'player "{n}" deck 60\n' for n in names)
    assert _lives(header) == dict.fromkeys(names, life)
