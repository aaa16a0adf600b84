"""`mtgr fmt` never loses a user's file (issue 18 items 8 and 9): it keeps owner, group and
mode, leaves read-only files alone, keeps hard links together, sees another program's
writes and leaves the file to them, and a write that fails (a file size limit, a full
disk) leaves the file as it was. File names that are not UTF-8 are reported, not fatal.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgr.cli import main as cli

MESSY = 'mtgr 0.4\r\nplayer   "Alice"  deck 60\r\n  turn 1 "Alice"//first\r\n'
CLEAN = 'mtgr 0.4\r\nplayer "Alice" deck 60\r\nturn 1 "Alice" // first\r\n'
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="POSIX owners, modes, links and file size limits"
)


def _record(folder: Path, text: str = MESSY, name: str = "game.mtgr") -> Path:
    path = folder / name
    path.write_bytes(text.encode())
    return path


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_owner_and_group_are_kept(tmp_path: Path) -> None:
    path = _record(tmp_path)
    os.chown(path, 12345, 23456)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.read_bytes() == CLEAN.encode()
    assert (path.stat().st_uid, path.stat().st_gid) == (12345, 23456)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755, 0o666])
def test_mode_is_kept(tmp_path: Path, mode: int) -> None:
    path = _record(tmp_path)
    path.chmod(mode)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.read_bytes() == CLEAN.encode()
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_read_only_file_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path)
    other = _record(tmp_path, name="other.mtgr")
    path.chmod(0o444)
    assert cli.main(["fmt", str(path), str(other)]) == cli.EXIT_USAGE
    assert path.read_bytes() == MESSY.encode()
    assert other.read_bytes() == CLEAN.encode()  # the run went on
    assert str(path) in capsys.readouterr().err
    assert cli.main(["fmt", "--check", str(path)]) == cli.EXIT_FOUND  # checking needs no write


def test_hard_links_stay_one_file(tmp_path: Path) -> None:
    path = _record(tmp_path)
    link = tmp_path / "link.mtgr"
    os.link(path, link)
    inode = path.stat().st_ino
    assert cli.main(["fmt", str(path)]) == cli.EXIT_CLEAN
    assert path.stat().st_ino == link.stat().st_ino == inode
    assert link.read_bytes() == CLEAN.encode()
    assert _entries(tmp_path) == ["game.mtgr", "link.mtgr"]


def test_a_symbolic_link_stays_a_link(tmp_path: Path) -> None:
    path = _record(tmp_path)
    link = tmp_path / "link.mtgr"
    link.symlink_to(path)
    assert cli.main(["fmt", str(link)]) == cli.EXIT_CLEAN
    assert link.is_symlink()
    assert path.read_bytes() == CLEAN.encode()


@pytest.mark.parametrize("links", [1, 2])
def test_a_file_another_program_writes_meanwhile_is_left_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, links: int
) -> None:
    path = _record(tmp_path)
    if links == 2:
        os.link(path, tmp_path / "link.mtgr")
    real_format = cli.format_text
    appended = "keyframe // written by another program\n"

    def format_while_another_writes(text: str) -> str:
        subprocess.run(
            [sys.executable, "-c", f"open({str(path)!r}, 'a').write({appended!r})"], check=True
        )
        return real_format(text)

    monkeypatch.setattr(cli, "format_text", format_while_another_writes)
    assert cli.main(["fmt", str(path)]) == cli.EXIT_USAGE
    assert path.read_bytes() == (MESSY + appended).encode()
    assert ".tmp" not in "".join(_entries(tmp_path))


def _fmt_with_size_limit(path: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """`mtgr fmt` in a process whose files may not grow past `limit` bytes (ulimit -f)."""
    program = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "from mtgr.cli.main import main\n"
        f"sys.exit(main(['fmt', {str(path)!r}]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("links", [1, 2])
def test_a_write_past_the_file_size_limit_leaves_the_file_whole(tmp_path: Path, links: int) -> None:
    messy = MESSY + '  "Alice"   draw  #1  "Shock"\n' * 400
    path = _record(tmp_path, messy)
    if links == 2:
        os.link(path, tmp_path / "link.mtgr")
    done = _fmt_with_size_limit(path, 512)
    assert done.returncode == cli.EXIT_USAGE, done.stderr
    assert "Traceback" not in done.stderr
    assert path.read_bytes() == messy.encode()
    assert ".tmp" not in "".join(_entries(tmp_path))


@contextlib.contextmanager
def _small_disk(folder: Path) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("a full disk needs a tmpfs mount, which needs root and CAP_SYS_ADMIN")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.skipif(not ROOT, reason="mounting a small disk needs root")
@pytest.mark.parametrize("links", [1, 2])
def test_a_full_disk_leaves_the_file_whole(tmp_path: Path, links: int) -> None:
    messy = MESSY + '  "Alice"   draw  #1  "Shock"\n' * 400
    with _small_disk(tmp_path / "disk") as disk:
        path = _record(disk, messy)
        if links == 2:
            os.link(path, disk / "link.mtgr")
        with contextlib.suppress(OSError), (disk / "filler").open("wb") as filler:
            while True:
                filler.write(b"x" * 1024)
                filler.flush()
        assert cli.main(["fmt", str(path)]) == cli.EXIT_USAGE
        assert path.read_bytes() == messy.encode()
        assert ".tmp" not in "".join(_entries(disk))


def test_file_names_that_are_not_utf8_are_printed_and_the_run_goes_on(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"bad\xff-name.mtgr"), "wb") as out:
        out.write(MESSY.encode())
    with open(os.path.join(folder, b"latin\xe9.mtgr"), "wb") as out:
        out.write('"Alice" draw #1 "Dand\xe2n"\n'.encode("latin-1"))
    _record(tmp_path, CLEAN + "#1 tap\n", name="wrong.mtgr")
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "NO_COLOR": "1"}
    for command in (["check"], ["fmt", "--check"], ["fmt"]):
        done = subprocess.run(
            [sys.executable, "-m", "mtgr", *command, str(tmp_path)],
            capture_output=True,
            env=environment,
            timeout=60,
        )
        assert b"Traceback" not in done.stderr, done.stderr
        assert done.returncode == cli.EXIT_USAGE  # the Latin-1 file is unreadable
        output = done.stdout + done.stderr
        assert b"bad\\xff-name.mtgr" in output and b"latin\\xe9.mtgr" in output
    assert (
        b"wrong.mtgr"
        in subprocess.run(
            [sys.executable, "-m", "mtgr", "check", str(tmp_path)],
            capture_output=True,
            env=environment,
            timeout=60,
        ).stdout
    )
