"""Checkpoints share what did not change: the walk's memory grows with the record, not with
the record times its objects (issue 17 item 5), and sharing never changes what is found."""

from __future__ import annotations

from itertools import pairwise

from benchmarks.generate import generate
from benchmarks.memory import one_long_game
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgr.rules.objects import PAGE_BITS, FrozenObjects, ObjectTable
from mtgr.rules.state import Checkpoint, GameObject, GameState, ObjectKind
from mtgr.rules.walk import rewalk, walk
from mtgr.syntax.document import Document


def _checkpoints_in_order(text: str) -> list[Checkpoint]:
    document = Document(text)
    result = walk(document.lines)
    return [result.checkpoints[line.id] for line in document.lines if line.id in result.checkpoints]


def test_a_checkpoint_shares_every_page_that_did_not_change_with_the_one_before() -> None:
    checkpoints = _checkpoints_in_order(one_long_game(1500))
    compared = 0
    for before, after in pairwise(checkpoints):
        new_pages = 0
        for page in after.objects.pages():
            old = before.objects.page_of(next(iter(page)))
            if old is not None and old.keys() == page.keys():
                compared += 1
                unchanged = all(old[n] is page[n] for n in page)
                assert (old is page) == unchanged
            new_pages += old is not page
        # 16 lines drawing a card each touch the pages of those 16 numbers: two at most
        assert new_pages <= 2
    assert compared > 20 * len(checkpoints)  # most pages were there before, and shared


def test_checkpoints_grow_with_the_lines_not_with_the_lines_times_the_objects() -> None:
    objects = 3000
    checkpoints = _checkpoints_in_order(one_long_game(objects))
    pages = {id(page): page for c in checkpoints for page in c.objects.pages()}
    sections = {id(s): s for c in checkpoints for s in c.objects.sections()}
    stored = sum(map(len, pages.values())) + sum(map(len, sections.values()))
    # each checkpoint copies at most two pages and their sections (32 entries each) ...
    assert stored <= objects + 4 * 2**PAGE_BITS * len(checkpoints)
    # ... where copying the table at every checkpoint stores every object each time
    assert sum(len(c.objects) for c in checkpoints) > 10 * stored


def _obj(number: int, name: str) -> GameObject:
    return GameObject(number, ObjectKind.CARD, name, "Alice", "Alice", "hand", 0, "hand")


_numbers = st.integers(0, 3000) | st.integers(0, 10**9)
_operations = st.lists(
    st.tuples(st.sampled_from(["set", "delete", "freeze"]), _numbers, st.sampled_from("abc")),
    max_size=80,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_numbers, st.sampled_from("abc"), max_size=40), _operations)
def test_a_frozen_table_holds_what_the_table_held_and_never_changes_after(
    start: dict[int, str], operations: list[tuple[str, int, str]]
) -> None:
    table = ObjectTable({n: _obj(n, name) for n, name in start.items()})
    frozen: list[tuple[FrozenObjects, dict[int, GameObject]]] = [(table.frozen(), dict(table))]
    for operation, number, name in operations:
        if operation == "set":
            table[number] = _obj(number, name)
        elif operation == "delete":
            table.pop(number, None)
        else:
            frozen.append((table.frozen(), dict(table)))
    frozen.append((table.frozen(), dict(table)))
    for kept, content in frozen:
        assert dict(kept.items()) == content and len(kept) == len(content)
        # page for page (see FrozenObjects.__eq__) what the same objects frozen at once are
        assert kept == ObjectTable(content).frozen()
        assert (kept == frozen[-1][0]) == (content == frozen[-1][1])
    assert table == frozen[-1][0] and frozen[-1][0] == table


def test_checkpoints_share_the_parts_that_seldom_change() -> None:
    checkpoints = _checkpoints_in_order(generate(2000, seed=7))
    settled = {id(c.settled) for c in checkpoints}
    assert len(settled) < len(checkpoints) // 4
    for before, after in pairwise(checkpoints):
        assert (before.settled is after.settled) == (before.settled == after.settled)


def test_a_checkpoint_equals_its_state_until_the_state_changes() -> None:
    state = GameState().with_object(_obj(7, "Island"))
    checkpoint = state.checkpoint()
    assert checkpoint == state and checkpoint.snapshot() == state
    state.with_object(_obj(7, "Forest"))
    assert checkpoint != state
    assert checkpoint.snapshot().objects[7].name == "Island"
    state.with_object(_obj(7, "Island"))
    assert checkpoint == state


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(30, 600),
            st.sampled_from(['"Alice" draw #{n} "Forest" by #2', "// a note", "#7 play", ""]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_an_incremental_check_of_a_game_of_many_objects_equals_a_full_check(
    edits: list[tuple[int, str]],
) -> None:
    document = Document(one_long_game(600))
    result = walk(document.lines)
    for line, text in edits:
        number = len(document.lines) + 100
        first = document.edit((line, 0), (line + 1, 0), text.format(n=number) + "\n")
        result = rewalk(result, document.lines, first)
        fresh = walk(document.lines)
        assert result.findings(document.lines) == fresh.findings(document.lines)
        assert result.final_state == fresh.final_state


def test_a_walk_done_again_shares_what_equals_the_walk_before_it() -> None:
    """A line pasted from later makes every state below it differ in the numbers taken, and
    the walk goes on to the end; its checkpoints keep the previous walk's objects (and the
    parts that did not change) instead of a second copy of them (issue 17 item 5)."""
    document = Document(generate(2000, seed=7))
    before = walk(document.lines)
    later = document.texts[1500]
    assert "#" in later
    first = document.edit((300, 0), (300, 0), later + "\n")
    after = rewalk(before, document.lines, first)
    assert after.lines_walked > 1000
    fresh = walk(document.lines)
    assert after.findings(document.lines) == fresh.findings(document.lines)
    assert after.final_state == fresh.final_state
    shared = 0
    for line in document.lines[first + 1 :]:
        old, new = before.checkpoints.get(line.id), after.checkpoints.get(line.id)
        if old is None:
            continue
        assert new is not None  # kept where the previous walk kept one
        if new is old:
            break  # where the walk stopped: all is as before from here on
        assert new != old  # the walk did not stop: the states differ ...
        if new.objects == old.objects:  # ... but often not in their objects
            assert new.objects is old.objects
            shared += 1
        sets = [(a, b) for a, b in zip(new.parts, old.parts, strict=True) if type(a) is frozenset]
        assert all(a is b for a, b in sets if a == b)
    assert shared > 50
