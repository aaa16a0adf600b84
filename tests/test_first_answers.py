"""The first answers after a long record opens decide most lines by their shape (the
parse's token columns, shared by the lines of one shape), not line by line: each such
answer equals the one built line by line, on every line of the examples and the cases
and on lines laid out in every way the canonical layout changes (spaces, tabs, comments,
indentation, a byte order mark, text after the tokens), in every position encoding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.generate import generate

from mtgr.server.features import formatting, inlay_hints, navigation, symbols
from mtgr.server.features.per_line import CHUNK_EVERY
from mtgr.server.session import OpenDocument
from mtgr.syntax.format import format_line

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "examples").glob("*.mtgr")) + sorted(
    (ROOT / "tests" / "cases").rglob("*.mtgr")
)
# each line beside one of the same words laid out otherwise (some of one shape)
EXTRA = """\
#3 cast
#3  cast
#3\tcast
  #3 cast
#3 cast\x20\x20
\ufeff#3 cast
#3 cast // a note
#3 cast //a note
"Alice" draw #900 "Ætherling"
"Alice"  draw #900 "Ætherling"
"Alice" draw #900 "Ætherling"// CR 121.1
#8 move hand -> exile as discard by #1 replacement #9
#8 move hand ->   exile as discard by #1 replacement #9
#8 move hand->exile as discard by #1 replacement #9
phase main
phase  main
// a comment alone
   // an indented comment

this does not parse
this  does not  parse
"Alice" draw #901 "Fifty%Fifty"
#901 cast
#900 cast // "Ætherling"
#901 move hand -> exile by #900 replacement #901
turn 90 "Al%ice"
phase beginning
step upkeep
#900 cast

step draw
// a note
phase main
keyframe
end
incomplete
#900 cast
// the last line a comment
"""
ENCODINGS = ("utf-16", "utf-8", "utf-32")


def documents(encoding: str) -> list[OpenDocument]:
    return [
        OpenDocument(path.as_uri(), path.read_text(encoding="utf-8") + EXTRA, 0, encoding)
        for path in RECORDS
    ]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_line_s_layout_equals_that_of_format_line(encoding: str) -> None:
    compared = changed = 0
    for document in documents(encoding):
        layout = formatting.formatted_lines(document)
        for text, formatted in zip(document.document.texts, layout, strict=True):
            assert formatted == format_line(text), text
            compared += 1
            changed += formatted != text
    assert compared > 5000
    assert changed >= 9 * len(RECORDS)  # the EXTRA lines out of layout, in every record


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_whole_file_s_hints_equal_those_built_line_by_line(encoding: str) -> None:
    compared = cut = 0
    for document in documents(encoding):
        last = len(document.document) - 1
        expected = [
            json.loads(f'{{"position":{{"line":{index}' + rest)
            for index, rests in inlay_hints._line_hints(
                document, inlay_hints._Remembered(), 0, last
            )
            for rest in rests
        ]
        assert json.loads(inlay_hints.hints(document, 0, last)) == expected, document.uri
        compared += len(expected)
        # most of the file, cutting two chunks: those line by line, the rest by chunks
        first, end = 70, last - 70
        if end - first >= 4 * CHUNK_EVERY:
            inside = [hint for hint in expected if first <= hint["position"]["line"] <= end]
            assert json.loads(inlay_hints.hints(document, first, end)) == inside, document.uri
            cut += 1
    assert compared > 2000
    assert cut >= 2  # the long records' ranges went by chunks


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_outline_written_a_segment_at_a_time_equals_the_whole_file_s_blocks(
    encoding: str,
) -> None:
    """The outline's segments (a turn's visits only its lines that open or close a block)
    against the blocks of the whole file built line by line, written the same way."""
    compared = 0
    records = documents(encoding) + [
        OpenDocument(f"file:///generated-{seed}.mtgr", generate(3000, seed=seed), 0, encoding)
        for seed in (1, 2)
    ]
    for document in records:
        blocks = symbols.document_blocks(document)
        template, numbers = symbols._symbols_template(blocks)
        expected = json.loads(f"[{template % tuple(numbers)}]")
        assert json.loads(symbols.document_symbols(document)) == expected, document.uri
        compared += len(symbols.walk_blocks(blocks))
    assert compared > 2000


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_line_s_role_equals_the_one_derived_line_by_line(encoding: str) -> None:
    """The roles of a whole file (derived in one loop, phase and step lines shared by their
    parse) against `line_role` line by line."""
    compared = 0
    for document in documents(encoding):
        roles = symbols._outline(document).roles.values
        expected = [symbols.line_role(document, index) for index in range(len(document.document))]
        assert roles == expected, document.uri
        compared += len(roles)
    assert compared > 5000


def _turns_of_shared_shapes(document: OpenDocument) -> tuple[int, int]:
    segments = symbols._segments(document, symbols._outline(document))
    shapes = [segment.shape for _, segment in segments if segment.shape is not None]
    return len(shapes), len({id(shape) for shape in shapes})


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_folds_written_a_segment_at_a_time_equal_those_of_the_whole_file_s_blocks(
    encoding: str,
) -> None:
    """The folds of turns written from their shape (shared by the turns with the same
    phase and step lines at the same places) against the whole file's blocks, named and
    not, with the runs of comments after them."""
    records = documents(encoding) + [
        OpenDocument(f"file:///generated-{seed}.mtgr", generate(3000, seed=seed), 0, encoding)
        for seed in (1, 2)
    ]
    turns = shapes = 0
    for document in records:
        blocks = symbols.walk_blocks(symbols.document_blocks(document))
        folded = [block for block in blocks if block.end > block.start]
        runs, numbers = symbols._comment_runs(symbols._outline(document).roles.values)
        comments = json.loads(f"[{runs % tuple(numbers)}]")
        for named in (False, True):
            expected = [
                {"startLine": block.start, "endLine": block.end, "kind": "region"}
                | ({"collapsedText": block.name} if named else {})
                for block in folded
            ]
            answer = json.loads(navigation.folding_ranges(document, named))
            assert answer == expected + comments, (document.uri, named)
        found = _turns_of_shared_shapes(document)
        turns, shapes = turns + found[0], shapes + found[1]
    assert turns > shapes + 50  # many turns are written from a shape another turn made


@pytest.mark.parametrize(
    ("comments", "runs"),
    [
        ("", []),
        ("c", []),
        ("cc", [(0, 1)]),
        ("cc4c-ccc", [(0, 1), (5, 7)]),
        ("4c4cc", [(3, 4)]),
        ("-cc-cc", [(1, 2), (4, 5)]),
        ("ccccc4", [(0, 4)]),
    ],
)
def test_comment_runs_are_two_or_more_comment_lines_in_a_row(
    comments: str, runs: list[tuple[int, int]]
) -> None:
    """`c` a comment-only line, `4` a line with content, `-` a blank line."""
    kinds = {"c": symbols.COMMENT, "4": 4, "-": None}
    template, numbers = symbols._comment_runs([kinds[kind] for kind in comments])
    found = json.loads(f"[{template % tuple(numbers)}]")
    assert found == [{"startLine": a, "endLine": b, "kind": "comment"} for a, b in runs]
