"""The big requests' answers kept between requests (per line, per segment, per chunk)
equal the answers for the same text opened afresh, after every edit of a random session:
inserting, deleting and pasting lines, typing inside a line, adding and removing turn
and game lines, and lines that do not parse."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from benchmarks.generate import generate
from lsprotocol import types

from mtgr.server.features import formatting, inlay_hints, navigation, semantic_tokens, symbols
from mtgr.server.features.per_line import chunk_starts, line_chunks
from mtgr.server.session import OpenDocument

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
URI = "file:///tmp/kept.mtgr"
EXTRA_LINES = [
    "",
    "// a note",
    "game 2",
    'turn 9 "Bob"',
    "phase combat",
    "step end",
    "keyframe",
    "end",
    "incomplete",
    "#3 cast   // badly   spaced",
    '"Alice" draw #900 "Ætherling"',
    "this does not parse",
    "#7 resolve -> battlefie",
]


def answers(document: OpenDocument) -> dict[str, object]:
    last = len(document.document) - 1
    return {
        "symbols": json.loads(symbols.document_symbols(document)),
        "flat symbols": json.loads(symbols.flat_symbols(document)),
        "folds": json.loads(navigation.folding_ranges(document)),
        "folds with text": json.loads(navigation.folding_ranges(document, collapsed_text=True)),
        "hints": json.loads(inlay_hints.hints(document, 0, last)),
        "hints on screen": json.loads(inlay_hints.hints(document, last // 3, last // 3 + 40)),
        "hints on most lines": json.loads(inlay_hints.hints(document, 30, max(30, last - 30))),
        "tokens": json.loads(semantic_tokens.current(document).json())["data"],
        "formatting": [
            (e.range.start.line, e.range.end.line, e.new_text)
            for e in formatting.format_document(document)
        ],
        "range formatting": [
            (e.range.start.line, e.new_text)
            for e in formatting.format_range(
                document,
                types.Range(
                    start=types.Position(line=0, character=0),
                    end=types.Position(line=last + 1, character=0),
                ),
            )
        ],
    }


def _edit(rng: random.Random, document: OpenDocument) -> types.TextDocumentContentChangePartial:
    texts = document.document.texts
    line = rng.randrange(len(texts))

    def at(line: int, character: int = 0) -> types.Position:
        return types.Position(line=line, character=character)

    kind = rng.randrange(5)
    if kind == 0:  # a line inserted
        new = rng.choice(EXTRA_LINES + texts) + "\n"
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=at(line), end=at(line)), text=new
        )
    if kind == 1 and line + 1 < len(texts):  # a line deleted
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=at(line), end=at(line + 1)), text=""
        )
    if kind == 2:  # lines pasted from elsewhere
        source = rng.randrange(len(texts))
        pasted = "".join(text + "\n" for text in texts[source : source + 20])
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=at(line), end=at(line)), text=pasted
        )
    column = rng.randint(0, len(texts[line]))  # a character typed or deleted in a line
    if kind == 3 or column == 0:
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=at(line, column), end=at(line, column)),
            text=rng.choice('x #1"'),
        )
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=at(line, column - 1), end=at(line, column)), text=""
    )


RECORDS = {
    "generated": lambda: generate(600, seed=3),
    **{path.stem: path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.mtgr"))[:2]},
}


@pytest.mark.parametrize("record", RECORDS)
@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_kept_answers_equal_fresh_ones_after_every_edit(record: str, encoding: str) -> None:
    make = RECORDS[record]
    text = make() if callable(make) else make
    document = OpenDocument(URI, text, 0, encoding)
    rng = random.Random(f"{record} {encoding}")
    for version in range(1, 16):
        document.change([_edit(rng, document)], version)
        fresh = OpenDocument(URI, document.document.text, version, encoding)
        assert answers(document) == answers(fresh), f"after edit {version}"


@pytest.mark.parametrize("record", RECORDS)
def test_kept_answers_equal_fresh_ones_when_asked_only_every_few_edits(record: str) -> None:
    """What is kept is brought up to date for all the edits since it was last asked: the
    outline finds again only the segments between what the edits left as it was, also
    when a request that reads the lines' roles alone (the flat outline) came between."""
    make = RECORDS[record]
    text = make() if callable(make) else make
    document = OpenDocument(URI, text, 0, "utf-16")
    answers(document)
    rng = random.Random(f"{record} every few edits")
    version = 0
    for batch in range(16):
        for _ in range(rng.randint(1, 3)):
            version += 1
            edit = _edit(rng, document)
            if batch == 3:  # a line above the first turn, where no segment starts
                edit = types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0),
                    ),
                    text=rng.choice(EXTRA_LINES) + "\n",
                )
            document.change([edit], version)
        if rng.random() < 0.5:
            symbols.flat_symbols(document)
            continue
        fresh = OpenDocument(URI, document.document.text, version, "utf-16")
        assert answers(document) == answers(fresh), f"after edit {version}"


@pytest.mark.parametrize("record", RECORDS)
def test_the_highlighting_delta_turns_the_answer_before_an_edit_into_the_one_after(
    record: str,
) -> None:
    make = RECORDS[record]
    text = make() if callable(make) else make
    document = OpenDocument(URI, text, 0, "utf-16")
    rng = random.Random(f"{record} delta")
    before = semantic_tokens.current(document)
    for version in range(1, 21):
        for _ in range(rng.randint(1, 2)):
            document.change([_edit(rng, document)], version)
        starts = line_chunks(document)[1]
        if version % 4 == 0 and len(starts) > 2:  # a blank line closing a chunk: the next
            at = types.Position(line=starts[1], character=0)  # one's first line moves alone
            blank = types.TextDocumentContentChangePartial(
                range=types.Range(start=at, end=at), text="\n"
            )
            document.change([blank], version)
        after = semantic_tokens.current(document)
        edit = semantic_tokens.edit_of_chunks(before.parts, after.parts)
        old = before.data
        patched = old[: edit.start] + list(edit.data or []) + old[edit.start + edit.delete_count :]
        assert patched == after.data, f"after edit {version}"
        exact = semantic_tokens.edit_between(old, after.data)  # the numbers compared one by one
        assert (edit.delete_count, len(edit.data or [])) == (
            exact.delete_count,
            len(exact.data or []),
        )
        before = after


def test_line_chunks_are_kept_until_the_next_edit_and_then_are_those_of_the_new_text() -> None:
    document = OpenDocument(URI, generate(600, seed=3), 0, "utf-16")
    ids, starts = line_chunks(document)
    assert line_chunks(document)[0] is ids  # asked again without an edit: the same lists
    rng = random.Random("line chunks")
    for version in range(1, 31):
        document.change([_edit(rng, document)], version)
        if rng.random() < 0.4:  # asked only after some edits: read again for all since
            continue
        given, as_given = ids, list(ids)
        ids, starts = line_chunks(document)
        assert given == as_given  # a list given out is never changed
        fresh = [line.id for line in document.document.lines]
        assert (ids, starts) == (fresh, chunk_starts(fresh)), f"after edit {version}"
    document.change(
        [types.TextDocumentContentChangeWholeDocument(text=document.document.text)], 31, False
    )
    fresh = [line.id for line in document.document.lines]
    assert line_chunks(document) == (fresh, chunk_starts(fresh))
