"""Highlighting encodes a parsed line from its shape (its token columns, shared by the
lines of one shape; the first request after a long record opens asks it of every line):
its groups equal those built from the line's tokens one at a time (`line_tokens`), on
every line of the examples and the cases, in every position encoding, line by line and
in the whole document's answer; lines of equal text share them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types

from mtgr.server.features import semantic_tokens
from mtgr.server.session import OpenDocument

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "examples").glob("*.mtgr")) + sorted(
    (ROOT / "tests" / "cases").rglob("*.mtgr")
)
# what the examples rarely hold: a comment after a statement, a line that is not ASCII (one
# unit a character in UTF-16, or not), a cause, a replacement, an object introduced, a
# line that does not parse
EXTRA = """\
#3 cast   // badly   spaced
"Alice" draw #900 "Ætherling"   // CR 121.1
"Alice" draw #901 "Jötun Grunt"
#901 move hand -> exile by #900
#8 move hand -> exile as discard by #1 replacement #9
#10 effect "Jötun Grunt\u2019s upkeep: \U0001d7d0 cards" on #10 until leaves
this does not parse
   #3 cast
#3 cast // the same shape at another column, and with a comment
// a comment alone
#1 move battlefield -> graveyard by #9000
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


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_whole_answer_equals_the_groups_built_token_by_token(encoding: str) -> None:
    """The whole document's answer (its lines encoded in chunks from their shapes, and
    written as JSON from the shapes' JSON) against one built line by line from the tokens."""
    for path in RECORDS:
        text = path.read_text(encoding="utf-8") + EXTRA
        document = OpenDocument(path.as_uri(), text, 0, encoding)
        objects_after = document.walk.objects_after
        expected: list[int] = []
        previous = 0
        for index, line in enumerate(document.document.lines):
            if line.parsed.error is not None:
                objects = dict(semantic_tokens._objects_before(document, index))
            else:
                objects = dict(objects_after.get(line.id, ()))
            tokens = semantic_tokens.line_tokens(document, index, objects)
            if tokens:
                expected += (index - previous, *semantic_tokens._encode_line(tokens))
                previous = index
        sent = semantic_tokens.current(document)
        assert sent.data == expected, path
        assert json.loads(sent.json())["data"] == expected, path
