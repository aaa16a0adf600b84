"""The user's files: found, read and rewritten so that nothing is lost or half written.

`mtgr fmt` rewrites a file the way careful formatters do (black, ruff, gofmt): the new
text goes to a temporary file beside it that takes the old file's owner, group and mode,
and replaces it only if the file is still what was read; a read-only file is left alone;
a file with other hard links (or whose owner a replacement could not keep) is written in
place, so that every name still shows the same file.

What no check can see: a program that keeps the file open and writes to it after the
replacement writes to the old file, which no name shows any more. Record live into a file
that nothing formats until the recording ends.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32", "UTF-32"),
    (b"\xff\xfe", "UTF-16", "UTF-16"),
    (b"\xfe\xff", "UTF-16", "UTF-16"),
)
_SAMPLE = 4096


class FileProblem(Exception):
    """A file that cannot be read or written: it is reported and the run goes on."""


def shown(path: Path | str) -> str:
    """A path as it can be printed on any terminal: bytes that are not UTF-8 as \\xNN."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A file's bytes and its status as they were read, to see later whether it changed."""

    data: bytes
    status: os.stat_result


def snapshot(path: Path) -> Snapshot:
    with path.open("rb") as handle:
        status = os.fstat(handle.fileno())
        return Snapshot(handle.read(), status)


def decode(data: bytes, name: str) -> str:
    """UTF-8 text (a byte order mark is dropped), or a FileProblem that says what it is."""
    wide = _wide_encoding(data)
    if wide is not None:
        label, iconv = wide
        raise FileProblem(
            f"{name}: {label} text; mtgr reads UTF-8: convert it with "
            f"`iconv -f {iconv} -t UTF-8 {name} > converted.mtgr`"
        )
    if b"\x00" in data:
        raise FileProblem(f"{name}: not a text file (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileProblem(
            f"{name}: not UTF-8 text (byte {error.start}); convert it with "
            f"`iconv -f ENCODING -t UTF-8 {name}`"
        ) from error


def _wide_encoding(data: bytes) -> tuple[str, str] | None:
    """(name, iconv name) for UTF-16 or UTF-32 text, told by its byte order mark or, without
    one, by the zero bytes that ASCII characters leave in every second or fourth place."""
    for bom, label, iconv in _BOMS:
        if data.startswith(bom):
            return f"{label} ({'little' if bom[0] == 0xFF else 'big'}-endian)", iconv
    sample = data[:_SAMPLE]
    if len(sample) < 2 or b"\x00" not in sample:
        return None

    def zero(start: int, step: int) -> bool:
        column = sample[start::step]
        return bool(column) and column.count(0) >= 0.9 * len(column)

    if len(sample) >= 4 and zero(1, 4) and zero(2, 4) and zero(3, 4) and not zero(0, 4):
        return "UTF-32 (little-endian, no byte order mark)", "UTF-32LE"
    if len(sample) >= 4 and zero(0, 4) and zero(1, 4) and zero(2, 4) and not zero(3, 4):
        return "UTF-32 (big-endian, no byte order mark)", "UTF-32BE"
    if zero(1, 2) and not zero(0, 2):
        return "UTF-16 (little-endian, no byte order mark)", "UTF-16LE"
    if zero(0, 2) and not zero(1, 2):
        return "UTF-16 (big-endian, no byte order mark)", "UTF-16BE"
    return None


def rewrite(path: Path, before: Snapshot, data: bytes) -> str | None:
    """Puts `data` in place of the file read as `before`; returns a note when it had to be
    written in place. Raises FileProblem, with the file as it was, when it cannot."""
    name = shown(path)
    target = path.resolve()  # through a symbolic link: the file itself
    status = before.status
    if not os.access(target, os.W_OK) or not status.st_mode & 0o222:
        raise FileProblem(f"{name}: read-only; left alone (make it writable to let mtgr change it)")
    if status.st_nlink > 1:
        _in_place(target, before, data, name)
        return f"{name}: written in place to keep its {status.st_nlink} hard links together"
    try:
        temporary = _temporary_copy(target, status, data)
    except PermissionError:  # a folder we may not write in, or an owner we may not give
        _in_place(target, before, data, name)
        return f"{name}: written in place to keep its owner and folder as they are"
    except OSError as error:
        raise FileProblem(
            f"{name}: not written ({_reason(error)}); the file is unchanged"
        ) from error
    try:
        _ensure_unchanged(target, before, name)
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise FileProblem(
                f"{name}: not written ({_reason(error)}); the file is unchanged"
            ) from error
        raise
    return None


def _temporary_copy(target: Path, status: os.stat_result, data: bytes) -> str:
    """The new text in a file beside the target with its owner, group and mode."""
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        now = os.stat(temporary)
        if hasattr(os, "chown") and (now.st_uid, now.st_gid) != (status.st_uid, status.st_gid):
            os.chown(temporary, status.st_uid, status.st_gid)
        os.chmod(temporary, stat.S_IMODE(status.st_mode))  # after chown, which clears setuid
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _in_place(target: Path, before: Snapshot, data: bytes, name: str) -> None:
    """Overwrites the file itself, once a trial copy beside it shows the new text fits (a
    full disk, a file size limit); if writing still fails half way, the old bytes go back."""
    try:
        _trial_copy(target, data)
        with target.open("r+b") as out:
            _ensure_unchanged(target, before, name)
            try:
                out.write(data)
                out.truncate()
                out.flush()
                os.fsync(out.fileno())
            except OSError as error:
                try:
                    out.seek(0)
                    out.write(before.data)
                    out.truncate()
                    out.flush()
                except OSError:
                    raise FileProblem(
                        f"{name}: writing failed ({_reason(error)}) and the old text could not "
                        "be put back: restore it from your version control"
                    ) from error
                raise
    except OSError as error:
        raise FileProblem(
            f"{name}: not written ({_reason(error)}); the file is unchanged"
        ) from error


def _trial_copy(target: Path, data: bytes) -> None:
    try:
        handle, trial = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except PermissionError:
        return  # a folder we may not write in: the write itself will tell
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    finally:
        os.unlink(trial)


def _ensure_unchanged(target: Path, before: Snapshot, name: str) -> None:
    """Size, modification time, identity and bytes as read: else another program wrote it."""
    now = os.stat(target)
    old = before.status
    same = (now.st_size, now.st_mtime_ns, now.st_ino, now.st_dev) == (
        old.st_size,
        old.st_mtime_ns,
        old.st_ino,
        old.st_dev,
    )
    if not same or target.read_bytes() != before.data:
        raise FileProblem(
            f"{name}: changed while mtgr was working on it; left alone (run mtgr again)"
        )


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
