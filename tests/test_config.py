"""The project settings file (issue 16 item 3): `[tool.mtgr]` in pyproject.toml or
`mtgr.toml`, the nearest found walking up from the file; severities and excludes for the
command line; unknown keys, codes and levels are warnings with the file and line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mtgr import config
from mtgr.cli.main import EXIT_CLEAN, EXIT_FOUND, main
from mtgr.rules.registry import Severity, all_rules

RECORD = 'mtgr 0.4\nplayer "Alice" deck 60\nperspective "Alice"\n"Alice" draw #1 "Shock"\n'
WRONG = RECORD + '"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'  # one K301, an error


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _check(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[tuple[str, str]], str]:
    code = main(["check", "--format", "json", *args])
    out, err = capsys.readouterr()
    return (
        code,
        [(Path(r["path"]).name, r["severity"] + " " + r["code"]) for r in json.loads(out)],
        err,
    )


def test_a_pyproject_severity_override_applies_below_it(capsys, tmp_path: Path) -> None:
    _write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.mtgr.severity]\nK301 = "warning"\n',
    )
    record = _write(tmp_path / "games" / "deep" / "game.mtgr", WRONG)
    code, found, _ = _check(capsys, str(record))
    assert (code, found) == (EXIT_CLEAN, [("game.mtgr", "warning K301")])
    # the command line overrides the file
    code, found, _ = _check(capsys, "--severity", "K301=error", str(record))
    assert (code, found) == (EXIT_FOUND, [("game.mtgr", "error K301")])


def test_the_nearest_file_wins_and_mtgr_toml_before_pyproject(capsys, tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", '[tool.mtgr]\nseverity = { K301 = "warning" }\n')
    _write(tmp_path / "sub" / "mtgr.toml", '[severity]\nK301 = "off"\n')
    _write(tmp_path / "sub" / "pyproject.toml", '[tool.mtgr.severity]\nK301 = "hint"\n')
    _write(tmp_path / "other" / "pyproject.toml", '[project]\nname = "no mtgr table"\n')
    top = _write(tmp_path / "top.mtgr", WRONG)
    sub = _write(tmp_path / "sub" / "sub.mtgr", WRONG)
    other = _write(tmp_path / "other" / "other.mtgr", WRONG)
    _, found, _ = _check(capsys, str(top), str(sub), str(other))
    assert found == [("top.mtgr", "warning K301"), ("other.mtgr", "warning K301")]
    assert config.find(sub) == tmp_path / "sub" / "mtgr.toml"
    assert config.find(other) == tmp_path / "pyproject.toml"


def test_exclude_patterns_are_relative_to_the_file(capsys, tmp_path: Path) -> None:
    _write(tmp_path / "mtgr.toml", 'exclude = ["drafts/", "/scratch.mtgr"]\n')
    _write(tmp_path / "drafts" / "a.mtgr", WRONG)
    _write(tmp_path / "scratch.mtgr", WRONG)
    _write(tmp_path / "keep" / "scratch.mtgr", WRONG)
    _write(tmp_path / "game.mtgr", WRONG)
    _, found, _ = _check(capsys, str(tmp_path))
    assert sorted(found) == [("game.mtgr", "error K301"), ("scratch.mtgr", "error K301")]
    _, found, _ = _check(capsys, str(tmp_path / "keep"))
    assert found == [("scratch.mtgr", "error K301")]  # only /scratch.mtgr at the top is left out


def test_unknown_keys_codes_and_levels_are_warnings_with_their_line(capsys, tmp_path: Path) -> None:
    settings = _write(
        tmp_path / "pyproject.toml",
        "[project]\n"
        'name = "x"\n'
        "\n"
        "[tool.mtgr]\n"
        'exclude = ["drafts/"]\n'
        "colour = true\n"
        'severity = { W203 = "off", K301 = "warning" }\n'
        "\n"
        "[tool.mtgr.other]\n"
        "x = 1\n",
    )
    loaded = config.load(settings)
    assert loaded.severity == {"K301": Severity.WARNING}
    assert loaded.exclude == ("drafts/",)
    assert sorted((w.line, w.path) for w in loaded.warnings) == [
        (6, settings),
        (7, settings),
        (9, settings),
    ]
    table = _write(
        tmp_path / "sub" / "mtgr.toml",
        'rules-file = "cr.txt"\n\n[severity]\nK301 = "warning"\nR101 = "off"\nN105 = "loud"\n',
    )
    loaded = config.load(table)
    assert loaded.rules_file == tmp_path / "sub" / "cr.txt"
    assert sorted(w.line for w in loaded.warnings) == [5, 6]
    # the command line shows them once, with file and line, and checks on
    _write(tmp_path / "sub" / "a.mtgr", WRONG)
    _write(tmp_path / "sub" / "b.mtgr", WRONG)
    code, found, err = _check(capsys, str(tmp_path / "sub"))
    assert code == EXIT_CLEAN and len(found) == 2
    assert err.count(f"{table}:5:") == 1 and err.count(f"{table}:6:") == 1


def test_toml_that_does_not_parse_is_a_warning_with_its_line(capsys, tmp_path: Path) -> None:
    settings = _write(tmp_path / "mtgr.toml", '[severity]\nK301 = "warning"\nK302 = \n')
    loaded = config.load(settings)
    assert loaded.severity == {}
    assert [w.line for w in loaded.warnings] == [3]
    record = _write(tmp_path / "game.mtgr", WRONG)
    code, found, err = _check(capsys, str(record))
    assert (code, found) == (EXIT_FOUND, [("game.mtgr", "error K301")])
    assert f"{settings}:3:" in err


def test_no_settings_file(tmp_path: Path) -> None:
    record = _write(tmp_path / "game.mtgr", WRONG)
    found = config.find(record)
    assert found is None or tmp_path not in found.parents  # only a file above tmp_path


DOCUMENTED = (
    "README.md",
    "vscode-extension/package.json",
    "vscode-extension/README.md",
    "syntaxes/README.md",
    "editors/nvim/README.md",
)


@pytest.mark.parametrize("name", DOCUMENTED)
def test_documentation_names_only_codes_that_exist(name: str) -> None:
    text = (Path(__file__).resolve().parents[1] / name).read_text(encoding="utf-8")
    named = set(re.findall(r"\b[A-Z][0-9]{3}\b", text))
    assert named - set(all_rules()) == set()


def test_standard_input_uses_the_settings_file_of_its_given_name(tmp_path: Path) -> None:
    _write(tmp_path / "sub" / "mtgr.toml", '[severity]\nK301 = "off"\n')
    done = subprocess.run(
        [sys.executable, "-m", "mtgr", "check", "--stdin-filename", "sub/game.mtgr", "-"],
        input=WRONG.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (EXIT_CLEAN, b"")
    done = subprocess.run(
        [sys.executable, "-m", "mtgr", "check", "-"],
        input=WRONG.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == EXIT_FOUND


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_settings_file_that_is_a_fifo_or_huge_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "mtgr.toml"
    os.mkfifo(fifo)
    assert config.find(tmp_path / "game.mtgr") != fifo  # not a regular file: passed over
    assert [w.line for w in config.load(fifo).warnings] == [1]  # and never opened
    huge = _write(tmp_path / "sub" / "mtgr.toml", "# padding\n" * (config.MAX_BYTES // 10 + 1))
    assert config.load(huge).severity == {} and len(config.load(huge).warnings) == 1
