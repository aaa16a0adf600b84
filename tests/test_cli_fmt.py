"""`mtgr fmt`: atomic rewrites, refuses what is not UTF-8 text; `--check` writes nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mtgr.cli import main as cli

MESSY = 'mtgr 0.4\nplayer   "Alice"  deck 60\r\n  turn 1 "Alice"//first\r\n\r\n\r\n'
CLEAN = 'mtgr 0.4\nplayer "Alice" deck 60\nturn 1 "Alice" // first\n'


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_formats_a_file_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "game.mtgr", MESSY.encode())
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.read_bytes() == CLEAN.encode()
    assert f"reformatted {path}" in capsys.readouterr().out
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert capsys.readouterr().out == ""
    assert [p.name for p in tmp_path.iterdir()] == ["game.mtgr"]  # no temporary file left


def test_check_changes_nothing_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "game.mtgr", MESSY.encode())
    before = path.stat()
    assert cli.main(["fmt", "--check", str(path)]) == cli.EXIT_FOUND
    assert path.read_bytes() == MESSY.encode()
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    assert f"would reformat {path}" in capsys.readouterr().out
    clean = _write(tmp_path / "clean.mtgr", CLEAN.encode())
    assert cli.main(["fmt", "--check", str(clean)]) == cli.EXIT_CLEAN


def test_folders_are_searched_for_mtgr_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    inner = _write(tmp_path / "sub" / "a.mtgr", MESSY.encode())
    other = _write(tmp_path / "sub" / "notes.txt", MESSY.encode())
    assert cli.main(["fmt", str(tmp_path)]) == cli.EXIT_CLEAN
    assert inner.read_bytes() == CLEAN.encode()
    assert other.read_bytes() == MESSY.encode()


def test_binary_input_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b"mtgr 0.4\n\x00\x01\x02  keyframe  \n"
    path = _write(tmp_path / "bin.mtgr", data)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_USAGE
    assert path.read_bytes() == data
    assert "not a text file" in capsys.readouterr().err


def test_non_utf8_input_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = '#1 new card "Dandân"   hand "Alice"\n'.encode("latin-1")
    path = _write(tmp_path / "latin.mtgr", data)
    good = _write(tmp_path / "good.mtgr", MESSY.encode())
    assert cli.main(["fmt", str(path), str(good)]) == cli.EXIT_USAGE
    assert path.read_bytes() == data
    assert good.read_bytes() == CLEAN.encode()  # the other files are still formatted
    assert "not UTF-8 text" in capsys.readouterr().err


def test_markdown_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "page.md", b"# title\n\n```mtgr\n  keyframe\n```\n")
    assert cli.main(["fmt", str(path)]) == cli.EXIT_USAGE
    assert "Markdown" in capsys.readouterr().err


def test_a_failed_write_leaves_the_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "game.mtgr", MESSY.encode())

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_USAGE
    assert path.read_bytes() == MESSY.encode()
    assert [p.name for p in tmp_path.iterdir()] == ["game.mtgr"]
    assert "No space left on device" in capsys.readouterr().err


def test_permissions_and_byte_order_mark_are_kept(tmp_path: Path) -> None:
    path = _write(tmp_path / "game.mtgr", b"\xef\xbb\xbf" + MESSY.encode())
    path.chmod(0o640)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.read_bytes() == b"\xef\xbb\xbf" + CLEAN.encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_accented_names_and_unparsable_lines_survive(tmp_path: Path) -> None:
    text = '#1  new card "Jötun Grunt"  hand "Alice"\n  #2 frobnicate   \n'
    path = _write(tmp_path / "game.mtgr", text.encode())
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.read_text(encoding="utf-8") == (
        '#1 new card "Jötun Grunt" hand "Alice"\n  #2 frobnicate   \n'
    )


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fmt", str(tmp_path / "nope.mtgr")]) == cli.EXIT_USAGE
    assert "no such file" in capsys.readouterr().err
