"""The semantic tokens delta: one edit between the common ends turns the old answer into
the new one, whatever the lengths (around the chunks the comparison takes at a time)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mtgr.server.features.semantic_tokens import edit_between

SMALL = st.integers(0, 3)


@given(
    st.lists(SMALL, max_size=1200),
    st.integers(0, 1200),
    st.integers(0, 40),
    st.lists(SMALL, max_size=40),
)
def test_the_edit_turns_old_into_new(
    old: list[int], at: int, removed: int, inserted: list[int]
) -> None:
    at = min(at, len(old))
    new = old[:at] + inserted + old[at + removed :]
    edit = edit_between(old, new)
    patched = old[: edit.start] + list(edit.data or []) + old[edit.start + edit.delete_count :]
    assert patched == new
    assert edit.delete_count <= min(removed, len(old) - at)
    assert len(edit.data or []) <= len(inserted)


def test_equal_answers_give_an_empty_edit() -> None:
    data = list(range(5)) * 400
    edit = edit_between(data, list(data))
    assert (edit.start, edit.delete_count, list(edit.data or [])) == (len(data), 0, [])
