"""A raw JSON-RPC client over the server's stdio pipes: it can send what no LSP client would."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVER_COMMAND = [sys.executable, "-m", "mtgr", "lsp"]

Message = dict[str, Any]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    """The real server in a child process; messages read on a thread into a queue."""

    def __init__(self, reading: bool = True, command: list[str] | None = None) -> None:
        """`reading` False: a client that never reads what the server writes; `command`:
        another server than mtgr's own (one with a planted bug)."""
        self.process = subprocess.Popen(
            command or SERVER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.messages: queue.Queue[Message | None] = queue.Queue()
        self.seen: list[Message] = []  # every message taken from the queue, in order
        self._next_id = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        if reading:
            self._reader.start()
        self._stderr: list[bytes] = []
        self._errors = threading.Thread(target=self._drain_stderr, daemon=True)
        self._errors.start()

    # -- wire
    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = None
            while True:
                header = stdout.readline()
                if not header:
                    self.messages.put(None)
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = stdout.read(length)
            self.messages.put(json.loads(body))

    def _drain_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        for line in stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def send_bytes(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def send(self, message: Message) -> None:
        self.send_bytes(frame(json.dumps(message).encode("utf-8")))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Any = None, msg_id: int | None = None) -> int:
        msg_id = self.new_id() if msg_id is None else msg_id
        message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        message: Message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- reading
    def next_message(self, timeout: float = 10.0) -> Message:
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the server in {timeout}s") from None
        if message is None:
            raise EOFError(f"the server closed its output; stderr:\n{self.stderr[-3000:]}")
        self.seen.append(message)
        return message

    def error_with_null_id(self, timeout: float = 10.0) -> Message:
        """The next error response with id null (to a message whose id was not valid)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            if "error" in message and message.get("id") is None and "method" not in message:
                return message["error"]

    def response(self, msg_id: int, timeout: float = 10.0) -> Message:
        """The response to one request, answering the server's own requests on the way."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            if "method" in message and "id" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == msg_id and "method" not in message:
                return message

    def call(self, method: str, params: Any = None, timeout: float = 10.0) -> Message:
        return self.response(self.request(method, params), timeout)

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 20.0) -> Message:
        """The next publishDiagnostics for the uri (for that version, when given)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message["params"]
            if params["uri"] == uri and (version is None or params.get("version") == version):
                return params

    # -- lifecycle
    def initialize(self, process_id: int | None = None) -> Message:
        answer = self.call(
            "initialize",
            {"processId": process_id or os.getpid(), "rootUri": None, "capabilities": {}},
        )
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "mtgr", "version": version, "text": text}},
        )

    def wait(self, timeout: float = 10.0) -> int | None:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
