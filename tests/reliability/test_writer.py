"""The server's queued writer (transport.QueuedWriter): messages leave in the order they
were made, a publish not yet started is replaced by a newer one for the same document,
nothing else is ever dropped, and a client that is gone costs nothing more."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _rpc import ROOT, SERVER_COMMAND, RawServer, frame

from mtgr.check import check_text
from mtgr.server import transport
from mtgr.server.transport import QueuedWriter

fcntl = transport.fcntl  # None on Windows


class GatedSink:
    """Records what it is given; the first write blocks until `gate` is set, as a write
    to a client still reading an earlier message does."""

    def __init__(self, fail_with: OSError | None = None) -> None:
        self.written: list[bytes] = []
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.closed = False
        self._fail_with = fail_with

    def write_pieces(self, pieces: list[bytes]) -> None:
        if not self.entered.is_set():
            self.entered.set()
            assert self.gate.wait(30), "the test never opened the gate"
        if self._fail_with is not None:
            raise self._fail_with
        self.written.append(b"".join(pieces))

    def close(self) -> None:
        self.closed = True


def made(*pieces: bytes) -> Callable[[], list[bytes]]:
    """A message's maker, as diagnostics.publish gives it, that says when it was called."""

    def make() -> list[bytes]:
        MADE.append(b"".join(pieces))
        return list(pieces)

    return make


MADE: list[bytes] = []


def blocked_writer(sink: GatedSink, first: bytes = b"first") -> QueuedWriter:
    """A writer whose thread is inside the sink, writing `first`."""
    writer = QueuedWriter(sink)
    writer.write(first)
    assert sink.entered.wait(30)
    return writer


def test_responses_keep_their_order_and_only_stale_publishes_go() -> None:
    sink = GatedSink()
    writer = blocked_writer(sink)
    writer.replace("file:///a.mtgr", made(b"publish a", b" v1"))
    writer.write(b"response 1")
    writer.replace("file:///a.mtgr", made(b"publish a", b" v2"))
    writer.write_pieces([b"response", b" 2"])
    writer.replace("file:///b.mtgr", made(b"publish b v1"))
    writer.write(b"log")
    writer.replace("file:///a.mtgr", made(b"publish a v3"))
    MADE.clear()
    sink.gate.set()
    writer.close()
    assert MADE == [b"publish b v1", b"publish a v3"]  # a replaced one is never made
    assert sink.written == [
        b"first",
        b"response 1",
        b"response 2",
        b"publish b v1",
        b"log",
        b"publish a v3",
    ]
    assert sink.closed


def test_the_writer_is_idle_only_with_nothing_queued_or_being_written() -> None:
    sink = GatedSink()
    writer = QueuedWriter(sink)
    assert writer.idle
    writer = blocked_writer(sink)
    assert not writer.idle  # writing the first message
    writer.write(b"second")
    sink.gate.set()
    deadline = time.monotonic() + 30
    while not writer.idle and time.monotonic() < deadline:
        time.sleep(0.001)
    assert writer.idle
    assert sink.written == [b"first", b"second"]
    writer.close()


def test_a_publish_being_written_is_not_replaced() -> None:
    """Once a publish has started to go out, the client reads all of it: the newer one
    follows it, and replaces nothing."""
    sink = GatedSink()
    writer = blocked_writer(sink)
    writer.replace("file:///a.mtgr", made(b"publish a v1"))
    sink.gate.set()
    writer.close()
    sink = GatedSink()
    writer = QueuedWriter(sink)
    writer.replace("file:///a.mtgr", made(b"publish a v1"))
    assert sink.entered.wait(30)
    writer.replace("file:///a.mtgr", made(b"publish a v2"))
    writer.write(b"response")
    sink.gate.set()
    writer.close()
    assert sink.written == [b"publish a v1", b"publish a v2", b"response"]


def test_a_publish_superseded_before_its_turn_is_not_written() -> None:
    """A publish whose document has changed by the time the writer comes to it is stale
    (the change's check publishes anew): dropped, as is nothing else."""
    sink = GatedSink()
    writer = blocked_writer(sink)
    version = {"file:///a.mtgr": 1, "file:///b.mtgr": 1}

    def changed_since(uri: str) -> Callable[[], bool]:
        seen = version[uri]
        return lambda: version[uri] != seen

    writer.replace("file:///a.mtgr", made(b"publish a v1"), changed_since("file:///a.mtgr"))
    writer.replace("file:///b.mtgr", made(b"publish b v1"), changed_since("file:///b.mtgr"))
    writer.write(b"response")
    version["file:///a.mtgr"] = 2  # a change came while the client was still reading
    sink.gate.set()
    writer.close()
    assert sink.written == [b"first", b"publish b v1", b"response"]


def test_a_failing_question_writes_the_publish() -> None:
    def broken() -> bool:
        raise RuntimeError("a bug")

    sink = GatedSink()
    writer = blocked_writer(sink)
    writer.replace("file:///a.mtgr", made(b"publish a v1"), broken)
    sink.gate.set()
    writer.close()
    assert sink.written == [b"first", b"publish a v1"]


def test_nothing_but_stale_publishes_is_lost_in_a_long_run() -> None:
    """Many messages of both kinds from several threads (pygls answers some requests on a
    thread pool): every plain message arrives, each thread's in its order, and each
    document's last publish arrives after everything its thread wrote before it."""
    sink = GatedSink()
    writer = blocked_writer(sink)

    def produce(name: str) -> None:
        for k in range(500):
            writer.write(b"%s message %d" % (name.encode(), k))
            writer.replace(f"file:///{name}.mtgr", made(b"%s publish %d" % (name.encode(), k)))

    producers = [threading.Thread(target=produce, args=(name,)) for name in ("x", "y", "z")]
    for producer in producers:
        producer.start()
    sink.gate.set()
    for producer in producers:
        producer.join()
    writer.close()
    for name in (b"x", b"y", b"z"):
        plain = [m for m in sink.written if m.startswith(name + b" message")]
        assert plain == [b"%s message %d" % (name, k) for k in range(500)]
        publishes = [m for m in sink.written if m.startswith(name + b" publish")]
        numbers = [int(m.rsplit(b" ", 1)[1]) for m in publishes]
        assert numbers == sorted(numbers) and numbers[-1] == 499
        assert sink.written.index(name + b" publish 499") > sink.written.index(
            name + b" message 499"
        )


@pytest.mark.parametrize("error", [BrokenPipeError(32, "Broken pipe"), ValueError("closed")])
def test_a_client_that_is_gone_ends_the_writing(error: Exception) -> None:
    sink = GatedSink(fail_with=error)  # type: ignore[arg-type]
    writer = blocked_writer(sink)
    writer.write(b"never written")
    writer.replace("file:///a.mtgr", made(b"never written either"))
    sink.gate.set()
    writer.close()
    writer.write(b"after the end")
    assert sink.written == []
    assert writer.drain(0)


def test_a_message_that_cannot_be_made_costs_only_itself() -> None:
    sink = GatedSink()
    writer = blocked_writer(sink)
    writer.write_pieces([b"half", "not bytes"])  # type: ignore[list-item]
    writer.write(b"next")
    sink.gate.set()
    writer.close()
    assert sink.written == [b"first", b"next"]


def test_close_leaves_a_writer_blocked_on_a_client_that_stopped_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client that reads no more: `close` gives the queue its grace and returns, leaving
    the output open under the thread still writing (the process's exit ends it)."""
    monkeypatch.setattr("mtgr.server.transport.EXIT_GRACE_SECONDS", 0.05)
    sink = GatedSink()
    writer = blocked_writer(sink)
    writer.write(b"queued")
    writer.close()
    assert not sink.closed
    writer.write(b"after close")
    sink.gate.set()
    assert writer.drain(30)
    assert sink.written == [b"first", b"queued"]


@pytest.mark.skipif(
    fcntl is None or not hasattr(fcntl, "F_GETPIPE_SZ"), reason="pipe sizes are Linux's"
)
def test_the_servers_output_pipe_holds_a_megabyte() -> None:
    """Through the default 64 KB, a client reads a publish of megabytes 64 KB at a wake."""
    raw = RawServer()
    try:
        raw.initialize()
        assert raw.process.stdout is not None and fcntl is not None
        size = fcntl.fcntl(raw.process.stdout.fileno(), fcntl.F_GETPIPE_SZ)
        assert size >= transport.PIPE_BYTES
    finally:
        raw.close()


def test_widening_anything_but_a_pipe_changes_nothing(tmp_path: Path) -> None:
    with (tmp_path / "out").open("wb") as file:
        transport.widen_pipe(file.fileno())
        file.write(b"still writable")
    assert (tmp_path / "out").read_bytes() == b"still writable"


def _frames(connection: socket.socket) -> Iterator[dict]:
    """The messages a server sends over a socket, one at a time."""
    buffer = b""
    while True:
        while b"\r\n\r\n" not in buffer:
            chunk = connection.recv(65536)
            if not chunk:
                return
            buffer += chunk
        header, _, buffer = buffer.partition(b"\r\n\r\n")
        fields = dict(line.split(b":", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        while len(buffer) < length:
            chunk = connection.recv(65536)
            if not chunk:
                return
            buffer += chunk
        body, buffer = buffer[:length], buffer[length:]
        yield json.loads(body)


def test_the_tcp_transport_answers_publishes_and_exits() -> None:
    """`mtgr lsp --tcp` writes through the same queued writer, to a socket."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [*SERVER_COMMAND, "--tcp", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        for _ in range(200):
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("the server never listened")
        with connection:

            def send(message: dict) -> None:
                body = json.dumps({"jsonrpc": "2.0", **message}).encode()
                connection.sendall(frame(body))

            messages = _frames(connection)
            send({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
            assert "capabilities" in next(m for m in messages if m.get("id") == 1)["result"]
            send({"method": "initialized", "params": {}})
            uri = "file:///tmp/tcp.mtgr"
            text = (
                'mtgr 0.4\nplayer "Alice"\nperspective "Alice"\n"Alice" draw #1\n"Alice" draw #1\n'
            )
            item = {"uri": uri, "languageId": "mtgr", "version": 1, "text": text}
            send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
            published = next(
                m for m in messages if m.get("method") == "textDocument/publishDiagnostics"
            )
            assert published["params"]["version"] == 1
            assert [d["code"] for d in published["params"]["diagnostics"]] == [
                d.code for d in check_text(text)
            ]
            send({"id": 2, "method": "shutdown"})
            assert next(m for m in messages if m.get("id") == 2)["result"] is None
            send({"method": "exit"})
            assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
