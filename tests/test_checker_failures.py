"""A bug in a rule (a check or a state change that raises) leaves its line unchecked, never
the record: every other line is still checked, the failure is reported with its line, and
an incremental check reports exactly what a full check does."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from lsprotocol import types

from mtgr.check import check_record, failures
from mtgr.cli.main import main
from mtgr.rules import walk as walk_module
from mtgr.rules.walk import rewalk, state_before, walk
from mtgr.server.features import documents
from mtgr.server.session import OpenDocument
from mtgr.syntax import tree as t
from mtgr.syntax.document import Document

HAND = "".join(f'"Alice" draw #{n} "Island"\n' for n in range(2, 8))
RECORD = (
    'mtgr 0.4\ntitle "t"\nrules 2026-09-25\nplayer "Alice" deck 60\nplayer "Bob" deck 60\n'
    'perspective "Alice"\nstart "Alice" by "Alice"\n"Alice" draw #1 "Forest"\n'
    + HAND
    + "".join(f'"Bob" draw #{n}\n' for n in range(8, 15))
    + '"Alice" keep\n"Bob" keep\nturn 1 "Alice"\nphase main\n'
    + '#1 play\n#1 tap by "Alice"\n#99 tap by "Alice"\n#98 play\n'
)
FOREST_PLAYED = 25  # the line index of `#1 play`
UNKNOWN_NAMED = 27  # `#99 tap`: O201, found whatever failed above it
UNKNOWN_PLAYED = 28  # `#98 play`: O201 too

# A server whose state change raises on `#1 play` (a bug planted for the end-to-end test).
FAULTY_SERVER = """
import sys
from mtgr.rules import walk
real = walk.apply
def apply(state, statement, line):
    if type(statement).__name__ == "Play":
        raise KeyError("planted")
    return real(state, statement, line)
walk.apply = apply
from mtgr.cli.main import main
sys.exit(main(["lsp"]))
"""


@pytest.fixture
def play_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    real = walk_module.apply

    def apply(state, statement, line):
        if isinstance(statement, t.Play):
            raise KeyError("planted")
        return real(state, statement, line)

    monkeypatch.setattr(walk_module, "apply", apply)


@pytest.fixture
def check_raises_on_tap(monkeypatch: pytest.MonkeyPatch) -> None:
    real = walk_module.checks_for

    def raising(_context, statement) -> None:
        raise ZeroDivisionError("planted")

    def checks_for(key, with_cards):
        found = real(key, with_cards)
        return (raising, *found) if key[0] is t.TapChange else found

    monkeypatch.setattr(walk_module, "check_table", lambda with_cards: {})
    monkeypatch.setattr(walk_module, "checks_for", checks_for)


def test_a_state_change_that_raises_leaves_its_line_unchecked_and_the_rest_checked(
    play_raises: None,
) -> None:
    found, failed = check_record(RECORD)
    assert [where for where, _what in failed] == ["line 26", "line 29"]
    assert "KeyError" in failed[0][1]
    # the walk went on from the state before the failing line: #1 stayed in the hand
    assert {(d.code, d.line) for d in found} >= {("O201", UNKNOWN_NAMED), ("O201", UNKNOWN_PLAYED)}
    document = Document(RECORD)
    result = walk(document.lines)
    assert 1 in state_before(result, document.lines, len(document.lines)).objects


def test_a_check_that_raises_stops_only_that_lines_checks(check_raises_on_tap: None) -> None:
    found, failed = check_record(RECORD)
    assert [where for where, _what in failed] == ["line 27", "line 28"]
    # the failing check stopped the checks after it on its line, not on the next line
    assert {(d.code, d.line) for d in found} == {("O201", UNKNOWN_PLAYED)}


def test_an_incremental_check_reports_the_failures_a_full_check_does(play_raises: None) -> None:
    document = Document(RECORD)
    result = walk(document.lines)
    assert failures(document, result)
    # the failing line edited into one that does not fail: its failure goes
    first = document.edit((FOREST_PLAYED, 0), (FOREST_PLAYED, len("#1 play")), "// no play")
    result = rewalk(result, document.lines, first)
    assert failures(document, result) == failures(document, walk(document.lines))
    assert [where for where, _what in failures(document, result)] == ["line 29"]
    # and back: it comes again, as a full check finds it
    first = document.edit((FOREST_PLAYED, 0), (FOREST_PLAYED, len("// no play")), "#1 play")
    result = rewalk(result, document.lines, first)
    assert failures(document, result) == failures(document, walk(document.lines))
    assert result.findings(document.lines) == walk(document.lines).findings(document.lines)


def test_an_end_check_that_raises_is_reported_and_the_others_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = walk_module.end_checks()

    def raising(_context) -> None:
        raise RuntimeError("planted")

    monkeypatch.setattr(walk_module, "end_checks", lambda: [(None, raising), *real])
    document = Document(RECORD)
    assert failures(document, walk(document.lines)) == [
        ("the end checks", failures(document, walk(document.lines))[0][1])
    ]
    assert "RuntimeError: planted" in failures(document, walk(document.lines))[0][1]


def test_the_command_line_reports_the_failure_and_still_prints_the_diagnostics(
    play_raises: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.mtgr"
    record.write_text(RECORD, encoding="utf-8")
    assert main(["check", str(record)]) == 2
    out, err = capsys.readouterr()
    assert f"internal error at line {FOREST_PLAYED + 1} (KeyError" in err
    assert "O201" in out


def test_the_server_shows_the_failure_and_goes_on_serving() -> None:
    sys.path.insert(0, str(Path(__file__).parent / "reliability"))
    from _rpc import RawServer

    server = RawServer(command=[sys.executable, "-c", FAULTY_SERVER])
    try:
        server.initialize()
        server.open("file:///tmp/faulty.mtgr", RECORD)
        found = server.diagnostics("file:///tmp/faulty.mtgr", version=1)
        assert ("O201", UNKNOWN_NAMED) in {
            (d["code"], d["range"]["start"]["line"]) for d in found["diagnostics"]
        }
        shown = [m for m in server.seen if m.get("method") == "window/showMessage"]
        logged = [m for m in server.seen if m.get("method") == "window/logMessage"]
        assert any(f"line {FOREST_PLAYED + 1} unchecked" in m["params"]["message"] for m in shown)
        assert any("KeyError" in m["params"]["message"] for m in logged)
        answer = server.call(
            "textDocument/hover",
            {
                "textDocument": {"uri": "file:///tmp/faulty.mtgr"},
                "position": {"line": FOREST_PLAYED, "character": 1},
            },
        )
        assert "error" not in answer
    finally:
        server.close()


def test_a_record_without_faults_reports_none() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mtgr", "check", "-"],
        input=RECORD,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "internal error" not in result.stderr
    assert result.returncode == 1  # the two O201
    assert result.stdout.count("O201") == 2


def test_a_check_that_raises_in_the_server_is_said_once_and_the_next_change_checks_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    document = OpenDocument("file:///tmp/crash.mtgr", RECORD, 1, types.PositionEncodingKind.Utf16)
    shown: list[str] = []
    logged: list[str] = []
    published: list[int | None] = []
    server = SimpleNamespace(
        session=SimpleNamespace(get=lambda uri: document),
        collector=SimpleNamespace(worked=lambda: None),
        window_show_message=lambda params: shown.append(params.message),
        window_log_message=lambda params: logged.append(params.message),
    )
    monkeypatch.setattr(documents, "publish", lambda _s, d, walk=None: published.append(d.version))
    real = OpenDocument.walk_in_steps

    def crash(self, first_step: int, lines_per_step: int):
        raise MemoryError("planted")

    end = types.Position(line=FOREST_PLAYED, character=len("#1 play"))
    for version in (2, 3):
        change = types.Range(start=types.Position(line=FOREST_PLAYED, character=0), end=end)
        document.apply(
            [types.TextDocumentContentChangePartial(range=change, text="#1 play")], version
        )
        monkeypatch.setattr(OpenDocument, "walk_in_steps", crash)
        asyncio.run(documents._check(server, document))  # type: ignore[arg-type]
    assert published == []
    assert len(shown) == 1 and "crash.mtgr" in shown[0]
    assert len(logged) == 2 and all("MemoryError: planted" in message for message in logged)
    monkeypatch.setattr(OpenDocument, "walk_in_steps", real)
    asyncio.run(documents._check(server, document))  # type: ignore[arg-type]
    assert published == [3]
