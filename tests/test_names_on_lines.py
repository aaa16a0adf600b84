"""A name written on a line identifies a hidden object, whatever the line does: also on
lines that leave it where it is (a payment, a target, damage, an effect), whose names the
state kept no more than a comment before."""

from __future__ import annotations

import pytest

from mtgr.check import check_text
from mtgr.rules.walk import state_before, walk
from mtgr.syntax.document import Document

PREGAME = (
    'mtgr 0.4\nrules 2026-09-25\nplayer "Alice" deck 60\nplayer "Bob" deck 60\n'
    'perspective "Alice"\nstart "Bob" by "Alice"\n'
    + "".join(f'"Alice" draw #{n} "Island"\n' for n in range(1, 8))
    + "".join(f'"Bob" draw #{n}\n' for n in range(8, 15))
    + '"Bob" keep\n"Alice" keep\nturn 1 "Bob"\nphase main\n'
)


def _name_at_end(text: str, number: int) -> str | None:
    document = Document(text)
    state = state_before(walk(document.lines), document.lines, len(document.lines))
    return state.objects[number].name


@pytest.mark.parametrize(
    ("lines", "number", "name"),
    [
        # a shock land paid as it enters
        ('#8 "Breeding Pool" pay life 2\n#8 play\n', 8, "Breeding Pool"),
        # a spell cast face down to the viewer, named as it targets
        ('#8 play\n#9 cast\n#9 "Shock" target "Alice"\n#8 tap by #8\n#9 pay {R}\n', 9, "Shock"),
    ],
)
def test_a_name_on_a_line_that_leaves_the_card_in_place_identifies_it(
    lines: str, number: int, name: str
) -> None:
    text = PREGAME + lines
    assert check_text(text) == []
    assert _name_at_end(text, number) == name
