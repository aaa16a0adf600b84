"""Code-point columns to the client's units on long lines that are not ASCII (issue 18:
semantic tokens were quadratic on such a line; the conversion now goes on from the
previous column). Correctness only: the speed is in the benchmark notes."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types

from mtgr.server.features.semantic_tokens import encode
from mtgr.server.session import OpenDocument

ENCODINGS = [
    types.PositionEncodingKind.Utf8,
    types.PositionEncodingKind.Utf16,
    types.PositionEncodingKind.Utf32,
]
WORDS = ['"Jötun"', "draw", "#1", '"Opt😀"', '"\ud800x"']  # a lone surrogate, as JSON allows


def as_units(text: str, encoding: str) -> bytes | str:
    if encoding == types.PositionEncodingKind.Utf8:
        return text.encode("utf-8", "surrogatepass")
    if encoding == types.PositionEncodingKind.Utf16:
        return text.encode("utf-16-le", "surrogatepass")
    return text


def unit_length(text: str, encoding: str) -> int:
    size = len(as_units(text, encoding))
    return size // 2 if encoding == types.PositionEncodingKind.Utf16 else size


def long_line(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def prefix_units(text: str, encoding: str) -> list[int]:
    """The units before each column, character by character."""
    units = [0]
    for ch in text:
        units.append(units[-1] + unit_length(ch, encoding))
    return units


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_columns_in_any_order_convert_as_the_whole_prefix_does(encoding: str) -> None:
    rng = random.Random(18)
    lines = ["mtgr 0.4", long_line(rng, 1000), "é" + "a" * 3000 + "😀", long_line(rng, 50)]
    document = OpenDocument("file:///p.mtgr", "\n".join(lines) + "\n", 1, encoding)
    prefixes = [prefix_units(text, encoding) for text in lines]
    for _ in range(1000):
        line = rng.randrange(len(lines))
        text = lines[line]
        if rng.random() < 0.3:  # a sweep forward or back from here
            start = rng.randrange(len(text) + 1)
            columns = range(start, min(len(text), start + 40))
            columns = columns if rng.random() < 0.5 else columns[::-1]
        else:
            columns = [rng.randrange(-3, len(text) + 10)]
        for column in columns:
            want = prefixes[line][min(max(column, 0), len(text))]
            assert document.to_character(line, column) == want, (line, column)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_semantic_tokens_of_a_long_line_that_is_not_ascii(encoding: str) -> None:
    line = long_line(random.Random(7), 4000)  # about 30,000 characters
    document = OpenDocument("file:///p.mtgr", f"mtgr 0.4\n{line}\n", 1, encoding)
    data = encode(document)
    units = as_units(line, encoding)
    width = 2 if encoding == types.PositionEncodingKind.Utf16 else 1
    found: list[str] = []
    row, start = 0, 0
    for delta_line, delta_start, length, _, _ in zip(*[iter(data)] * 5, strict=True):
        row, start = row + delta_line, (start if delta_line == 0 else 0) + delta_start
        if row != 1:
            continue
        piece = units[start * width : (start + length) * width]
        if isinstance(piece, bytes):
            codec = "utf-8" if width == 1 else "utf-16-le"
            piece = piece.decode(codec, "surrogatepass")
        found.append(piece)
    assert found == line.split(" ")
