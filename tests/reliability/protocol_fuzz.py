"""A seeded raw-pipe attack on the language server's protocol layer.

Each session starts the real server and drives it through every lifecycle state (before
`initialize`, running, after `shutdown`) with random messages: well-formed and malformed
headers (lenient forms, wrong, missing, huge and too short lengths, garbage), bodies that
are not JSON, not objects or nested a million deep, ids and methods of every JSON type,
params that fit and params that do not, notifications sent with ids, requests sent
without. A model of the protocol says what each message must get back; the session ends
with a well-formed request that must be answered, then `exit` or the end of input, and
the exit code LSP asks for. Then every request with a valid id got exactly one response
with the right code, and the errors with id null are exactly those expected.

    .venv/bin/python tests/reliability/protocol_fuzz.py --seconds 600 --seed 1

`tests/reliability/test_protocol_fuzz.py` runs it for a bounded time in the suite.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _rpc import RawServer

OK = 0  # a result, not an error
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
NOT_INITIALIZED = -32002

URIS = ["file:///tmp/fuzz-a.mtgr", "file:///tmp/fuzz-b.mtgr", "file:///tmp/fuzz-c.md"]
LINES = [
    "mtgr 0.4",
    'player "Alice"',
    'player "Bob"',
    'perspective "Alice"',
    '"Alice" draw #1 "Opt"',
    "#1 cast",
    "#1 resolve",
    "turn 2",
    "// CR 601.2",
    '#1 damage 1 -> "Bob"',
    "ü😀\r",
    "",
]
NOTIFICATIONS = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didClose"]
SYNC_REQUESTS = [
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/documentHighlight",
    "textDocument/documentSymbol",
    "textDocument/semanticTokens/full",
    "textDocument/foldingRange",
]
# what stderr shows when the server (not a handler refusing params) went wrong
CRASH_MARKERS = [
    "RecursionError",
    "MemoryError",
    "OverflowError",
    "Fatal Python error",
    "Exception in callback",
    "exception was never retrieved",
    "JsonRpcInternalError",
    "Failed to handle notification",
    "Exception occurred for message",
]
KNOWN_REQUESTS = [*SYNC_REQUESTS, "initialize", "shutdown"]


@dataclass
class Expect:
    """What the server owes: one response per valid id, and errors with id null."""

    by_id: dict[Any, int] = field(default_factory=dict)
    null_errors: Counter[int] = field(default_factory=Counter)


class Session:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.server = RawServer()
        self.stage = "waiting"
        self.expect = Expect()
        self.next_id = 0
        self.versions: dict[str, int] = {}
        self.sent = 0
        self.swallowed_by: bytes | None = None  # the body of a frame too long, sent with the next

    # -- values
    def json_value(self, depth: int = 0) -> Any:
        rng = self.rng
        kinds = ["null", "bool", "int", "float", "str"] + (["list", "dict"] if depth < 3 else [])
        kind = rng.choice(kinds)
        if kind == "null":
            return None
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "int":
            return rng.choice([0, -1, 1, 2**31, -(2**63), rng.randrange(-1000, 1000)])
        if kind == "float":
            return rng.choice([0.5, -1.25, 1e300, 3.0])
        if kind == "str":
            return rng.choice(["", "x", "textDocument", "ü😀", "\u0000", "a" * 300])
        if kind == "list":
            return [self.json_value(depth + 1) for _ in range(rng.randrange(4))]
        keys = ["textDocument", "uri", "position", "line", "character", "x", "id", "jsonrpc"]
        return {rng.choice(keys): self.json_value(depth + 1) for _ in range(rng.randrange(4))}

    def fresh_id(self) -> int | str:
        self.next_id += 1
        return self.next_id if self.rng.random() < 0.7 else f"id-{self.next_id}-ü"

    def invalid_id(self) -> Any:
        return self.rng.choice([None, True, False, 1.5, 2.0, [1], {"id": 1}, [], {}])

    def text(self) -> str:
        lines = [self.rng.choice(LINES) for _ in range(self.rng.randrange(12))]
        return self.rng.choice(["\n", "\r\n", "\r"]).join(lines)

    def position(self) -> dict[str, int]:
        return {"line": self.rng.randrange(14), "character": self.rng.randrange(40)}

    def fitting_params(self, method: str) -> dict[str, Any]:
        uri = self.rng.choice(URIS)
        if method == "textDocument/didOpen":
            self.versions[uri] = 1
            item = {"uri": uri, "languageId": "mtgr", "version": 1, "text": self.text()}
            return {"textDocument": item}
        if method == "textDocument/didChange":
            self.versions[uri] = self.versions.get(uri, 1) + 1
            change: dict[str, Any] = {"text": self.text()}
            if self.rng.random() < 0.7:
                start, end = sorted(
                    [self.position(), self.position()], key=lambda p: tuple(p.values())
                )
                change["range"] = {"start": start, "end": end}
                change["text"] = self.rng.choice(["", "\n", "\r", "\r\n", "#1", "ü😀", '"'])
            document = {"uri": uri, "version": self.versions[uri]}
            return {"textDocument": document, "contentChanges": [change]}
        params: dict[str, Any] = {"textDocument": {"uri": uri}}
        if method in (
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/documentHighlight",
        ):
            params["position"] = self.position()
        return params

    # -- sending
    def send_body(self, body: bytes) -> None:
        """One frame, in one write or split into pieces, with a lenient header sometimes."""
        header = self.rng.choice(
            [
                b"Content-Length: %d\r\n\r\n",
                b"Content-Length: %d\r\n\r\n",
                b"content-length: %d\r\n\r\n",
                b"Content-Length:%d\r\n\r\n",
                b"Content-Length: %d\n\n",
                b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n",
            ]
        )
        data = header % len(body) + body
        if self.swallowed_by is not None:  # a frame before it whose length reaches into it
            extra = self.rng.randrange(1, len(data) + 1)
            before = self.swallowed_by
            data = b"Content-Length: %d\r\n\r\n" % (len(before) + extra) + before + data
            self.swallowed_by = None
        self.send_raw(data)

    def send_raw(self, data: bytes) -> None:
        self.sent += 1
        if len(data) > 8 and self.rng.random() < 0.15:
            cut = self.rng.randrange(1, len(data))
            self.server.send_bytes(data[:cut])
            time.sleep(0.001)
            data = data[cut:]
        self.server.send_bytes(data)

    def send_message(self, message: dict[str, Any]) -> None:
        self.send_body(json.dumps(message).encode("utf-8"))

    # -- what the server must answer
    def lifecycle_code(self, method: str) -> int | None:
        if self.stage == "waiting" and method != "initialize":
            return NOT_INITIALIZED
        if self.stage == "shut down":
            return INVALID_REQUEST
        if self.stage == "running" and method == "initialize":
            return INVALID_REQUEST
        return None

    def request(self, method: str, params: Any, fits: bool) -> None:
        msg_id = self.fresh_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        code = self.lifecycle_code(method)
        if code is None:
            if method not in KNOWN_REQUESTS:  # notification methods too
                code = METHOD_NOT_FOUND
            else:
                code = OK if fits else INVALID_PARAMS
        self.expect.by_id[msg_id] = code
        self.send_message(message)

    # -- actions
    def step(self) -> None:
        rng = self.rng
        action = rng.randrange(15)
        if action <= 3:
            method = rng.choice(SYNC_REQUESTS)
            fits = rng.random() < 0.6
            self.request(method, self.fitting_params(method) if fits else self.junk_params(), fits)
        elif action == 4:
            self.request(rng.choice(["mtgr/nothing", "$/nothing"]), {"x": 1}, True)
        elif action <= 6:
            method = rng.choice(NOTIFICATIONS)
            params = self.fitting_params(method) if rng.random() < 0.7 else self.junk_params()
            self.send_message({"jsonrpc": "2.0", "method": method, "params": params})
        elif action == 7:
            method = rng.choice(NOTIFICATIONS)
            self.request(method, self.fitting_params(method), True)
        elif action == 8:  # an id of a type LSP does not allow
            body = {"jsonrpc": "2.0", "id": self.invalid_id(), "method": rng.choice(SYNC_REQUESTS)}
            self.expect.null_errors[INVALID_REQUEST] += 1
            self.send_message(body)
        elif action == 9:  # an envelope that is not a request
            msg_id = self.fresh_id()
            broken = rng.choice(
                [
                    {"jsonrpc": "2.0", "id": msg_id, "method": rng.choice([5, None, [], {}, True])},
                    {"jsonrpc": "1.0", "id": msg_id, "method": "textDocument/hover"},
                    {"id": msg_id, "method": "textDocument/hover"},
                    {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": 7},
                    {"jsonrpc": "2.0", "id": msg_id},
                ]
            )
            self.expect.by_id[msg_id] = INVALID_REQUEST
            self.send_message(broken)
        elif action == 10:  # bodies that are not a message
            body, code = rng.choice(
                [
                    (b"{not json", PARSE_ERROR),
                    (b"", PARSE_ERROR),
                    (b"\xff\xfe\x00\x01", PARSE_ERROR),
                    (b"[1, 2]", INVALID_REQUEST),
                    (b"null", INVALID_REQUEST),
                    (b'"text"', INVALID_REQUEST),
                    (b"{}", INVALID_REQUEST),
                    (b"[" * 200_000, PARSE_ERROR),
                    (json.dumps({"a": json.loads("[" * 300 + "]" * 300)}).encode(), PARSE_ERROR),
                ]
            )
            self.expect.null_errors[code] += 1
            self.send_body(body)
        elif action == 11:  # a length too short: the start is not JSON, the rest is skipped
            body = self.valid_request_body()
            cut = rng.randrange(1, len(body))
            self.expect.null_errors[PARSE_ERROR] += 1
            self.send_raw(b"Content-Length: %d\r\n\r\n" % cut + body)
        elif action == 12:  # a length too long: the body swallows filler or the next frame
            body = self.valid_request_body()
            self.expect.null_errors[PARSE_ERROR] += 1
            if rng.random() < 0.5:
                extra = rng.randrange(1, 50)
                self.send_raw(
                    b"Content-Length: %d\r\n\r\n" % (len(body) + extra) + body + b"~" * extra
                )
            else:  # the swallowed frame is read again
                self.swallowed_by = body
                method = rng.choice(SYNC_REQUESTS)
                self.request(method, self.fitting_params(method), True)
        elif action == 13:  # headers that are no frame: nothing is answered
            self.send_raw(
                rng.choice(
                    [
                        b"Content-Length: 1000000000000\r\n\r\n",
                        b"Content-Length: 99999999999999999999999\r\n\r\n",
                        b"Content-Length: -1\r\n\r\n",
                        b"Content-Length: abc\r\n\r\n",
                        b"Content-Type: text/plain\r\n\r\n",
                        b"garbage line\r\n",
                        b"\x00\x01\x02",
                        b"X" * 10_000 + b"\n",
                        b"\r\n\r\n",
                    ]
                )
            )
        else:  # responses and cancels the server never asked for: no answer
            self.send_message(
                rng.choice(
                    [
                        {"jsonrpc": "2.0", "id": 424242, "result": self.json_value()},
                        {"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "x"}},
                        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 987654}},
                        {"jsonrpc": "2.0", "method": "textDocument/hover", "params": {}},
                    ]
                )
            )

    def next_id_sent(self) -> int | str:
        return list(self.expect.by_id)[-1]

    def junk_params(self) -> Any:
        """Params no request here takes: never with a `textDocument`."""
        value = self.json_value()
        if isinstance(value, dict):
            value.pop("textDocument", None)
        return value if isinstance(value, dict | list) and value else [1]

    def valid_request_body(self) -> bytes:
        """A request whose frame is broken: it must not be answered."""
        message = {"jsonrpc": "2.0", "id": 10**9 + self.sent, "method": "textDocument/hover"}
        message["params"] = self.fitting_params("textDocument/hover")
        return json.dumps(message).encode("utf-8")

    # -- the session
    def run(self, steps: int) -> None:
        for _ in range(self.rng.randrange(steps)):
            self.step()
        if self.rng.random() < 0.2:
            self.request("initialize", {"capabilities": 5}, False)
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, True)
        self.stage = "running"
        self.send_message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        for _ in range(self.rng.randrange(steps * 3)):
            self.step()
        shut_down = self.rng.random() < 0.7
        if shut_down:
            self.request("shutdown", None, True)
            self.stage = "shut down"
            for _ in range(self.rng.randrange(steps)):
                self.step()
        self.request("textDocument/hover", self.fitting_params("textDocument/hover"), True)
        self.collect(self.next_id_sent())
        if self.rng.random() < 0.7:
            self.send_message({"jsonrpc": "2.0", "method": "exit"})
        else:
            stdin = self.server.process.stdin
            assert stdin is not None
            stdin.close()
        code = self.server.wait(10)
        assert code == (0 if shut_down else 1), (code, self.server.stderr[-3000:])
        failures = [marker for marker in CRASH_MARKERS if marker in self.server.stderr]
        assert not failures, (failures, self.server.stderr[-5000:])

    def collect(self, last_id: int | str) -> None:
        got: dict[Any, list[int]] = {}
        null_errors: Counter[int] = Counter()
        while True:
            message = self.server.next_message(timeout=30)
            if "method" in message:
                if "id" in message:  # a request from the server
                    self.server.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            code = message["error"]["code"] if "error" in message else OK
            if message.get("id") is None:
                null_errors[code] += 1
            else:
                got.setdefault(message["id"], []).append(code)
            if message.get("id") == last_id:
                break
        time.sleep(0.2)  # anything sent after the last answer would be a stray
        while not self.server.messages.empty():
            message = self.server.next_message()
            if "method" not in message:
                got.setdefault(message.get("id"), []).append(-1)
        want = {msg_id: [code] for msg_id, code in self.expect.by_id.items()}
        wrong = {
            msg_id: (want.get(msg_id), got.get(msg_id))
            for msg_id in set(want) | set(got)
            if want.get(msg_id) != got.get(msg_id)
        }
        assert not wrong, f"responses (want, got) by id: {wrong}"
        assert null_errors == self.expect.null_errors, (null_errors, self.expect.null_errors)

    def close(self) -> None:
        self.server.close()


def fuzz(seconds: float, seed: int, steps: int = 30) -> int:
    """Sessions until the time is up (at least one); returns how many ran."""
    deadline = time.monotonic() + seconds
    sessions = 0
    while sessions == 0 or time.monotonic() < deadline:
        session = Session(random.Random(f"{seed}-{sessions}"))
        try:
            session.run(steps)
        except BaseException as error:
            server = session.server
            server.wait(2)  # a server that died: its exit code and last words name the cause
            raise AssertionError(
                f"session {seed}-{sessions} failed after {session.sent} frames; server exit "
                f"code {server.process.poll()}, stderr ends:\n{server.stderr[-3000:]}"
            ) from error
        finally:
            session.close()
        sessions += 1
    return sessions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    sessions = fuzz(args.seconds, args.seed)
    print(f"{sessions} sessions clean in {time.monotonic() - started:.0f}s (seed {args.seed})")


if __name__ == "__main__":
    main()
