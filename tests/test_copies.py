"""A copy of a spell put on the stack: whose it is, and what it targets (decision 0014
item 2; CR 707.10)."""

from __future__ import annotations

from pathlib import Path

from mtgr.rules.state import GameState
from mtgr.rules.walk import state_before, walk
from mtgr.syntax.document import Document

CASES = Path(__file__).parent / "cases"
TWINCAST = (CASES / "valid" / "k331-a-copy-is-its-makers-and-keeps-the-targets.mtgr").read_text(
    encoding="utf-8"
)


def _state_after(text: str, marker: str) -> GameState:
    """The state after the first line that starts with `marker`."""
    document = Document(text)
    index = next(i for i, line in enumerate(text.splitlines()) if line.startswith(marker))
    return state_before(walk(document.lines), document.lines, index + 1)


def test_a_copy_is_controlled_by_the_controller_of_what_made_it() -> None:
    state = _state_after(TWINCAST, "#6 new copy of #5")
    assert state.objects[5].controller == "Bob"  # the Lightning Bolt copied
    assert state.objects[6].controller == "Alice"  # the copy Alice's Twincast made


def test_a_copy_has_the_targets_of_its_original_until_its_own_target_line() -> None:
    copied = _state_after(TWINCAST, "#6 new copy of #5")
    assert copied.objects[6].targets == copied.objects[5].targets
    assert [mark[0] for mark in copied.objects[6].targets] == ["Alice"]
    retargeted = _state_after(TWINCAST, "#6 target")
    assert [mark[0] for mark in retargeted.objects[6].targets] == ["Bob"]
