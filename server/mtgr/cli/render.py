"""`mtgr render FILE[:LINE]`: the board after a line as HTML, SVG or text, and with
`--replay` one page that steps through the whole record."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from mtgr.cli.files import FileProblem, decode, shown
from mtgr.cli.main import EXIT_CLEAN, UsageError
from mtgr.render.html import render_html, render_replay
from mtgr.render.record import Record
from mtgr.render.svg import render_svg
from mtgr.render.text import render_text
from mtgr.syntax.markdown import mtgr_blocks

RENDERERS = {"html": render_html, "svg": render_svg, "text": render_text}


def add_render_command(commands: Any) -> None:
    render = commands.add_parser(
        "render", help="draw the board after a line (HTML, SVG or text), or a replay page"
    )
    render.add_argument("location", metavar="FILE[:LINE]", help="default line: the last")
    render.add_argument("--format", choices=tuple(RENDERERS), default="html")
    render.add_argument(
        "--replay", action="store_true", help="one HTML page that steps through every line"
    )
    render.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    render.set_defaults(run=run)


def _location(value: str) -> tuple[Path, int | None]:
    """FILE or FILE:LINE; a file whose own name ends in `:digits` is taken whole."""
    name, _, number = value.rpartition(":")
    if name and number.isdigit() and not Path(value).is_file():
        if int(number) < 1:
            raise UsageError(f"{value}: line numbers start at 1")
        return Path(name), int(number)
    return Path(value), None


def run(args: argparse.Namespace) -> int:
    path, line = _location(args.location)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    if args.replay and line is not None:
        raise UsageError("--replay draws every line: give the file without :LINE")
    if args.replay and args.format != "html":
        raise UsageError("--replay writes an HTML page: leave out --format or use --format html")
    try:
        text = decode(path.read_bytes(), shown(path))
    except FileProblem as problem:
        raise UsageError(str(problem)) from problem
    except OSError as error:
        raise UsageError(f"cannot read {shown(path)}: {error.strerror or error}") from error
    if path.suffix.lower() in (".md", ".markdown"):
        text = mtgr_blocks(text)
    record = Record.check(text)
    _require_a_record(path, record)
    count = len(record.lines)
    if line is not None and line > count:
        raise UsageError(f"{path} has {count} lines; line {line} is past its end")
    if args.replay:
        output = render_replay(record.boards(), record.texts)
    else:
        output = RENDERERS[args.format](record.board(count if line is None else line))
    if args.output:
        _write_new(Path(args.output), output.encode("utf-8"))
    else:
        sys.stdout.write(output)
    return EXIT_CLEAN


def _require_a_record(path: Path, record: Record) -> None:
    """A file none of whose lines parses is not a record: say so rather than draw an
    empty board."""
    if any(line.parsed.statement is not None for line in record.lines):
        return
    errors = [(n, line.parsed.error) for n, line in enumerate(record.lines, 1) if line.parsed.error]
    if not errors:
        raise UsageError(f"{path}: no statements, nothing to draw")
    number, error = errors[0]
    assert error is not None
    raise UsageError(
        f"{path}:{number}:{error.span.start + 1}: no line parses as a .mtgr statement;"
        f" the first: {error.code} {error.message}"
    )


def _write_new(target: Path, data: bytes) -> None:
    """A temporary file beside the target, then os.replace: never a half-written page."""
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise UsageError(f"cannot write {target}: it is a folder")
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from error
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from error
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
