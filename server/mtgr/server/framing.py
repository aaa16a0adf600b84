"""Frames from the client's byte stream: `Content-Length` headers, a blank line, a body.

pygls's own reader accepts only `Content-Length: N\\r\\n` exactly and, on anything else,
waits for a frame that never comes; a huge length makes it allocate the whole body. This
reader is lenient where the meaning is plain (any case of the header name, space or none
after the colon, LF or CRLF line ends, blank lines between frames), refuses a frame it
cannot read or that is larger than `MAX_BODY_BYTES`, and then finds the next frame by
its `Content-Length` header, so one bad frame costs only itself. It never raises on
input; it reports what it skipped as a `Fault` for the server to log.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE_BYTES = 4096
READ_CHUNK_BYTES = 64 * 1024

_HEADER = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*:[ \t]*(.*?)[ \t]*")
_NAME = b"content-length"
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
# the longest text that could be the start of a `Content-Length:` header cut by a chunk
_HEADER_TAIL = len(b"content-length") + 8


@dataclass(frozen=True)
class Frame:
    body: bytes


@dataclass(frozen=True)
class Fault:
    """Bytes the reader could not take as a frame, and why (for the log)."""

    reason: str


class FrameReader:
    """Reads frames with `read_chunk(n)`, a blocking read that returns b"" at end of input."""

    def __init__(self, read_chunk: Callable[[int], bytes]) -> None:
        self._read_chunk = read_chunk
        self._buffer = bytearray()
        self._eof = False
        self._seeking = False  # after a fault: skip to the next Content-Length header

    def next(self) -> Frame | Fault | None:
        """The next frame, or a fault after which reading goes on, or None at end of input."""
        if self._seeking and not self._seek():
            return self._end_of_input()
        length: bytes | None = None
        seen_header = False
        while True:
            line = self._peek_line()
            if line is None or (self._eof and not line.endswith(b"\n")):
                return self._end_of_input()
            if len(line) > MAX_HEADER_LINE_BYTES or not line.endswith(b"\n"):
                return self._resync(
                    f"a header line longer than {MAX_HEADER_LINE_BYTES} bytes", at_line=True
                )
            content = line.rstrip(b"\r\n")
            if not content:
                del self._buffer[: len(line)]
                if not seen_header:
                    continue  # blank lines between frames
                break
            header = _HEADER.fullmatch(content)
            # a header line with another inside it: the tail of a body cut short
            if header is None or _CONTENT_LENGTH.search(content, 1):
                return self._resync(f"not a header line: {_quote(content)}", at_line=True)
            del self._buffer[: len(line)]
            seen_header = True
            if header.group(1).lower() == b"content-length":
                length = header.group(2)
        if length is None:
            return self._resync("a header without Content-Length")
        if not length.isdigit():  # ASCII digits; a header line is too short for a slow int()
            return self._resync(f"Content-Length is not a byte count: {_quote(length)}")
        size = int(length)
        if size > MAX_BODY_BYTES:
            return self._resync(
                f"a frame of {size:,} bytes, over the limit of {MAX_BODY_BYTES:,}: skipped"
            )
        if not self._fill(size):
            return self._end_of_input()
        body = bytes(self._buffer[:size])
        del self._buffer[:size]
        return Frame(body)

    def take_back_after(self, body: bytes) -> bool:
        """A body that is not a message may have swallowed the frames after it (its
        Content-Length was too long): reads again from the first header inside it."""
        found = _CONTENT_LENGTH.search(body, 1)
        if found is not None:
            self._buffer[:0] = body[found.start() :]
            return True
        for size in range(min(len(_NAME), len(body) - 1), 0, -1):  # a header cut off
            if body[-size:].lower() == _NAME[:size]:
                self._buffer[:0] = body[-size:]
                return True
        return False

    # -- the buffer
    def _more(self) -> bool:
        if self._eof:
            return False
        chunk = self._read_chunk(READ_CHUNK_BYTES)
        if not chunk:
            self._eof = True
            return False
        self._buffer += chunk
        return True

    def _fill(self, size: int) -> bool:
        while len(self._buffer) < size:
            if not self._more():
                return False
        return True

    def _peek_line(self) -> bytes | None:
        """The buffer up to its first LF, or a longer run without one (the caller refuses it)."""
        searched = 0
        while True:
            end = self._buffer.find(b"\n", searched, MAX_HEADER_LINE_BYTES + 1)
            if end >= 0:
                return bytes(self._buffer[: end + 1])
            if len(self._buffer) > MAX_HEADER_LINE_BYTES:
                return bytes(self._buffer[: MAX_HEADER_LINE_BYTES + 1])
            searched = len(self._buffer)
            if not self._more():
                return bytes(self._buffer) if self._buffer else None

    def _resync(self, reason: str, at_line: bool = False) -> Fault:
        """Reports the fault now (the client may wait for an answer before it sends more)
        and looks for the next frame on the next read; `at_line`: the refused line is
        still in the buffer, and the header looked for starts after its first byte."""
        if at_line:
            del self._buffer[:1]
        self._seeking = True
        return Fault(f"{reason}; reading on from the next Content-Length header")

    def _seek(self) -> bool:
        """Drops bytes up to the next `Content-Length` header; False at end of input."""
        while True:
            found = _CONTENT_LENGTH.search(self._buffer)
            if found is not None:
                del self._buffer[: found.start()]
                self._seeking = False
                return True
            del self._buffer[: max(0, len(self._buffer) - _HEADER_TAIL)]
            if not self._more():
                self._buffer.clear()
                return False

    def _end_of_input(self) -> Fault | None:
        if not self._buffer:
            return None
        left = len(self._buffer)
        self._buffer.clear()
        return Fault(f"the input ended inside a frame ({left:,} bytes unread)")


def _quote(data: bytes, limit: int = 60) -> str:
    text = data[:limit].decode("utf-8", "replace")
    return repr(text + ("..." if len(data) > limit else ""))
