"""The command line drives like ruff and taplo (issue 16 item 2): --version, `-` for standard
input, colour, a summary line, --quiet, --exit-zero, --statistics, SARIF, --fix and --diff,
folder scans with Markdown pages and excludes, bad files reported while the run goes on,
wide encodings named, quiet broken pipes, argparse errors that name the argument, shell
completion.

tests/data/sarif-schema-2.1.0.json is the official SARIF 2.1.0 schema (rtm.5, the OASIS
standard's) as shipped in the npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import jsonschema
import pytest

from mtgr.cli.main import EXIT_BROKEN_PIPE, EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE, main

ROOT = Path(__file__).resolve().parent.parent
HEADER = 'mtgr 0.4\nplayer "Alice" deck 60\nplayer "Bob" deck 60\nperspective "Alice"\n'
CLEAN = HEADER + '"Alice" draw #1 "Shock"\n"Alice" draw #2 "Opt"\n'
WRONG = CLEAN + "#1 cast\n#2 cast\n#1 resolve\n#5 move hand -> exlie\n"  # K301 9:4, S001 10:17
# N105: the name is known; N107: the implied player named. Both have safe fixes.
FIXABLE = (
    CLEAN + '#2 "Opt" cast\n#2 resolve\n#1 move hand -> graveyard "Alice" as discard by "Alice"\n'
)
FIXED = CLEAN + '#2 cast\n#2 resolve\n#1 move hand -> graveyard as discard by "Alice"\n'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def mtgr(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "NO_COLOR": "", "FORCE_COLOR": "", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mtgr", *args],
        input=stdin,
        capture_output=True,
        env=environment,
        timeout=60,
    )


def _codes(out: str) -> list[tuple[int, int, str]]:
    rows = json.loads(out)
    return [(row["line"], row["column"], row["code"]) for row in rows]


def test_version_is_the_installed_packages(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.split() == ["mtgr", metadata.version("mtgr")]


def test_standard_input_is_checked_under_its_given_name() -> None:
    done = mtgr(
        "check", "--format", "json", "--stdin-filename", "game.mtgr", "-", stdin=WRONG.encode()
    )
    assert done.returncode == EXIT_FOUND
    rows = json.loads(done.stdout)
    assert [(r["path"], r["line"], r["column"], r["code"]) for r in rows] == [
        ("game.mtgr", 9, 4, "K301"),
        ("game.mtgr", 10, 17, "S001"),
    ]
    page = "# A page\n\n```mtgr\n" + WRONG + "```\n"
    done = mtgr(
        "check", "--format", "json", "--stdin-filename", "page.md", "-", stdin=page.encode()
    )
    assert [(r["line"], r["code"]) for r in json.loads(done.stdout)] == [(12, "K301"), (13, "S001")]


def test_format_of_standard_input_goes_to_standard_output() -> None:
    done = mtgr("fmt", "-", stdin=b'  player   "Alice"  deck 60\r\n')
    assert done.returncode == EXIT_CLEAN
    assert done.stdout == b'player "Alice" deck 60\r\n'  # the text's line break stays
    assert mtgr("fmt", "--check", "-", stdin=b"  keyframe\n").returncode == EXIT_FOUND


@pytest.mark.parametrize(
    ("flag", "env", "coloured"),
    [
        ("always", {}, True),
        ("never", {"FORCE_COLOR": "1"}, False),
        ("auto", {}, False),  # not a terminal
        ("auto", {"FORCE_COLOR": "1"}, True),
        ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_colour(tmp_path: Path, flag: str, env: dict[str, str], coloured: bool) -> None:
    path = tmp_path / "wrong.mtgr"
    path.write_text(WRONG, encoding="utf-8")
    done = mtgr("check", "--color", flag, str(path), env=env)
    assert done.returncode == EXIT_FOUND
    assert (b"\x1b[" in done.stdout) is coloured


def test_summary_quiet_and_exit_zero(capsys, tmp_path: Path) -> None:
    path = tmp_path / "wrong.mtgr"
    path.write_text(WRONG, encoding="utf-8")
    code, out, err = run(capsys, "check", str(path))
    assert code == EXIT_FOUND and len(out.splitlines()) == 2
    assert err.strip() == "2 problems in 1 file (2 errors)"
    code, out, err = run(capsys, "check", "--quiet", "--exit-zero", str(path))
    assert code == EXIT_CLEAN and len(out.splitlines()) == 2 and err == ""


def test_statistics_count_each_code(capsys, tmp_path: Path) -> None:
    (tmp_path / "a.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "b.mtgr").write_text(WRONG + "#2 resolve\n#3 movee\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "--statistics", str(tmp_path))
    assert code == EXIT_FOUND
    assert [row.split()[:2] for row in out.splitlines()] == [
        ["3", "S001"],
        ["2", "K301"],
    ]


def test_sarif_is_valid_against_the_official_schema(capsys, tmp_path: Path) -> None:
    (tmp_path / "wrong.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "clean.mtgr").write_text(CLEAN, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--format", "sarif", str(tmp_path))
    assert code == EXIT_FOUND
    log = json.loads(out)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    found = [
        (
            rules[r["ruleIndex"]],
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in run_["results"]
    ]
    assert found == [("K301", "K301", "error", 9, 4), ("S001", "S001", "error", 10, 17)]
    uri = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == (tmp_path / "wrong.mtgr").as_uri()
    assert run_["results"][0]["relatedLocations"]  # K301 points at the casts


def test_fix_applies_the_safe_fixes(capsys, tmp_path: Path) -> None:
    path = tmp_path / "game.mtgr"
    path.write_bytes(FIXABLE.replace("\n", "\r\n").encode())
    code, out, err = run(capsys, "check", "--diff", str(path))
    assert code == EXIT_FOUND
    assert path.read_bytes() == FIXABLE.replace("\n", "\r\n").encode()  # --diff changes nothing
    assert '-#2 "Opt" cast\r\n' in out and "+#2 cast\r\n" in out
    code, out, err = run(capsys, "check", "--fix", str(path))
    assert code == EXIT_CLEAN and out == ""
    assert path.read_bytes() == FIXED.replace("\n", "\r\n").encode()  # line ends kept
    assert "2 fixes applied" in err
    assert run(capsys, "check", "--diff", str(path))[0] == EXIT_CLEAN


def test_fix_leaves_unsafe_fixes_and_turned_off_codes(capsys, tmp_path: Path) -> None:
    path = tmp_path / "game.mtgr"
    # D801's fix (a life line) is not safe: the damage may have had another result
    damage = '"Alice" draw #3 "Shock"\n#3 cast\n#3 target "Bob"\n#3 resolve\n#3 damage 2 -> "Bob"\n'
    path.write_text(FIXABLE + damage, encoding="utf-8")
    code, out, _ = run(
        capsys, "check", "--fix", "--severity", "N107=off", "--format", "json", str(path)
    )
    assert code == EXIT_FOUND  # D801 is an error, and still there
    assert [c for _, _, c in _codes(out)] == ["D801"]
    assert path.read_text(encoding="utf-8") == FIXABLE.replace('#2 "Opt" cast', "#2 cast") + damage


def test_fix_on_standard_input_prints_the_fixed_text() -> None:
    done = mtgr("check", "--fix", "-", stdin=FIXABLE.encode())
    assert done.stdout == FIXED.encode()
    assert done.returncode == EXIT_CLEAN


def test_fmt_diff_changes_nothing(capsys, tmp_path: Path) -> None:
    path = tmp_path / "game.mtgr"
    path.write_text("mtgr 0.4\n  keyframe   // x\n", encoding="utf-8")
    code, out, _ = run(capsys, "fmt", "--diff", str(path))
    assert code == EXIT_FOUND
    assert out.splitlines()[2:] == [
        "@@ -1,2 +1,2 @@",
        " mtgr 0.4",
        "-  keyframe   // x",
        "+keyframe // x",
    ]
    assert path.read_text(encoding="utf-8") == "mtgr 0.4\n  keyframe   // x\n"


def test_a_bad_file_is_reported_and_the_run_goes_on(capsys, tmp_path: Path) -> None:
    (tmp_path / "wrong.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "gone.mtgr").symlink_to(tmp_path / "nowhere.mtgr")
    (tmp_path / "latin.mtgr").write_bytes('"Alice" draw #1 "Dandân"\n'.encode("latin-1"))
    page = tmp_path / "notes.md"
    page.write_text("# Notes\n\n```mtgr\n" + WRONG + "```\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "--format", "json", str(tmp_path))
    assert code == EXIT_USAGE
    assert {Path(row["path"]).name for row in json.loads(out)} == {"wrong.mtgr", "notes.md"}
    assert "gone.mtgr" in err and "latin.mtgr" in err


def test_no_files_found_is_a_usage_error(capsys, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    (tmp_path / "page.md").write_text("# no records\n", encoding="utf-8")
    assert run(capsys, "check", str(tmp_path))[0] == EXIT_USAGE
    assert run(capsys, "fmt", str(tmp_path))[0] == EXIT_USAGE


def test_exclude_patterns(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "a.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "b.tmp.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "c.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "d.mtgr").write_text(WRONG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(
        capsys, "check", "--format", "json", "--exclude", "drafts/", "--exclude", "*.tmp.mtgr", "."
    )
    assert {row["path"] for row in json.loads(out)} == {"c.mtgr"}
    # a file named on the command line is checked even if a pattern matches it
    code, out, _ = run(capsys, "check", "--format", "json", "--exclude", "drafts/", "drafts/a.mtgr")
    assert code == EXIT_FOUND
    assert {row["path"] for row in json.loads(out)} == {"drafts/a.mtgr"}


@pytest.mark.parametrize(
    ("encoding", "bom", "named"),
    [
        ("utf-16-le", b"\xff\xfe", "UTF-16"),
        ("utf-16-be", b"\xfe\xff", "UTF-16"),
        ("utf-16-le", b"", "UTF-16LE"),
        ("utf-16-be", b"", "UTF-16BE"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32"),
        ("utf-32-be", b"", "UTF-32BE"),
    ],
)
def test_wide_encodings_are_named_with_how_to_convert(
    capsys, tmp_path: Path, encoding: str, bom: bytes, named: str
) -> None:
    path = tmp_path / "wide.mtgr"
    path.write_bytes(bom + CLEAN.encode(encoding))
    code, _, err = run(capsys, "check", str(path))
    assert code == EXIT_USAGE
    assert f"iconv -f {named} -t UTF-8" in err


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipeline")
def test_a_broken_pipe_ends_quietly() -> None:
    done = subprocess.run(
        f"{sys.executable} -m mtgr rules | head -2", shell=True, capture_output=True, timeout=60
    )
    assert len(done.stdout.splitlines()) == 2
    assert done.stderr == b""
    # more than a pipe holds (docs/diagnostics.md is 70 KB+), to a reader that is gone
    assert (ROOT / "docs" / "diagnostics.md").stat().st_size > 65536
    process = subprocess.Popen(
        [sys.executable, "-m", "mtgr", "rules", "--markdown"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    assert process.stderr.read() == b""
    assert process.wait(timeout=60) == EXIT_BROKEN_PIPE


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--frobnicate"], "--frobnicate"),
        (["check", "--frobnicate", "x"], "--frobnicate"),
        (["check", "--format", "xml", "x"], "--format"),
        ([], "command"),
    ],
)
def test_argument_errors_name_the_argument(capsys, args: list[str], named: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == EXIT_USAGE
    assert named in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_shell_completion(capsys, shell: str) -> None:
    code, out, _ = run(capsys, "completion", shell)
    assert code == EXIT_CLEAN
    for word in ("check", "fmt", "--stdin-filename", "--statistics"):
        assert word in out
    if shell == "bash" and sys.platform != "win32":
        assert subprocess.run(["bash", "-n"], input=out.encode(), check=False).returncode == 0


def test_fix_in_a_markdown_page_changes_only_its_mtgr_blocks(capsys, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    prose = '# A game\n\nThe "Opt" was cast:\n\n```mtgr\n'
    page.write_text(prose + FIXABLE + "```\n\nThe end.\n", encoding="utf-8")
    code, _, _ = run(capsys, "check", "--fix", str(page))
    assert code == EXIT_CLEAN
    assert page.read_text(encoding="utf-8") == prose + FIXED + "```\n\nThe end.\n"
    # a fix that would remove a line (an identify that says nothing new) is left alone
    removing = prose + CLEAN + '#2 identify "Opt" by #2\n```\n'
    page.write_text(removing, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--fix", "--format", "json", str(page))
    assert page.read_text(encoding="utf-8") == removing
    assert [c for _, _, c in _codes(out)] == ["N105"]
