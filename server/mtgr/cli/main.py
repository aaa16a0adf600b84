"""The `mtgr` command line: check, explain, rules, state, lsp. It only adapts the layers below."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from mtgr.check import Diagnostic, check_text, diagnostics
from mtgr.cli.files import FileProblem, decode, rewrite, shown, snapshot
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
    for stream in (sys.stdout, sys.stderr):  # a message never fails on what it can show
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as error:
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
    return parser


# ---- check --------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    severities = _severities(args.severity)
    results: list[tuple[Path, list[Diagnostic]]] = []
    problems = 0
    for path in _files(args.paths):
        try:
            text = _read(path)
        except FileProblem as problem:
            problems += _report(problem)
            continue
        if path.suffix.lower() in (".md", ".markdown"):
            text = mtgr_blocks(text)
        results.append((path, check_text(text, severities)))
    _print(results, args.format)
    if problems:
        return EXIT_USAGE
    found_errors = any(d.severity is Severity.ERROR for _, found in results for d in found)
    return EXIT_FOUND if found_errors else EXIT_CLEAN


def _files(paths: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.mtgr") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise UsageError(f"no such file or folder: {shown(name)}")
    return found


def _read(path: Path) -> str:
    """A file's text; FileProblem when it cannot be read or is not UTF-8 text."""
    try:
        return decode(path.read_bytes(), shown(path))
    except OSError as error:
        raise FileProblem(f"{shown(path)}: cannot be read ({error.strerror or error})") from error


def _report(problem: FileProblem) -> int:
    print(f"mtgr: {problem}", file=sys.stderr)
    return 1


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
                    f"::{level} file={shown(path)},line={line},col={column},"
                    f"endColumn={d.span.end + 1},title={d.code}::{message}"
                )
            else:
                print(f"{shown(path)}:{line}:{column}: {d.severity.value} {d.code} {d.message}")
    if output == "text":
        files = len(results)
        print(
            f"{count} problem{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''}",
            file=sys.stderr,
        )


def _json(path: Path, d: Diagnostic) -> dict[str, object]:
    return {
        "path": shown(path),
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
    try:
        text = _read(path)
    except FileProblem as problem:
        raise UsageError(str(problem)) from problem
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
    """Each file is read whole, formatted in memory, and replaced only if it changed
    (see cli/files.py for how a file is rewritten without losing anything)."""
    changed = failed = 0
    for path in _files(args.paths):
        try:
            if path.suffix.lower() in (".md", ".markdown"):
                raise FileProblem(f"{shown(path)}: formatting Markdown pages is not supported")
            before = snapshot(path)
            bom = b"\xef\xbb\xbf" if before.data.startswith(b"\xef\xbb\xbf") else b""
            formatted = bom + format_text(decode(before.data, shown(path))).encode("utf-8")
            if formatted == before.data:
                continue
            changed += 1
            if args.check:
                print(f"would reformat {shown(path)}")
                continue
            note = rewrite(path, before, formatted)
            print(f"reformatted {shown(path)}")
            if note is not None:
                print(f"mtgr: {note}", file=sys.stderr)
        except OSError as error:
            failed += _report(FileProblem(f"{shown(path)}: {error.strerror or error}"))
        except FileProblem as problem:
            failed += _report(problem)
    if failed:
        return EXIT_USAGE
    return EXIT_FOUND if args.check and changed else EXIT_CLEAN


def _lsp(args: argparse.Namespace) -> int:
    from mtgr.server.app import run

    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        return run(tcp=(host, int(port)))
    return run()
