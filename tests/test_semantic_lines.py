"""Highlighting reads a parsed line's groups straight from its token columns (the first
request after a long record opens asks it of every line): they equal the groups built
from the line's tokens one at a time (`line_tokens`), on every line of the examples and
the cases, in every position encoding, and lines of equal text share them."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from mtgr.server.features import semantic_tokens
from mtgr.server.session import OpenDocument

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "examples").glob("*.mtgr")) + sorted(
    (ROOT / "tests" / "cases").rglob("*.mtgr")
)
# what the examples rarely hold: a comment after a statement, a line that is not ASCII, a
# cause, a replacement, an object introduced, a line that does not parse
EXTRA = """\
#3 cast   // badly   spaced
"Alice" draw #900 "Ætherling"   // CR 121.1
#8 move hand -> exile as discard by #1 replacement #9
#10 effect "Jötun Grunt\u2019s upkeep: \U0001d7d0 cards" on #10 until leaves
this does not parse
"""
ENCODINGS = (
    types.PositionEncodingKind.Utf16,
    types.PositionEncodingKind.Utf8,
    types.PositionEncodingKind.Utf32,
)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_line_s_groups_equal_those_built_token_by_token(encoding: str) -> None:
    compared = 0
    for path in RECORDS:
        text = path.read_text(encoding="utf-8") + EXTRA
        document = OpenDocument(path.as_uri(), text, 0, encoding)
        objects_after = document.walk.objects_after
        for index, line in enumerate(document.document.lines):
            objects = objects_after.get(line.id, ())
            if line.parsed.error is not None:
                continue  # the tokens of a line being typed come from its words alone
            expected = semantic_tokens._encode_line(
                semantic_tokens.line_tokens(document, index, dict(objects))
            )
            assert semantic_tokens._line_groups(document, index) == expected, (path, index)
            compared += 1
    assert compared > 5000


def test_lines_of_equal_text_that_name_no_object_share_their_groups() -> None:
    document = OpenDocument(
        "file:///tmp/shared.mtgr", "phase main\nstep end\nphase main\n", 0, "utf-16"
    )
    first, _, third = (semantic_tokens._line_groups(document, i) for i in range(3))
    assert first and first is third
