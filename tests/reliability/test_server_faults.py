"""The real server under faults, over raw pipes: it answers or ignores as the protocol says,
keeps serving (a hover still works after each fault) and exits as LSP asks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from _rpc import RawServer
from _text import ROOT, apply_change, utf16_character

from mtgr.check import check_text
from mtgr.server.lifetime import CHECK_EVERY_SECONDS
from mtgr.syntax.document import split_lines

URI = "file:///tmp/faults.mtgr"
TEXT = (
    'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n'
    '"Alice" draw #1 "Jötun Grunt"\n"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'
)
HOVER_AT = {"line": 4, "character": 17}  # on "Jötun Grunt"


def hover(server: RawServer, uri: str = URI, position: dict[str, int] | None = None) -> dict:
    return server.call(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": position or HOVER_AT},
        timeout=20,
    )


def assert_serving(server: RawServer) -> None:
    answer = hover(server)
    assert "error" not in answer, answer
    assert answer["result"] is not None, answer


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    """One server for the faults that leave it running (starting one takes seconds)."""
    raw = RawServer()
    assert "capabilities" in raw.initialize()["result"]
    raw.open(URI, TEXT)
    found = raw.diagnostics(URI, version=1)
    assert ("K301", 8) in {(d["code"], d["range"]["start"]["line"]) for d in found["diagnostics"]}
    yield raw
    raw.close()


def error_with_null_id(server: RawServer, timeout: float = 10) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        message = server.next_message(max(0.01, deadline - time.monotonic()))
        if "error" in message and message.get("id") is None:
            return message["error"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", ', -32700),
        (b"\xff\xfe\x00", -32700),
        (b"[1, 2]", -32600),
        (b"null", -32600),
        (b'"hello"', -32600),
        (b"{}", -32600),
    ],
)
def test_malformed_messages_get_an_error_with_null_id(
    server: RawServer, body: bytes, code: int
) -> None:
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert error_with_null_id(server)["code"] == code
    assert_serving(server)


@pytest.mark.parametrize(
    "params",
    [
        None,
        {},
        {"textDocument": {}},
        {"textDocument": {"uri": URI}, "position": {"line": "x", "character": 0}},
        {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}},
    ],
)
def test_a_request_with_bad_params_gets_invalid_params(server: RawServer, params: object) -> None:
    message: dict[str, object] = {"jsonrpc": "2.0", "id": server.new_id()}
    message["method"] = "textDocument/hover"
    if params is not None:
        message["params"] = params
    server.send(message)
    answer = server.response(int(message["id"]))  # type: ignore[call-overload]
    assert answer.get("error", {}).get("code") == -32602, answer
    assert_serving(server)


def test_notifications_with_bad_params_are_ignored(server: RawServer) -> None:
    server.notify("textDocument/didChange", {"textDocument": {"uri": URI}})
    server.notify("textDocument/didOpen", {})
    server.notify("$/cancelRequest", {})
    server.send({"jsonrpc": "2.0", "id": 4242, "result": {"unasked": True}})  # a stray response
    assert_serving(server)


def test_unknown_methods(server: RawServer) -> None:
    answer = server.call("mtgr/noSuchMethod", {"x": 1})
    assert answer["error"]["code"] == -32601
    server.notify("mtgr/noSuchNotification", {"x": 1})
    server.notify("$/someOptionalNotification", {})
    assert_serving(server)


@pytest.mark.parametrize(
    ("method", "empty"),
    [
        ("textDocument/hover", (None,)),
        ("textDocument/completion", (None, [])),
        ("textDocument/definition", (None, [])),
        ("textDocument/references", (None, [])),
        ("textDocument/documentSymbol", (None, [])),
        ("textDocument/inlayHint", (None, [])),
        ("textDocument/formatting", (None, [])),
        ("textDocument/semanticTokens/full", (None, [])),
        ("textDocument/codeAction", (None, [])),
    ],
)
def test_documents_never_opened(server: RawServer, method: str, empty: tuple) -> None:
    position = {"line": 1, "character": 2}
    params: dict[str, object] = {"textDocument": {"uri": "file:///tmp/never-opened.mtgr"}}
    if method in ("textDocument/codeAction", "textDocument/inlayHint"):
        params["range"] = {"start": position, "end": position}
    elif method not in (
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/formatting",
    ):
        params["position"] = position
    if method == "textDocument/codeAction":
        params["context"] = {"diagnostics": []}
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": True}
    if method == "textDocument/formatting":
        params["options"] = {"tabSize": 4, "insertSpaces": True}
    answer = server.call(method, params)
    assert "error" not in answer, answer
    result = answer["result"]
    if isinstance(result, dict) and "items" in result:
        result = result["items"]
    if isinstance(result, dict) and "data" in result:
        result = result["data"]
    assert result in empty, answer
    assert_serving(server)


@pytest.mark.parametrize(
    "position",
    [
        {"line": 4, "character": 10_000},
        {"line": 10_000, "character": 0},
        {"line": 2**31 - 1, "character": 2**31 - 1},
        {"line": 4, "character": 18},  # inside a character wider in UTF-8 than UTF-16
    ],
)
def test_positions_past_the_end(server: RawServer, position: dict[str, int]) -> None:
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        answer = server.call(method, {"textDocument": {"uri": URI}, "position": position})
        assert "error" not in answer, (method, answer)
    assert_serving(server)


def _change(version: int, text: str) -> dict:
    return {
        "textDocument": {"uri": URI, "version": version},
        "contentChanges": [{"text": text}],
    }


def test_a_stale_change_is_not_applied(server: RawServer) -> None:
    server.notify("textDocument/didChange", _change(5, TEXT + "#9 cast\n"))
    assert server.diagnostics(URI, version=5)
    server.notify("textDocument/didChange", _change(3, "garbage that must not win\n"))
    server.notify("textDocument/didChange", _change(6, TEXT))
    published = server.diagnostics(URI, version=6)
    assert sorted(d["code"] for d in published["diagnostics"]) == sorted(
        d.code for d in check_text(TEXT)
    )
    assert_serving(server)


def test_a_flood_of_edits_then_the_last_diagnostics_are_right(server: RawServer) -> None:
    rng = random.Random(11)
    text = TEXT
    server.notify("textDocument/didChange", _change(100, text))
    snippets = ["x", "\n", '"Bob" draw #7\n', "#2 resolve\n", "é", "😀", '"', "// n\n", "#"]
    for version in range(101, 1101):
        lines = split_lines(text)
        line = rng.randrange(len(lines))
        column = rng.randint(0, len(lines[line]))
        end_line = min(len(lines) - 1, line + rng.choice([0, 0, 1]))
        end_column = rng.randint(0, len(lines[end_line]))
        if (end_line, end_column) < (line, column):
            end_line, end_column = line, column
        new = rng.choice(snippets) if rng.random() < 0.7 else ""
        start = {"line": line, "character": utf16_character(lines[line], column)}
        end = {"line": end_line, "character": utf16_character(lines[end_line], end_column)}
        text = apply_change(
            text, (start["line"], start["character"]), (end["line"], end["character"]), new
        )
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": URI, "version": version},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": new}],
            },
        )
    published = server.diagnostics(URI, version=1100, timeout=120)
    lines = split_lines(text)
    want = sorted(
        (
            d.code,
            d.line,
            utf16_character(lines[d.line], d.span.start),
            utf16_character(lines[d.line], d.span.end),
        )
        for d in check_text(text)
    )
    got = sorted(
        (
            d["code"],
            d["range"]["start"]["line"],
            d["range"]["start"]["character"],
            d["range"]["end"]["character"],
        )
        for d in published["diagnostics"]
    )
    assert got == want
    server.notify("textDocument/didChange", _change(1101, TEXT))
    server.diagnostics(URI, version=1101)
    assert_serving(server)


def test_cancelled_requests(server: RawServer) -> None:
    ids = []
    for _ in range(20):
        msg_id = server.request(
            "textDocument/completion", {"textDocument": {"uri": URI}, "position": HOVER_AT}
        )
        server.notify("$/cancelRequest", {"id": msg_id})
        ids.append(msg_id)
    server.notify("$/cancelRequest", {"id": 987654})  # never sent
    for msg_id in ids:
        answer = server.response(msg_id)
        # answered anyway (it ran before the cancel arrived) or cancelled (-32800)
        assert "result" in answer or answer["error"]["code"] == -32800, answer
    assert_serving(server)


# ---- lifecycle: a server each ----------------------------------------------------------


def test_shutdown_then_exit_exits_zero() -> None:
    raw = RawServer()
    try:
        raw.initialize()
        raw.open(URI, TEXT)
        assert_serving(raw)
        assert raw.call("shutdown")["result"] is None
        raw.notify("exit")
        assert raw.wait(10) == 0
    finally:
        raw.close()


def test_exit_without_shutdown_exits_one() -> None:
    raw = RawServer()
    try:
        raw.initialize()
        raw.notify("exit")
        assert raw.wait(10) == 1
    finally:
        raw.close()


def test_a_client_that_disappears() -> None:
    raw = RawServer()
    try:
        raw.initialize()
        raw.open(URI, (ROOT / "examples" / "ragavan-dash.mtgr").read_text(encoding="utf-8"))
        raw.diagnostics(URI)
        assert raw.process.stdin is not None
        raw.process.stdin.close()
        started = time.monotonic()
        assert raw.wait(10) is not None, "the server outlived its client"
        assert time.monotonic() - started < 10
    finally:
        raw.close()


def test_a_client_process_that_dies_with_the_pipes_still_open() -> None:
    """LSP's processId: the server exits when the client process is gone, though the
    pipes (held here, as by a process the client shared them with) stay open."""
    client = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    raw = RawServer()
    try:
        raw.initialize(process_id=client.pid)
        raw.open(URI, TEXT)
        assert_serving(raw)
        client.kill()
        client.wait()
        assert raw.wait(15) == 1, "the server outlived its client's process"
    finally:
        client.kill()
        raw.close()


def _gone_process() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


@pytest.mark.parametrize(
    "client_pid",
    [
        pytest.param(os.getpid, id="a living client"),
        # a client in another container or machine sends a pid that means nothing here
        pytest.param(_gone_process, id="a pid this side cannot see"),
    ],
)
def test_the_server_stays_for(client_pid: Callable[[], int]) -> None:
    raw = RawServer()
    try:
        raw.initialize(process_id=client_pid())
        raw.open(URI, TEXT)
        time.sleep(2 * CHECK_EVERY_SECONDS + 1)
        assert raw.process.poll() is None
        assert_serving(raw)
    finally:
        raw.close()
