"""The perspective a record without a `perspective` line is checked as (decision 0080):
the settings file's `perspective`, overridden by `mtgr check --perspective`; a record's own
`perspective` line always wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgr import config
from mtgr.check import check_text
from mtgr.cli.main import EXIT_CLEAN, EXIT_USAGE, main
from mtgr.fixes import CheckedText
from mtgr.rules.walk import rewalk, walk
from mtgr.syntax.document import Document

HEADER = 'mtgr 0.4\nplayer "Alice" deck 60\nplayer "Bob" deck 60\n'
DRAWS = '"Alice" draw #1\n"Bob" draw #2\n'  # unnamed draws: V706 where the drawer's view is
UNDECLARED = HEADER + DRAWS  # Alice's draw is line 4, Bob's line 5 (from 1)
OWN = HEADER + 'perspective "Bob"\n' + DRAWS  # Alice's draw is line 5, Bob's line 6


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _v706(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[str, int]]:
    """The V706 findings of `mtgr check ARGS` as (file name, line from 1)."""
    code = main(["check", "--format", "json", *args])
    out, _ = capsys.readouterr()
    assert code == EXIT_CLEAN  # V706 is a warning
    return sorted((Path(r["path"]).name, r["line"]) for r in json.loads(out) if r["code"] == "V706")


def test_without_a_perspective_the_perspective_checks_stay_silent(capsys, tmp_path: Path) -> None:
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    assert _v706(capsys, str(record)) == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [('"Alice"', [4]), ('"Bob"', [5]), ('"all"', [4, 5]), ('"Carol"', [])],
)
def test_the_settings_file_perspective_is_assumed(
    capsys, tmp_path: Path, value: str, expected: list[int]
) -> None:
    _write(tmp_path / "mtgr.toml", f"perspective = {value}\n")
    record = _write(tmp_path / "games" / "game.mtgr", UNDECLARED)
    own = _write(tmp_path / "games" / "own.mtgr", OWN)
    assert _v706(capsys, str(record), str(own)) == sorted(
        [("game.mtgr", line) for line in expected] + [("own.mtgr", 6)]
    )


def test_pyproject_perspective(capsys, tmp_path: Path) -> None:
    _write(
        tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.mtgr]\nperspective = "Bob"\n'
    )
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    assert _v706(capsys, str(record)) == [("game.mtgr", 5)]


def test_the_command_line_overrides_the_settings_file(capsys, tmp_path: Path) -> None:
    _write(tmp_path / "mtgr.toml", 'perspective = "Alice"\n')
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    own = _write(tmp_path / "own.mtgr", OWN)
    assert _v706(capsys, "--perspective", "Bob", str(record), str(own)) == [
        ("game.mtgr", 5),
        ("own.mtgr", 6),
    ]
    assert _v706(capsys, "--perspective", "all", str(record), str(own)) == [
        ("game.mtgr", 4),
        ("game.mtgr", 5),
        ("own.mtgr", 6),
    ]


def test_the_command_line_perspective_without_a_settings_file(capsys, tmp_path: Path) -> None:
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    assert _v706(capsys, "--perspective", "Alice", str(record)) == [("game.mtgr", 4)]


def test_an_empty_command_line_perspective_is_a_usage_error(capsys, tmp_path: Path) -> None:
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    assert main(["check", "--perspective", " ", str(record)]) == EXIT_USAGE
    assert "--perspective" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["3", "true", '""', '["Alice"]', '{ name = "Alice" }'])
def test_a_perspective_that_is_no_name_is_a_warning_with_its_line(
    capsys, tmp_path: Path, value: str
) -> None:
    settings = _write(
        tmp_path / "pyproject.toml",
        f'[project]\nname = "x"\n\n[tool.mtgr]\nexclude = []\nperspective = {value}\n',
    )
    loaded = config.load(settings)
    assert loaded.perspective is None
    assert [(w.path, w.line) for w in loaded.warnings] == [(settings, 6)]
    record = _write(tmp_path / "game.mtgr", UNDECLARED)
    main(["check", str(record)])
    assert f"{settings}:6:" in capsys.readouterr().err


def test_the_settings_file_values() -> None:
    assert config.perspective("all") == ""
    assert config.perspective("Alice") == "Alice"


def test_check_text_and_the_fixes_check_take_the_assumed_perspective() -> None:
    """The entry point the command line checks with, and the check `--fix` works out its
    fixes on: the same findings."""
    assert [d.line for d in check_text(UNDECLARED) if d.code == "V706"] == []
    assert [d.line for d in check_text(UNDECLARED, perspective="Bob") if d.code == "V706"] == [4]
    assert [d.line for d in check_text(OWN, perspective="") if d.code == "V706"] == [5]
    fixed = CheckedText(UNDECLARED, perspective="Bob").diagnostics()
    assert [d.line for d in fixed if d.code == "V706"] == [4]


@pytest.mark.parametrize("at", [0, 3, 4])
def test_a_walk_again_after_an_edit_keeps_the_assumed_perspective(at: int) -> None:
    """The incremental walk resumes from the same assumed perspective, also from the top."""
    document = Document(UNDECLARED)
    result = walk(document.lines, perspective="Bob")
    first = document.edit((at, 0), (at, 0), "// a note\n")
    again = rewalk(result, document.lines, first)
    fresh = walk(document.lines, perspective="Bob")
    assert again.perspective == "Bob"
    assert [(f.code, f.line) for f in again.findings(document.lines)] == [
        (f.code, f.line) for f in fresh.findings(document.lines)
    ]
    assert [document.number_of(f.line) for f in fresh.findings(document.lines)] == [5]
