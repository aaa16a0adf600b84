"""The server's read loop, in place of pygls's: frames (framing.py) and messages
(envelope.py) are read on a thread of their own and handed to the event loop, where the
LSP lifecycle is enforced before pygls dispatches a message.

Why a thread: the client's end of input must be noticed while the event loop is busy (a
long first check), so the server exits within `EXIT_GRACE_SECONDS` of losing its client.
Why our own loop: pygls's stops answering after one malformed header and cannot be told
to refuse a huge frame; it has no hook for either (only the streams can be passed in).

Lifecycle (LSP 3.17, "initialize", "shutdown"): before `initialize` a request gets -32002
ServerNotInitialized and a notification other than `exit` is dropped; a second
`initialize` and every request after `shutdown` get -32600 InvalidRequest; after
`shutdown` only `exit` is taken. A notification method sent with an id is, to JSON-RPC
2.0, a request for a method the server does not have: -32601 Method not found, and it is
not run. A request method sent without an id is a notification, which JSON-RPC never
answers: it is logged and dropped. Params that do not fit the method: -32602.
Everything the server could not read or refused is logged to stderr and, once
initialized, to the client's log (window/logMessage).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import itertools
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, BinaryIO, Protocol

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mtgr.server.envelope import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SERVER_NOT_INITIALIZED,
    Incoming,
    Kind,
    Rejected,
    decode,
)
from mtgr.server.framing import Fault, Frame, FrameReader

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

EXIT_GRACE_SECONDS = 1.0


class Stage(enum.Enum):
    WAITING = "waiting for initialize"
    RUNNING = "running"
    SHUT_DOWN = "shut down"


@functools.cache
def is_notification_method(method: str) -> bool:
    """An LSP method that is only ever a notification (its message has no id)."""
    message_type = types.METHOD_TO_TYPES.get(method, (None,))[0]
    fields = getattr(message_type, "__attrs_attrs__", None)
    return fields is not None and not any(field.name == "id" for field in fields)


@functools.cache
def is_request_method(method: str) -> bool:
    return method in types.METHOD_TO_TYPES and not is_notification_method(method)


class Transport:
    """Serves one connection: `read_chunk(n)` blocks for input (b"" at its end), `writer`
    takes pygls's framed output."""

    def __init__(
        self, server: LanguageServer, read_chunk: Callable[[int], bytes], writer: Any
    ) -> None:
        self.server = server
        self.protocol = server.protocol
        self.stage = Stage.WAITING
        self._frames = FrameReader(read_chunk)
        self._writer = writer

    def serve(self) -> None:
        """Returns at end of input; `exit` ends it with SystemExit, as in pygls."""
        try:
            asyncio.run(self._main())
        finally:
            self.server.shutdown()
            if isinstance(self._writer, QueuedWriter):
                self._writer.close()  # what is queued is written (`exit` did it already)

    async def _main(self) -> None:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[Incoming | Rejected | Fault | None] = asyncio.Queue()
        self.protocol.set_writer(self._writer)
        reader = threading.Thread(
            target=self._read, args=(loop, inbox), name="mtgr-read", daemon=True
        )
        reader.start()
        while (item := await inbox.get()) is not None:
            self._receive(item)
            await asyncio.sleep(0)  # a handler's task takes its first step before the next message

    # -- the reading thread
    def _read(
        self,
        loop: asyncio.AbstractEventLoop,
        inbox: asyncio.Queue[Incoming | Rejected | Fault | None],
    ) -> None:
        while True:
            try:
                item = self._frames.next()
            except OSError as error:
                logger.error("reading the client's input failed: %s", error)
                item = None
            if item is None:
                break
            outcome = item if isinstance(item, Fault) else self._decode(item)
            if not _post(loop, inbox.put_nowait, outcome):
                return  # the loop has ended (exit)
        _post(loop, inbox.put_nowait, None)
        # a busy event loop may not get to the end for a long time: the client is gone
        time.sleep(EXIT_GRACE_SECONDS)
        logger.error("the client's input ended while the server was busy: exiting")
        os._exit(0 if self.stage is Stage.SHUT_DOWN else 1)

    def _decode(self, frame: Frame) -> Incoming | Rejected:
        decoded = decode(frame.body)
        if isinstance(decoded, Rejected) and decoded.code == PARSE_ERROR:
            # a Content-Length too long swallows the frames after it: read them again
            self._frames.take_back_after(frame.body)
        return decoded

    # -- the event loop
    def _receive(self, outcome: Incoming | Rejected | Fault) -> None:
        if isinstance(outcome, Fault):
            self._log(f"an unreadable frame: {outcome.reason}")
        elif isinstance(outcome, Rejected):
            self._reject(outcome)
        elif outcome.kind is Kind.REQUEST:
            self._request(outcome)
        elif outcome.kind is Kind.NOTIFICATION:
            self._notification(outcome)
        else:
            self._dispatch(outcome)

    def _request(self, message: Incoming) -> None:
        method = message.method or ""
        refusal = None
        if self.stage is Stage.WAITING and method != types.INITIALIZE:
            refusal = Rejected(SERVER_NOT_INITIALIZED, "the server is not initialized yet")
        elif self.stage is Stage.SHUT_DOWN:
            refusal = Rejected(INVALID_REQUEST, "the server is shut down: only exit is taken")
        elif self.stage is Stage.RUNNING and method == types.INITIALIZE:
            refusal = Rejected(INVALID_REQUEST, "initialize may be sent only once")
        elif is_notification_method(method):
            refusal = Rejected(
                METHOD_NOT_FOUND, f"{method} is a notification: send it without an id"
            )
        if refusal is not None:
            self._reject(Rejected(refusal.code, refusal.message, message.id))
            return
        if not self._dispatch(message):
            return
        if method == types.INITIALIZE:
            self.stage = Stage.RUNNING
        elif method == types.SHUTDOWN:
            self.stage = Stage.SHUT_DOWN

    def _notification(self, message: Incoming) -> None:
        method = message.method or ""
        if method != types.EXIT:
            if self.stage is not Stage.RUNNING:
                self._log(f"dropped {method}: the server is {self.stage.value}")
                return
            if is_request_method(method):
                self._log(f"dropped {method}: a request needs an id")
                return
        self._dispatch(message)

    def _dispatch(self, message: Incoming) -> bool:
        """Types the message and hands it to pygls; False when its params do not fit."""
        try:
            structured = self.protocol.structure_message(message.data)
        except Exception as error:
            refusal = f"{message.method}: params that do not fit the method ({error!r})"
            if message.kind is Kind.REQUEST:
                self._reject(Rejected(INVALID_PARAMS, f"Invalid params: {refusal}", message.id))
            else:
                self._log(f"dropped {refusal}")
            return False
        self.protocol.handle_message(structured)
        return True

    def _reject(self, rejected: Rejected) -> None:
        self._log(f"refused a message ({rejected.code}): {rejected.message}")
        if rejected.answer:
            body = json.dumps(rejected.response()).encode("utf-8")
            self._writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def _log(self, text: str) -> None:
        logger.warning("%s", text)
        if self.stage is Stage.RUNNING:
            self.server.window_log_message(
                types.LogMessageParams(type=types.MessageType.Warning, message=f"mtgr: {text}")
            )


def _post(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> bool:
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # the loop is closed
        return False
    return True


def serve_stdio(server: LanguageServer) -> None:
    """Reads the raw descriptor, not sys.stdin's buffer: a daemon thread blocked in the
    buffer's lock at exit would abort the interpreter (and writes to stdout's the same way:
    PiecesWriter)."""
    import sys

    fd = sys.stdin.fileno()
    widen_pipe(sys.stdout.fileno())
    writer = QueuedWriter(PiecesWriter(sys.stdout.buffer))
    Transport(server, lambda size: os.read(fd, size), writer).serve()


PIPE_BYTES = 1 << 20  # Linux's default most for an unprivileged process (pipe-max-size)


def widen_pipe(descriptor: int) -> None:
    """Gives the output pipe room for a megabyte where it can (Linux): a publish on a long
    record is megabytes, and through the default 64 KB the client's reader wakes for
    each 64 KB (measured: 8.8 MB arrived in 55 ms through 64 KB, 16 ms through 1 MB).
    Anything but a pipe, a pipe as wide already, or a system without the call keeps
    what it has."""
    if fcntl is None or not hasattr(fcntl, "F_SETPIPE_SZ"):
        return
    with contextlib.suppress(OSError):
        if fcntl.fcntl(descriptor, fcntl.F_GETPIPE_SZ) < PIPE_BYTES:
            fcntl.fcntl(descriptor, fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def serve_tcp(server: LanguageServer, host: str, port: int) -> None:
    """One client over TCP (for debugging), read the same way."""
    import socket

    with socket.create_server((host, port)) as listener:
        logger.info("listening on %s:%d", host, port)
        connection, _ = listener.accept()
        with connection:
            writer = QueuedWriter(_SocketWriter(connection))
            Transport(server, connection.recv, writer).serve()


class Sink(Protocol):
    """Where a QueuedWriter's thread writes: blocking writes of whole messages."""

    def write_pieces(self, pieces: list[bytes]) -> None: ...

    def close(self) -> None: ...


class _SocketWriter:
    def __init__(self, connection: Any) -> None:
        self._connection = connection

    def write_pieces(self, pieces: list[bytes]) -> None:
        self._connection.sendall(b"".join(pieces))

    def close(self) -> None:
        self._connection.close()


class PiecesWriter:
    """Writes to stdout's descriptor a message given in pieces, with writev, at most
    IOV_MAX pieces a call: a publish is a few hundred chunks of megabytes in all, written
    as they are rather than joined in a copy first (a copy of 10 MB took 2-10 ms,
    measured, holding the interpreter's lock the event loop needs). Never through
    stdout's buffer (only flushed first), whose lock a write blocked on a full pipe would
    hold while the interpreter exits."""

    def __init__(self, stdout: BinaryIO) -> None:
        self._stdout = stdout

    def close(self) -> None:
        self._stdout.close()

    def write_pieces(self, pieces: list[bytes]) -> None:
        self._stdout.flush()
        try:
            descriptor = self._stdout.fileno()
        except (AttributeError, OSError, ValueError):
            descriptor = None
        if descriptor is None or not hasattr(os, "writev"):  # not a file, or Windows
            self._stdout.write(b"".join(pieces))
            self._stdout.flush()
            return
        queue: deque[bytes | memoryview] = deque(piece for piece in pieces if piece)
        while queue:
            batch = queue if len(queue) <= _IOV_MAX else list(itertools.islice(queue, _IOV_MAX))
            written = os.writev(descriptor, batch)
            while written and written >= len(queue[0]):
                written -= len(queue.popleft())
            if written:  # a piece written in part: its rest goes first
                queue[0] = memoryview(queue[0])[written:]


def _iov_max() -> int:
    """The most pieces one writev takes (IOV_MAX: 1024 on Linux and macOS, at least 16)."""
    try:
        return max(os.sysconf("SC_IOV_MAX"), 16)
    except (AttributeError, ValueError, OSError):
        return 16


_IOV_MAX = _iov_max()


class _Message:
    __slots__ = ("pieces", "replaceable_as", "superseded")

    def __init__(
        self,
        pieces: list[bytes] | Callable[[], list[bytes]] | None,
        replaceable_as: str | None = None,
        superseded: Callable[[], bool] | None = None,
    ) -> None:
        # a callable makes them on the writing thread; None: replaced by a newer one
        self.pieces = pieces
        self.replaceable_as = replaceable_as
        self.superseded = superseded


def _superseded(message: _Message) -> bool:
    if message.superseded is None:
        return False
    try:
        return message.superseded()
    except Exception:  # written rather than lost
        logger.exception("asking whether a message is superseded failed")
        return False


class QueuedWriter:
    """Writes the server's messages on a thread of its own, in the order they were made, so
    that the event loop never waits for a client still reading an earlier message (a
    publish on a long record is megabytes, and an editor parses each one): it goes on
    reading changes meanwhile and coalesces them.

    A message put with `replace` (publishDiagnostics, keyed by document) that has not
    started to be written when a newer one with the same key comes is dropped, and the
    newer one goes at the end of the queue: a publish replaces the set before it (LSP
    3.17, "PublishDiagnostics Notification"), so the client only needs the newest. It is
    also dropped when, as its turn comes, its `superseded` says a newer one is on its way
    (the document has changed since: that change's check publishes). Every other message
    is written, in order; none overtakes an earlier one.

    At `close` (on `exit`, at the end of the input) what is queued is written within
    EXIT_GRACE_SECONDS; a client that stops reading gets no more than that, and a client
    that is gone (a broken pipe) nothing more."""

    def __init__(self, sink: Sink) -> None:
        self._sink = sink
        self._queue: deque[_Message] = deque()
        self._newest: dict[str, _Message] = {}  # the queued replaceable messages, by key
        self._changed = threading.Condition()
        self._closing = False  # takes no more messages
        self._closed = False
        self._gone = False  # the client's end is closed: nothing more can be written
        self._writing = False  # a message is being made or written
        self._thread = threading.Thread(target=self._write, name="mtgr-write", daemon=True)
        self._thread.start()

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being written: work that can wait (features/prepare)
        waits for this, since a thread writing megabytes to a pipe takes the interpreter's
        lock again after every block the client reads, and waits for it while the event loop
        computes."""
        with self._changed:
            return not self._queue and not self._writing

    def write(self, data: bytes) -> None:
        """pygls's writer interface: one framed message."""
        self._put(_Message([data]))

    def write_pieces(self, pieces: list[bytes]) -> None:
        """One framed message in pieces, written as they are on the writing thread."""
        self._put(_Message(pieces))

    def replace(
        self,
        key: str,
        make: Callable[[], list[bytes]],
        superseded: Callable[[], bool] | None = None,
    ) -> None:
        """A framed message, made in pieces by `make` on the writing thread, that replaces
        the one queued with the same key if that one has not started to be written (it is
        then never made); `superseded` (asked on the writing thread, as its turn comes)
        True: a newer one with the key is sure to follow, and this one is not written."""
        message = _Message(make, key, superseded)
        with self._changed:
            stale = self._newest.get(key)
            if stale is not None:
                stale.pieces = None
            self._newest[key] = message
        self._put(message)

    def _put(self, message: _Message) -> None:
        with self._changed:
            if self._gone or self._closing:
                return
            self._queue.append(message)
            self._changed.notify_all()

    def _write(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closing:
                    self._changed.wait()
                if not self._queue:
                    return
                message = self._queue.popleft()
                key = message.replaceable_as
                if key is not None and self._newest.get(key) is message:
                    del self._newest[key]
                pieces = message.pieces
                self._writing = True
            try:
                if pieces is not None and not _superseded(message):
                    self._sink.write_pieces(pieces() if callable(pieces) else pieces)
            except (OSError, ValueError) as error:  # a broken pipe; a closed file
                logger.error("writing to the client failed: %s", error)
                with self._changed:
                    self._gone = True
                    self._queue.clear()
                    self._newest.clear()
                return
            except Exception:  # a bug in making the message: it alone is lost
                logger.exception("a message could not be written")
            finally:
                with self._changed:
                    self._writing = False

    def drain(self, timeout: float) -> bool:
        """Stops taking messages and waits up to `timeout` seconds for those queued to be
        written; True if they were (or the client is gone)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        """Writes what is queued (within EXIT_GRACE_SECONDS) and closes the output; a
        thread still blocked on a client that stopped reading is left to the process's
        exit, and the output open under it."""
        if self._closed:
            return
        self._closed = True
        if self.drain(EXIT_GRACE_SECONDS):
            with contextlib.suppress(OSError):
                self._sink.close()
