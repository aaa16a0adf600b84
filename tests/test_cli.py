"""The command line: check (text, json, github), explain, rules, state, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgr.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
CLEAN = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" draw #1 "Shock"
"Alice" draw #2 "Opt"
"""
WRONG = CLEAN + "#1 cast\n#2 cast\n#1 resolve\n#5 move hand -> exlie\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def records(tmp_path: Path) -> Path:
    (tmp_path / "clean.mtgr").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "wrong.mtgr").write_text(WRONG, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    page = "# A page\n\nSome text.\n\n```mtgr\n" + WRONG + "```\n\n```python\nx = 1\n```\n"
    (tmp_path / "page.md").write_text(page, encoding="utf-8")
    return tmp_path


def test_clean_file_exits_zero(capsys, records: Path) -> None:
    code, out, _ = run(capsys, "check", str(records / "clean.mtgr"))
    assert code == 0 and out == ""


def test_text_output_and_exit_one(capsys, records: Path) -> None:
    code, out, err = run(capsys, "check", str(records / "sub" / "wrong.mtgr"))
    assert code == 1
    rows = out.splitlines()
    assert rows[0].startswith(f"{records / 'sub' / 'wrong.mtgr'}:9:4: error K301 ")
    assert rows[1].startswith(f"{records / 'sub' / 'wrong.mtgr'}:10:17: error S001 ")
    assert "2 problems in 1 file" in err


def test_folders_are_searched_for_records_and_markdown_pages(capsys, records: Path) -> None:
    (records / "plain.md").write_text("# no record here\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(records))
    assert code == 1
    names = {Path(row.split(":")[0]).name for row in out.splitlines()}
    assert names == {"wrong.mtgr", "page.md"}
    assert "in 3 files" in err  # clean.mtgr, page.md, wrong.mtgr: not plain.md


def test_markdown_blocks_keep_the_pages_line_numbers(capsys, records: Path) -> None:
    code, out, _ = run(capsys, "check", "--format", "json", str(records / "page.md"))
    found = json.loads(out)
    assert code == 1
    assert [(d["line"], d["column"], d["code"]) for d in found] == [
        (14, 4, "K301"),
        (15, 17, "S001"),
    ]


def test_json_output_has_related_locations(capsys, records: Path) -> None:
    _, out, _ = run(capsys, "check", "--format", "json", str(records / "sub" / "wrong.mtgr"))
    k301 = json.loads(out)[0]
    assert k301["code"] == "K301" and k301["severity"] == "error"
    assert {r["line"] for r in k301["related"]} == {6, 8}


def test_github_annotations(capsys, records: Path) -> None:
    _, out, _ = run(capsys, "check", "--format", "github", str(records / "sub" / "wrong.mtgr"))
    first = out.splitlines()[0]
    assert first.startswith(f"::error file={records / 'sub' / 'wrong.mtgr'},line=9,col=4,")
    assert "title=K301::" in first


def test_severity_override_and_off(capsys, records: Path) -> None:
    path = str(records / "sub" / "wrong.mtgr")
    code, out, _ = run(
        capsys, "check", "--severity", "K301=warning", "--severity", "S001=off", path
    )
    assert code == 0
    assert out.count("\n") == 1 and "warning K301" in out


@pytest.mark.parametrize(
    "args",
    [
        ["check", "/no/such/file.mtgr"],
        ["check", "--severity", "ZZ999=error", "x"],
        ["check", "--severity", "K301=loud", "x"],
        ["explain", "Q999"],
        ["state", "file-without-line"],
    ],
)
def test_bad_usage_exits_two(capsys, args: list[str], records: Path) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("mtgr: ")


def test_binary_input_is_refused(capsys, tmp_path: Path) -> None:
    (tmp_path / "b.mtgr").write_bytes(b"\x00\x01\x02")
    code, _, err = run(capsys, "check", str(tmp_path / "b.mtgr"))
    assert code == 2 and "not a text file" in err
    (tmp_path / "c.mtgr").write_bytes(b"caf\xe9")
    code, _, err = run(capsys, "check", str(tmp_path / "c.mtgr"))
    assert code == 2 and "not UTF-8" in err


def test_explain_prints_every_part(capsys) -> None:
    code, out, _ = run(capsys, "explain", "k301")
    assert code == 0
    for heading in ("What it flags", "Why", "Example", "Use instead", "Rules basis"):
        assert heading in out
    assert "0019.1" in out and "608.1" in out


def test_diagnostics_doc_is_in_sync_with_the_registry(capsys) -> None:
    _, out, _ = run(capsys, "rules", "--markdown")
    assert (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8") == out, (
        "regenerate: mtgr rules --markdown > docs/diagnostics.md"
    )


def test_state_prints_tables(capsys, records: Path) -> None:
    code, out, _ = run(capsys, "state", f"{records / 'sub' / 'wrong.mtgr'}:8")
    assert code == 0
    assert "Stack (top first):\n  #2 (Opt)\n  #1 (Shock)" in out
    assert "Alice: life 20, hand 0, library 58" in out


def test_state_line_past_the_end(capsys, records: Path) -> None:
    code, _, err = run(capsys, "state", f"{records / 'clean.mtgr'}:99")
    assert code == 2 and "past its end" in err


def test_allow_silences_a_checker_code_but_never_a_syntax_error() -> None:
    from mtgr.check import check_text

    text = CLEAN + "#9 tap by #1   // allow O201\n#1 movee hand -> exile   // allow S001\n"
    assert [(d.line, d.code) for d in check_text(text)] == [(7, "S001")]


def test_state_shows_commander_damage_and_players_who_left(capsys) -> None:
    path = ROOT / "examples" / "commander-four-players.mtgr"
    lines = path.read_text(encoding="utf-8").splitlines()
    loss = lines.index(
        '"Carol" lose by sba // 21 combat damage from one commander (CR 903.10a, 704.6c)'
    )
    code, out, _ = run(capsys, "state", f"{path}:{loss}")
    assert code == 0
    assert "Carol: life 19, 21 commander damage from #3," in out
    code, out, _ = run(capsys, "state", f"{path}:{loss + 1}")
    assert "Carol: life 19, 21 commander damage from #3, hand 0" in out and "(lost)" in out


def test_state_shows_a_class_level(capsys) -> None:
    path = (
        ROOT / "tests" / "cases" / "valid" / "o236-ranger-class-gains-its-levels-one-at-a-time.mtgr"
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    code, out, _ = run(capsys, "state", f"{path}:{lines.index('#1 level 2 by #14') + 1}")
    assert code == 0
    assert "#1 (Ranger Class), level 2" in out and "#8 (Ranger Class), level 3" in out
    before = lines.index("#1 level 2 by #14")  # the line before it: level 1, shown as no level
    code, out, _ = run(capsys, "state", f"{path}:{before}")
    assert "#1 (Ranger Class), level" not in out
