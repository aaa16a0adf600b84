"""The `mtgr` command line: check, explain, rules, state, fmt, lsp, cards. It only adapts the
layers below."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from mtgr.cards.formats import CardFileError
from mtgr.check import Diagnostic, check_text, diagnostics
from mtgr.cli import cards
from mtgr.rules.explain import diagnostics_markdown, explain
from mtgr.rules.registry import Severity, all_rules, rule
from mtgr.rules.summary import render_state
from mtgr.rules.walk import state_before, walk
from mtgr.syntax.document import Document
from mtgr.syntax.format import format_text
from mtgr.syntax.markdown import mtgr_blocks

EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (UsageError, CardFileError) as error:
        print(f"mtgr: {error}", file=sys.stderr)
        return EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtgr", description="Check and explain .mtgr records of Magic: The Gathering games."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="check files, folders and Markdown pages")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--format", choices=("text", "json", "github"), default="text")
    check.add_argument(
        "--severity",
        action="append",
        default=[],
        metavar="CODE=LEVEL",
        help="change a code's severity (error, warning, information, hint) or turn it off",
    )
    cards.add_option(check)
    check.set_defaults(run=_check)

    explain = commands.add_parser("explain", help="explain a diagnostic code")
    explain.add_argument("code")
    explain.set_defaults(run=_explain)

    rules = commands.add_parser("rules", help="list every diagnostic code")
    rules.add_argument("--markdown", action="store_true", help="print docs/diagnostics.md")
    rules.set_defaults(run=_rules)

    state = commands.add_parser("state", help="print the rebuilt game state after a line")
    state.add_argument("location", metavar="FILE:LINE")
    state.set_defaults(run=_state)

    fmt = commands.add_parser("fmt", help="rewrite files in the canonical layout")
    fmt.add_argument("paths", nargs="+", metavar="PATH")
    fmt.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a file would change"
    )
    fmt.set_defaults(run=_fmt)

    lsp = commands.add_parser("lsp", help="run the language server (stdio by default)")
    lsp.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead, for debugging")
    lsp.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    lsp.set_defaults(run=_lsp)
    cards.register(commands)
    return parser


# ---- check --------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    severities = _severities(args.severity)
    index = cards.index_for(args.cards)
    results: list[tuple[Path, list[Diagnostic]]] = []
    for path in _files(args.paths):
        text = _read(path)
        if path.suffix.lower() in (".md", ".markdown"):
            text = mtgr_blocks(text)
        results.append((path, check_text(text, severities, index)))
    _print(results, args.format)
    found_errors = any(d.severity is Severity.ERROR for _, found in results for d in found)
    return EXIT_FOUND if found_errors else EXIT_CLEAN


def _files(paths: Sequence[str]) -> Iterator[Path]:
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.mtgr") if p.is_file())
        elif path.is_file():
            yield path
        else:
            raise UsageError(f"no such file or folder: {name}")


def _read(path: Path) -> str:
    data = path.read_bytes()
    if b"\x00" in data:
        raise UsageError(f"{path}: not a text file (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text (byte {error.start})") from error


def _severities(values: Sequence[str]) -> dict[str, Severity | None]:
    severities: dict[str, Severity | None] = {}
    for value in values:
        code, _, level = value.partition("=")
        if rule(code) is None:
            raise UsageError(f"--severity {value}: unknown code {code!r} (see `mtgr rules`)")
        if level == "off":
            severities[code] = None
            continue
        try:
            severities[code] = Severity(level)
        except ValueError as error:
            raise UsageError(
                f"--severity {value}: level must be error, warning, information, hint or off"
            ) from error
    return severities


def _print(results: list[tuple[Path, list[Diagnostic]]], output: str) -> None:
    if output == "json":
        print(json.dumps([_json(path, d) for path, found in results for d in found], indent=2))
        return
    count = 0
    for path, found in results:
        for d in found:
            count += 1
            line, column = d.line + 1, d.span.start + 1
            if output == "github":
                level = {"error": "error", "warning": "warning"}.get(d.severity.value, "notice")
                message = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
                print(
                    f"::{level} file={path},line={line},col={column},"
                    f"endColumn={d.span.end + 1},title={d.code}::{message}"
                )
            else:
                print(f"{path}:{line}:{column}: {d.severity.value} {d.code} {d.message}")
    if output == "text":
        files = len(results)
        print(
            f"{count} problem{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''}",
            file=sys.stderr,
        )


def _json(path: Path, d: Diagnostic) -> dict[str, object]:
    return {
        "path": str(path),
        "line": d.line + 1,
        "column": d.span.start + 1,
        "end_column": d.span.end + 1,
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
        "related": [{"line": r.line + 1, "message": r.message} for r in d.related],
    }


# ---- explain, rules, state, lsp -----------------------------------------------------


def _explain(args: argparse.Namespace) -> int:
    found = rule(args.code.upper())
    if found is None:
        raise UsageError(f"unknown code {args.code!r}; `mtgr rules` lists them all")
    print(explain(found))
    return EXIT_CLEAN


def _rules(args: argparse.Namespace) -> int:
    if args.markdown:
        sys.stdout.write(diagnostics_markdown())
        return EXIT_CLEAN
    for code, found in all_rules().items():
        print(f"{code}  {found.severity.value:<8} {found.title}")
    return EXIT_CLEAN


def _state(args: argparse.Namespace) -> int:
    name, _, number = args.location.rpartition(":")
    if not name or not number.isdigit() or int(number) < 1:
        raise UsageError(f"expected FILE:LINE with a line number from 1, got {args.location!r}")
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"no such file: {name}")
    text = _read(path)
    if path.suffix.lower() in (".md", ".markdown"):
        text = mtgr_blocks(text)
    document = Document(text)
    lines = document.lines
    line = int(number)
    if line > len(lines):
        raise UsageError(f"{name} has {len(lines)} lines; line {line} is past its end")
    result = walk(lines)
    print(f"State after line {line} of {name}")
    print()
    print(render_state(state_before(result, lines, line)))
    found = [d for d in diagnostics(document, result) if d.line < line]
    if found:
        print()
        print(
            f"{len(found)} problem{'s' if len(found) != 1 else ''} up to here (mtgr check lists them)"
        )
    return EXIT_CLEAN


def _fmt(args: argparse.Namespace) -> int:
    """Each file is read whole, formatted in memory, and replaced atomically only if it changed."""
    changed = failed = 0
    for path in _files(args.paths):
        try:
            if path.suffix.lower() in (".md", ".markdown"):
                raise UsageError(f"{path}: formatting Markdown pages is not supported")
            data = path.read_bytes()
            bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
            formatted = bom + format_text(_read(path)).encode("utf-8")
            if formatted == data:
                continue
            changed += 1
            if args.check:
                print(f"would reformat {path}")
            else:
                _write_atomically(path, formatted)
                print(f"reformatted {path}")
        except (UsageError, OSError) as error:
            failed += 1
            message = (
                str(error)
                if isinstance(error, UsageError)
                else f"{path}: {error.strerror or error}"
            )
            print(f"mtgr: {message}", file=sys.stderr)
    if failed:
        return EXIT_USAGE
    return EXIT_FOUND if args.check and changed else EXIT_CLEAN


def _write_atomically(path: Path, data: bytes) -> None:
    """A temporary file beside the target, then os.replace: the file is never half written."""
    target = path.resolve()
    mode = stat.S_IMODE(target.stat().st_mode)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _lsp(args: argparse.Namespace) -> int:
    from mtgr.server.app import run

    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        return run(tcp=(host, int(port)))
    return run()
