"""The protocol layer under faults found by an independent attack (issue 18, items 4 and 5
and the smaller points): frames with wrong or lenient headers, ids and methods of every
JSON type, requests in every lifecycle state, JSON nested a million deep, a client that
dies while the server is busy. Each test fails on 0.4.0."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

import pytest
from _rpc import RawServer, frame
from _text import ROOT

URI = "file:///tmp/protocol.mtgr"
TEXT = (
    'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n"Alice" draw #1 "Opt"\n#1 cast\n'
)
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 4, "character": 17}}


def hover_body(msg_id: int | str) -> bytes:
    message = {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": HOVER}
    return json.dumps(message).encode("utf-8")


def assert_hover_answered(server: RawServer) -> None:
    answer = server.call("textDocument/hover", HOVER)
    assert "error" not in answer and answer["result"] is not None, answer


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    raw = RawServer()
    raw.initialize()
    raw.open(URI, TEXT)
    raw.diagnostics(URI, version=1)
    yield raw
    raw.close()


# ---- framing: lenient forms are read, bad frames cost only themselves ---------------------


@pytest.mark.parametrize(
    "header",
    [
        b"content-length: %d\r\n\r\n",
        b"CONTENT-LENGTH: %d\r\n\r\n",
        b"Content-Length:%d\r\n\r\n",
        b"Content-Length: %d\n\n",
        b"Content-Length:   %d  \r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
        b"Content-Type: application/vscode-jsonrpc\nContent-Length: %d\n\n",
        b"\r\n\r\nContent-Length: %d\r\n\r\n",  # blank lines between frames
    ],
)
def test_lenient_headers_are_read(server: RawServer, header: bytes) -> None:
    msg_id = server.new_id()
    body = hover_body(msg_id)
    server.send_bytes(header % len(body) + body)
    answer = server.response(msg_id)
    assert answer["result"] is not None, answer
    assert_hover_answered(server)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(b"Content-Length: 10\r\n\r\n" + hover_body(999_001), id="too short"),
        pytest.param(b"Content-Length: 1000000000000\r\n\r\n" + hover_body(999_002), id="huge"),
        pytest.param(b"Content-Length: 99999999999999999999\r\n\r\n{}", id="too many digits"),
        pytest.param(b"Content-Length: -5\r\n\r\n{}", id="negative"),
        pytest.param(b"Content-Length: 0x10\r\n\r\n{}", id="not decimal"),
        pytest.param(b"Content-Type: text/plain\r\n\r\n{}", id="no length"),
        pytest.param(b"this is not a header\r\n", id="not a header"),
        pytest.param(b"X" * 100_000 + b"\r\n", id="a header line of 100 KB"),
        pytest.param(b"\x00\xff\xfe garbage without a line end", id="binary"),
    ],
)
def test_a_bad_frame_costs_only_itself(server: RawServer, bad: bytes) -> None:
    """The bad frame is followed at once by a well-formed request, as a client would."""
    msg_id = server.new_id()
    body = hover_body(msg_id)
    server.send_bytes(bad + frame(body))
    answer = server.response(msg_id, timeout=20)
    assert answer["result"] is not None, answer
    assert_hover_answered(server)
    assert server.process.poll() is None


def test_a_too_long_length_gives_back_the_frame_it_swallowed(server: RawServer) -> None:
    first = hover_body(server.new_id())
    msg_id = server.new_id()
    second = frame(hover_body(msg_id))
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(first) + 40) + first + second)
    assert server.error_with_null_id()["code"] == -32700
    assert server.response(msg_id)["result"] is not None
    assert_hover_answered(server)


def test_an_unreadable_frame_is_logged_to_the_client_and_stderr(server: RawServer) -> None:
    server.send_bytes(b"Content-Length: 1000000000000\r\n\r\n")
    assert_hover_answered(server)
    logged = [m["params"]["message"] for m in server.seen if m.get("method") == "window/logMessage"]
    assert any("1,000,000,000,000 bytes" in text for text in logged), logged
    deadline = time.monotonic() + 5
    while "1,000,000,000,000 bytes" not in server.stderr and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "1,000,000,000,000 bytes" in server.stderr


# ---- messages: every JSON type as id, method and params --------------------------------------


@pytest.mark.parametrize("msg_id", [1.5, 2.0, True, False, None, [1], {"a": 1}])
def test_an_id_that_is_not_an_integer_or_a_string_is_an_invalid_request(
    server: RawServer, msg_id: object
) -> None:
    server.send_bytes(frame(hover_body(msg_id)))  # type: ignore[arg-type]
    assert server.error_with_null_id()["code"] == -32600
    assert_hover_answered(server)


@pytest.mark.parametrize("msg_id", [0, -1, 2**40, "", "an id", "ü😀"])
def test_integer_and_string_ids_are_answered_with_the_same_id(
    server: RawServer, msg_id: int | str
) -> None:
    server.send_bytes(frame(hover_body(msg_id)))
    assert server.response(msg_id)["result"] is not None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": 5},
        {"jsonrpc": "2.0", "method": None},
        {"jsonrpc": "2.0", "method": ["textDocument/hover"]},
        {"jsonrpc": "2.0", "method": "textDocument/hover", "params": 5},
        {"jsonrpc": "2.0", "method": "textDocument/hover", "params": "x"},
        {"jsonrpc": "1.0", "method": "textDocument/hover", "params": HOVER},
        {"method": "textDocument/hover", "params": HOVER},
        {"jsonrpc": "2.0"},
    ],
)
def test_an_invalid_request_with_a_valid_id_is_answered_with_that_id(
    server: RawServer, message: dict
) -> None:
    msg_id = server.new_id()
    server.send({**message, "id": msg_id})
    assert server.response(msg_id)["error"]["code"] == -32600
    assert_hover_answered(server)


@pytest.mark.parametrize(
    "params",
    [None, {}, {"textDocument": {}}, {"textDocument": {"uri": URI}, "position": [1, 2]}, [1]],
)
def test_invalid_params_get_invalid_params(server: RawServer, params: object) -> None:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": server.new_id()}
    message["method"] = "textDocument/hover"
    if params is not None:
        message["params"] = params
    server.send(message)
    assert server.response(message["id"])["error"]["code"] == -32602  # type: ignore[arg-type]


def test_a_notification_sent_with_an_id_is_refused_not_run(server: RawServer) -> None:
    other = "file:///tmp/protocol-other.mtgr"
    msg_id = server.request(
        "textDocument/didOpen",
        {"textDocument": {"uri": other, "languageId": "mtgr", "version": 1, "text": TEXT}},
    )
    assert server.response(msg_id)["error"]["code"] == -32601
    answer = server.call("textDocument/hover", {**HOVER, "textDocument": {"uri": other}})
    assert answer["result"] is None  # never opened


def test_a_request_sent_without_an_id_is_not_answered(server: RawServer) -> None:
    server.notify("textDocument/hover", HOVER)
    server.notify("shutdown")  # a shutdown without an id is no shutdown
    msg_id = server.request("textDocument/hover", HOVER)
    answers = iter(server.next_message, None)
    assert next(m for m in answers if "method" not in m)["id"] == msg_id


@pytest.mark.parametrize("opening", [b"[", b'{"a":', b'{"jsonrpc": "2.0", "params": ['])
def test_json_nested_a_million_deep_is_a_parse_error(server: RawServer, opening: bytes) -> None:
    server.send_bytes(frame(opening * 1_000_000))
    assert server.error_with_null_id(timeout=30)["code"] == -32700
    deep = {"jsonrpc": "2.0", "id": server.new_id(), "method": "textDocument/hover"}
    deep["params"] = {**HOVER, "extra": json.loads("[" * 500 + "]" * 500)}
    server.send(deep)
    assert server.error_with_null_id()["code"] == -32700
    assert_hover_answered(server)
    assert "RecursionError" not in server.stderr


# ---- the lifecycle: a server each ------------------------------------------------------------


@pytest.fixture
def fresh() -> Iterator[RawServer]:
    raw = RawServer()
    yield raw
    raw.close()


def test_requests_before_initialize_get_server_not_initialized(fresh: RawServer) -> None:
    fresh.open(URI, TEXT)  # dropped: a notification before initialize
    for method, params in [("textDocument/hover", HOVER), ("shutdown", None), ("mtgr/x", {})]:
        assert fresh.call(method, params)["error"]["code"] == -32002
    fresh.initialize()
    assert fresh.call("textDocument/hover", HOVER)["result"] is None  # the open was dropped
    fresh.open(URI, TEXT)
    assert_hover_answered(fresh)


def test_initialize_twice_is_an_invalid_request(fresh: RawServer) -> None:
    fresh.initialize()
    answer = fresh.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert answer["error"]["code"] == -32600


def test_initialize_with_bad_params_leaves_the_server_waiting(fresh: RawServer) -> None:
    assert fresh.call("initialize", {"capabilities": 5})["error"]["code"] == -32602
    assert fresh.call("textDocument/hover", HOVER)["error"]["code"] == -32002
    assert "capabilities" in fresh.initialize()["result"]


def test_requests_after_shutdown_are_invalid_requests(fresh: RawServer) -> None:
    fresh.initialize()
    fresh.open(URI, TEXT)
    assert fresh.call("shutdown")["result"] is None
    for method, params in [("textDocument/hover", HOVER), ("shutdown", None), ("mtgr/x", {})]:
        assert fresh.call(method, params)["error"]["code"] == -32600
    fresh.notify("exit")
    assert fresh.wait(10) == 0


def test_shutdown_and_exit_with_null_params_end_the_server(fresh: RawServer) -> None:
    """`"params": null` is what many clients send with shutdown and exit (LSP: params void);
    refused as an invalid request, the server never exited (found by the benchmark)."""
    fresh.initialize()
    fresh.send({"jsonrpc": "2.0", "id": 77, "method": "shutdown", "params": None})
    assert fresh.response(77) == {"jsonrpc": "2.0", "id": 77, "result": None}
    fresh.send({"jsonrpc": "2.0", "method": "exit", "params": None})
    assert fresh.wait(10) == 0


def test_exit_before_initialize_exits_one(fresh: RawServer) -> None:
    fresh.notify("exit")
    assert fresh.wait(10) == 1


def test_a_client_that_dies_while_the_server_is_busy() -> None:
    """A full re-check of 100,000 lines keeps the event loop busy for many seconds; the
    server still notices the end of its input and exits within about two seconds."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.generate import generate

    text = generate(100_000)
    raw = RawServer()
    try:
        raw.initialize()
        raw.open(URI, text)
        change = {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": text}]}
        raw.notify("textDocument/didChange", change)
        assert raw.process.stdin is not None
        time.sleep(1.0)  # the server is into the check
        raw.process.stdin.close()
        started = time.monotonic()
        assert raw.wait(10) == 1, "the server outlived its client"
        assert time.monotonic() - started < 5
    finally:
        raw.close()


def test_exit_is_prompt_while_the_client_reads_nothing() -> None:
    """A client that stops reading fills the pipe with publishes of a record with many
    diagnostics; `shutdown` and `exit` are still taken and the server ends. (When writes
    blocked the event loop, it never read them.)"""
    sys.path.insert(0, str(ROOT))
    from benchmarks.session import as_is

    text = as_is(3000)
    raw = RawServer(reading=False)
    try:
        raw.request("initialize", {"processId": None, "capabilities": {}})
        raw.notify("initialized", {})
        raw.open(URI, text)
        for version in range(2, 8):
            change = {"range": _at(version), "text": "x"}
            raw.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]},
            )
        raw.request("shutdown")
        raw.notify("exit")
        assert raw.wait(30) == 0, "the server never took exit"
    finally:
        raw.close()


def _at(version: int) -> dict[str, dict[str, int]]:
    position = {"line": 100 * version, "character": 0}
    return {"start": position, "end": position}
