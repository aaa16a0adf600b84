"""`mtgr.rulesFile` names any path a setting can hold: the server reads only a regular
file within a size limit, off the event loop, so a FIFO, /dev/stdin, a device or a huge
file never blocks it (issue 18, item 6)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _rpc import RawServer

URI = "file:///tmp/rules-file.mtgr"
TEXT = 'mtgr 0.4\nplayer "Alice"\nperspective "Alice"\n"Alice" draw #1 "Opt" // CR 601.2a\n'
ON_NUMBER = {"line": 3, "character": TEXT.splitlines()[3].index("601.2a") + 2}
ON_CARD = {"line": 3, "character": TEXT.splitlines()[3].index("Opt")}
# made-up rules in the layout of the Comprehensive Rules file
RULES = "Contents\n100.1 General\n\n100.1. The first rule.\n\n601.2a A made-up rule text.\n"


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "rules.fifo"
    os.mkfifo(path)
    return str(path)


def _huge(tmp_path: Path) -> str:
    path = tmp_path / "huge.txt"
    with path.open("wb") as file:
        file.write(RULES.encode())
        file.truncate(2 * 1024**3)  # sparse: 2 GB that take no disk
    return str(path)


@pytest.fixture
def start() -> Iterator[Callable[[str], RawServer]]:
    servers: list[RawServer] = []

    def started(rules_file: str) -> RawServer:
        raw = RawServer()
        servers.append(raw)
        options = {"mtgr": {"rulesFile": rules_file}}
        params = {"processId": None, "rootUri": None, "capabilities": {}}
        assert "result" in raw.call("initialize", {**params, "initializationOptions": options})
        raw.notify("initialized", {})
        raw.open(URI, TEXT)
        return raw

    yield started
    for raw in servers:
        raw.close()


def hover(server: RawServer, position: dict[str, int]) -> dict:
    return server.call("textDocument/hover", {"textDocument": {"uri": URI}, "position": position})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize(
    "rules_file",
    [
        pytest.param(_fifo, id="a FIFO"),
        pytest.param(lambda _: "/dev/stdin", id="/dev/stdin"),
        pytest.param(lambda _: "/dev/zero", id="an endless device"),
        pytest.param(_huge, id="a 2 GB file"),
        pytest.param(lambda tmp_path: str(tmp_path), id="a directory"),
    ],
)
def test_a_rules_file_that_is_not_a_small_regular_file_is_not_read(
    start: Callable[[str], RawServer], tmp_path: Path, rules_file: Callable[[Path], str]
) -> None:
    server = start(rules_file(tmp_path))
    answer = hover(server, ON_NUMBER)
    assert "error" not in answer, answer
    assert answer["result"] is None or "CR 601.2a" not in str(answer["result"])
    assert hover(server, ON_CARD)["result"] is not None
    assert server.process.poll() is None


def test_a_regular_rules_file_is_read(start: Callable[[str], RawServer], tmp_path: Path) -> None:
    path = tmp_path / "rules.txt"
    path.write_text(RULES, encoding="utf-8")
    server = start(str(path))
    assert "CR 601.2a" in hover(server, ON_NUMBER)["result"]["contents"]["value"]
    path.write_text(RULES.replace("A made-up", "Another made-up"), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a changed file is read again
    assert "Another made-up" in hover(server, ON_NUMBER)["result"]["contents"]["value"]
