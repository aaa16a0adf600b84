"""The frame reader on its own, fed byte strings in pieces of every size."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mtgr.server.framing import MAX_BODY_BYTES, Fault, Frame, FrameReader

BODIES = [b'{"a": 1}', b"{}", b'{"text": "\\u00e9 \\n"}']
LENIENT = [
    b"Content-Length: %d\r\n\r\n",
    b"content-length:%d\n\n",
    b"Content-Type: x\r\nCONTENT-LENGTH:  %d \r\n\r\n",
]


def reader(data: bytes, piece: int = 1 << 16) -> FrameReader:
    chunks: Iterator[bytes] = (data[i : i + piece] for i in range(0, len(data), piece))
    return FrameReader(lambda size: next(chunks, b"")[:size])


def read_all(frames: FrameReader) -> list[Frame | Fault]:
    found: list[Frame | Fault] = []
    while (item := frames.next()) is not None:
        found.append(item)
    return found


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 1 << 16])
def test_lenient_headers_in_pieces_of_any_size(piece: int) -> None:
    data = b"".join(header % len(body) + body for header, body in zip(LENIENT, BODIES, strict=True))
    assert read_all(reader(data, piece)) == [Frame(body) for body in BODIES]


@pytest.mark.parametrize(
    "bad",
    [
        b"Content-Length: %d\r\n\r\n" % (MAX_BODY_BYTES + 1),
        b"Content-Length: 1000000000000\r\n\r\n{}",
        b"Content-Length: -3\r\n\r\n",
        b"Content-Length: 1e3\r\n\r\n{}",
        b"Content-Type: x\r\n\r\n{}",
        b"not a header\r\n",
        b"X" * 100_000,
    ],
)
@pytest.mark.parametrize("piece", [1, 5, 1 << 16])
def test_one_fault_then_the_next_frame(bad: bytes, piece: int) -> None:
    good = b'{"ok": true}'
    found = read_all(reader(bad + b"Content-Length: %d\r\n\r\n" % len(good) + good, piece))
    assert [type(item) for item in found] == [Fault, Frame]
    assert found[1] == Frame(good)


def test_a_length_too_short_gives_the_start_then_resyncs() -> None:
    first, second = b'{"first": 1}', b'{"second": 2}'
    data = b"Content-Length: 4\r\n\r\n" + first + b"Content-Length: %d\r\n\r\n" % len(second)
    found = read_all(reader(data + second))
    assert found[0] == Frame(first[:4])
    assert isinstance(found[1], Fault) and found[2:] == [Frame(second)]


def test_a_length_too_long_can_give_back_what_it_swallowed() -> None:
    first, second = b'{"first": 1}', b'{"second": 2}'
    tail = b"Content-Length: %d\r\n\r\n" % len(second) + second
    frames = reader(b"Content-Length: %d\r\n\r\n" % (len(first) + 10) + first + tail)
    swallowed = frames.next()
    assert isinstance(swallowed, Frame) and swallowed.body == (first + tail)[: len(first) + 10]
    assert frames.take_back_after(swallowed.body)
    assert read_all(frames) == [Frame(second)]


def test_the_input_ending_inside_a_frame_is_a_fault_then_the_end() -> None:
    found = read_all(reader(b"Content-Length: 50\r\n\r\n{}"))
    assert [type(item) for item in found] == [Fault]
    assert read_all(reader(b"")) == []
    assert read_all(reader(b"\r\n\r\n")) == []
