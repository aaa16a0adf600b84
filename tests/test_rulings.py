"""Judges' rulings (decision 0033) looked up for many lines at once, as the server does
after an edit, agree with `ruled` asked line by line; and an edit changes what they say
only from `ruling_reach` on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mtgr.check import ruled, ruling_reach, rulings_over
from mtgr.syntax.document import Document

LINES = [
    'turn 1 "Alice"',
    "game 2",
    "judge call allow O202",
    "judge call allow O201 O202",
    "judge call",
    '"Alice" draw #1 "Island"',
    "// a note",
]
CODES = ("O201", "O202")

records = st.lists(st.sampled_from(LINES), max_size=30)


@given(records, st.data())
def test_the_rulings_over_a_stretch_are_what_ruled_says_of_each_line(
    texts: list[str], data: st.DataObject
) -> None:
    lines = Document("\n".join(texts)).lines
    start = data.draw(st.integers(0, len(lines)))
    stop = data.draw(st.integers(start, len(lines)))
    found = rulings_over(lines, start, stop)
    assert len(found) == stop - start
    for number in range(start, stop):
        for code in CODES:
            assert (code in found[number - start]) == ruled(lines, number, code)


@given(records, records, st.sampled_from(LINES), st.data())
def test_an_edit_changes_the_rulings_only_from_their_reach_on(
    above: list[str], below: list[str], line: str, data: st.DataObject
) -> None:
    before = Document("\n".join([*above, line, *below])).lines
    edited = data.draw(st.sampled_from(LINES))
    after = Document("\n".join([*above, edited, *below])).lines
    reach = ruling_reach(after, len(above))
    assert reach == ruling_reach(before, len(above))
    for number in range(reach):
        for code in CODES:
            assert ruled(before, number, code) == ruled(after, number, code)
