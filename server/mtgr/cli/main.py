"""The `mtgr` command line: check, fmt, explain, rules, state, render, lsp, completion, cards.
It only adapts the layers below, with the conventions of ruff and taplo: `-` for standard input, colour on
terminals, a summary line, one bad file reported while the run goes on (exit 2 at the end).

Exit codes: 0 clean, 1 problems found (or files that would change), 2 usage errors and
files that could not be read or written; 141 when the reader of the output went away.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TextIO

import pathspec
import shtab

from mtgr import config
from mtgr.cards.formats import CardFileError
from mtgr.cards.model import CardIndex
from mtgr.check import Diagnostic, check_record, diagnostics
from mtgr.cli import cards, output
from mtgr.cli.files import FileProblem, Snapshot, decode, rewrite, shown, snapshot
from mtgr.fixes import fix_all
from mtgr.rules.explain import diagnostics_markdown, explain
from mtgr.rules.registry import Severity, all_rules, rule
from mtgr.rules.summary import render_state
from mtgr.rules.walk import state_before, walk
from mtgr.syntax.document import Document, split_lines
from mtgr.syntax.format import format_text
from mtgr.syntax.markdown import mtgr_blocks

EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE, EXIT_BROKEN_PIPE = 0, 1, 2, 141
MARKDOWN = config.MARKDOWN_SUFFIXES


class UsageError(Exception):
    pass


def version() -> str:
    try:
        return metadata.version("mtgr")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a message never fails on what it can show
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.error(f"choose a command: {', '.join(_COMMANDS)}")
    try:
        return int(args.run(args))
    except (UsageError, CardFileError) as error:
        print(f"mtgr: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (`mtgr rules | head -2`): stop quietly; what is still
        # buffered goes nowhere instead of raising again at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


_COMMANDS = ("check", "fmt", "explain", "rules", "state", "lsp", "completion")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtgr", description="Check and explain .mtgr records of Magic: The Gathering games."
    )
    parser.add_argument("--version", action="version", version=f"mtgr {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    files = argparse.ArgumentParser(add_help=False)
    files.add_argument(
        "paths", nargs="+", metavar="PATH", help="files and folders; - reads standard input"
    ).complete = shtab.FILE  # type: ignore[attr-defined]
    files.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="leave out what a gitignore-style pattern matches in folder scans (repeatable)",
    )
    files.add_argument(
        "--stdin-filename", metavar="NAME", help="the name standard input is reported under"
    )
    files.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output (auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR)",
    )
    files.add_argument("-q", "--quiet", action="store_true", help="print no summary line")

    check = commands.add_parser(
        "check", parents=[files], help="check files, folders and Markdown pages"
    )
    check.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text")
    check.add_argument(
        "--severity",
        action="append",
        default=[],
        metavar="CODE=LEVEL",
        help="change a code's severity (error, warning, information, hint) or turn it off",
    )
    check.add_argument(
        "--perspective",
        metavar="NAME|all",
        help="the perspective a record without a `perspective` line is checked as "
        "(overrides the config file's; a record's own line wins)",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when errors are found")
    check.add_argument(
        "--statistics", action="store_true", help="print how often each code was found"
    )
    check.add_argument("--fix", action="store_true", help="apply the safe fixes")
    check.add_argument(
        "--diff", action="store_true", help="print the safe fixes as a diff; change nothing"
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
    state.add_argument("location", metavar="FILE:LINE").complete = shtab.FILE  # type: ignore[attr-defined]
    state.set_defaults(run=_state)
    from mtgr.cli.render import add_render_command  # (it imports this module)

    add_render_command(commands)

    fmt = commands.add_parser("fmt", parents=[files], help="rewrite files in the canonical layout")
    fmt.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a file would change"
    )
    fmt.add_argument(
        "--diff", action="store_true", help="print the changes as a diff; change nothing"
    )
    fmt.set_defaults(run=_fmt)

    lsp = commands.add_parser("lsp", help="run the language server (stdio by default)")
    lsp.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead, for debugging")
    lsp.add_argument("--stdio", action="store_true", help="use stdio (the default)")
    lsp.add_argument(
        "--log-file",
        metavar="PATH",
        type=Path,
        help="also write the server's log to this file (appended), whatever the trace level",
    ).complete = shtab.FILE  # type: ignore[attr-defined]
    lsp.set_defaults(run=_lsp)

    completion = commands.add_parser(
        "completion", help="print a shell completion script (eval it in your shell's startup)"
    )
    completion.add_argument("shell", choices=shtab.SUPPORTED_SHELLS)
    completion.set_defaults(run=_completion)
    cards.register(commands)
    return parser


# ---- finding and reading files -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """A file to work on, or standard input (path None)."""

    path: Path | None
    name: str
    named: bool  # given on the command line, not found in a folder

    @property
    def markdown(self) -> bool:
        return self.name.lower().endswith(MARKDOWN)

    @property
    def place(self) -> Path | None:
        """Where its settings file is looked for: the file, or what standard input is named."""
        if self.path is None and self.name != "-":
            return Path(self.name)
        return self.path

    def read(self) -> Snapshot:
        try:
            if self.path is None:
                return Snapshot(sys.stdin.buffer.read(), os.fstat(sys.stdin.fileno()))
            return snapshot(self.path)
        except OSError as error:
            raise FileProblem(f"{self.name}: cannot be read ({error.strerror or error})") from error


class Scan:
    """The files named on the command line and found in its folders, with what went wrong."""

    def __init__(self, args: argparse.Namespace, markdown: bool) -> None:
        self.args = args
        self.markdown = markdown
        self.problems = 0
        self.projects = config.Projects(on_load=_print_warnings)
        self.cli_exclude = pathspec.GitIgnoreSpec.from_lines(args.exclude)

    def report(self, problem: object) -> None:
        print(f"mtgr: {problem}", file=sys.stderr)
        self.problems += 1

    def config_for(self, path: Path | None) -> config.Config:
        return self.projects.for_path(Path.cwd() if path is None else path)

    def sources(self) -> Iterator[Source]:
        for name in self.args.paths:
            if name == "-":
                source = Source(None, self.args.stdin_filename or "-", named=True)
                self.config_for(source.place)
                yield source
                continue
            path = Path(name)
            if path.is_dir():
                yield from self._folder(path)
            elif path.exists():
                self.config_for(path)
                yield Source(path, shown(path), named=True)
            else:
                self.report(f"{shown(name)}: no such file or folder")

    def _folder(self, folder: Path) -> Iterator[Source]:
        def unreadable(error: OSError) -> None:
            self.report(f"{shown(error.filename)}: cannot be read ({error.strerror})")

        for path in config.scan(folder, self._excluded, self.markdown, unreadable):
            yield Source(path, shown(path), named=False)

    def _excluded(self, path: Path) -> bool:
        """--exclude matches paths from the working folder; the settings file's `exclude`
        paths from its own folder."""
        try:
            relative = os.path.relpath(path) if path.is_absolute() else str(path)
        except ValueError:  # another drive (Windows): only the settings file can exclude it
            relative = path.as_posix()
        name = Path(relative).as_posix() + ("/" if path.is_dir() else "")
        return self.cli_exclude.match_file(name) or self.config_for(path).excludes(path)


def _print_warnings(settings: config.Config) -> None:
    for warning in settings.warnings:
        print(f"mtgr: warning: {warning}", file=sys.stderr)


def _text(source: Source, read: Snapshot) -> str:
    return decode(read.data, source.name)


# ---- check ---------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    requested = _severities(args.severity)
    requested_perspective = _perspective(args.perspective)
    scan = Scan(args, markdown=True)
    indexes = cards.Indexes(args.cards)
    results: list[output.Checked] = []
    fixed = would_fix = 0
    for source in scan.sources():
        try:
            read = source.read()
            text = _text(source, read)
        except FileProblem as problem:
            scan.report(problem)
            continue
        if source.markdown and not source.named and not mtgr_blocks(text).strip():
            continue  # a page without mtgr blocks is no record
        settings = scan.config_for(source.place)
        severities = {**settings.severity, **requested}
        index = indexes.for_config(settings)
        assumed = requested_perspective if args.perspective is not None else settings.perspective
        if args.fix or args.diff:
            new_text, applied = _fixed(text, severities, source.markdown, index, assumed)
            if applied:
                would_fix += sum(applied.values())
                if args.diff:
                    _print_diff(source.name, text, new_text)
                elif _put(scan, source, read, _encoded(read, new_text)):
                    text = new_text
                    fixed += sum(applied.values())
            elif args.fix and source.path is None:
                _put(scan, source, read, _encoded(read, text))
        if source.markdown:
            text = mtgr_blocks(text)
        found, failed = check_record(text, severities, index, assumed)
        for where, what in failed:
            scan.report(f"{source.name}: internal error at {where} ({what}); please report it")
        results.append(output.Checked(source.name, found))
    if not results and not scan.problems:
        raise UsageError(
            f"no .mtgr files or Markdown pages with mtgr blocks in {', '.join(args.paths)}"
        )
    if args.diff:
        return EXIT_USAGE if scan.problems else (EXIT_FOUND if would_fix else EXIT_CLEAN)
    # with --fix on standard input the fixed text is the output; diagnostics go to stderr
    out = sys.stderr if args.fix and any(name == "-" for name in args.paths) else sys.stdout
    _report(args, results, fixed, scan.problems, out)
    if scan.problems:
        return EXIT_USAGE
    errors = any(d.severity is Severity.ERROR for checked in results for d in checked.found)
    return EXIT_FOUND if errors and not args.exit_zero else EXIT_CLEAN


def _fixed(
    text: str,
    severities: dict[str, Severity | None],
    markdown: bool,
    cards: CardIndex | None,
    perspective: str | None,
) -> tuple[str, Counter[str]]:
    """The text with the safe fixes, keeping its line ends (fixes are worked out on LF).

    A Markdown page is fixed in its mtgr blocks only: when a fix would touch a line outside
    them (or remove a line), the page is left as it is and its findings are reported."""
    lines = split_lines(text)
    record = mtgr_blocks(text) if markdown else "\n".join(lines)
    new_record, applied = fix_all(record, severities, cards, perspective)
    new_text = new_record
    if markdown and applied:
        fixed_lines = split_lines(new_record)
        if len(fixed_lines) != len(lines):
            return text, Counter()
        shown_lines = split_lines(record)
        new_text = "\n".join(
            new if old == shown else old
            for old, shown, new in zip(lines, shown_lines, fixed_lines, strict=True)
        )
        if mtgr_blocks(new_text) != new_record:
            return text, Counter()
    if "\r\n" in text:
        new_text = new_text.replace("\n", "\r\n")
    return new_text, applied


def _put(scan: Scan, source: Source, read: Snapshot, data: bytes) -> bool:
    """Writes new bytes back (standard input: to standard output); False if it failed."""
    if source.path is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        return True
    try:
        note = rewrite(source.path, read, data)
    except FileProblem as problem:
        scan.report(problem)
        return False
    if note is not None:
        print(f"mtgr: {note}", file=sys.stderr)
    return True


def _encoded(read: Snapshot, text: str) -> bytes:
    """The text as the file's bytes: UTF-8, with the byte order mark it had."""
    bom = b"\xef\xbb\xbf" if read.data.startswith(b"\xef\xbb\xbf") else b""
    return bom + text.encode("utf-8")


def _report(
    args: argparse.Namespace,
    results: list[output.Checked],
    fixed: int,
    not_checked: int,
    stream: TextIO,
) -> None:
    if args.format == "json":
        output.as_json(results, stream)
    elif args.format == "github":
        output.github(results, stream)
    elif args.format == "sarif":
        output.sarif(results, version(), stream)
    elif args.statistics:
        output.statistics(results, stream)
    else:
        style = output.Style(output.use_colour(args.color, stream))
        output.text(results, style, stream)
    if args.format == "text" and not args.quiet:
        print(output.summary(results, fixed, not_checked), file=sys.stderr)


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


def _perspective(value: str | None) -> str | None:
    """`--perspective`: a player's name or `all`."""
    if value is None:
        return None
    if not value.strip():
        raise UsageError(f"--perspective: expected a player's name or {config.ALL_PLAYERS}")
    return config.perspective(value)


def _print_diff(name: str, before: str, after: str) -> None:
    sys.stdout.writelines(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=name,
            tofile=name,
        )
    )


# ---- explain, rules, state, lsp, completion ------------------------------------------


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
        text = _text(Source(path, shown(path), named=True), snapshot(path))
    except (FileProblem, OSError) as problem:
        raise UsageError(str(problem)) from problem
    if path.suffix.lower() in MARKDOWN:
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
    found: list[Diagnostic] = [d for d in diagnostics(document, result) if d.line < line]
    if found:
        print()
        print(
            f"{len(found)} problem{'s' if len(found) != 1 else ''} up to here (mtgr check lists them)"
        )
    return EXIT_CLEAN


def _lsp(args: argparse.Namespace) -> int:
    from mtgr.server.app import run

    if args.log_file is not None:
        try:
            args.log_file.open("a", encoding="utf-8").close()
        except OSError as error:
            raise UsageError(
                f"--log-file {shown(args.log_file)}: cannot be written ({error.strerror or error})"
            ) from error
    tcp = None
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        tcp = (host, int(port))
    return run(tcp=tcp, log_file=args.log_file)


def _completion(args: argparse.Namespace) -> int:
    print(shtab.complete(_parser(), shell=args.shell))
    return EXIT_CLEAN


# ---- fmt -----------------------------------------------------------------------------


def _fmt(args: argparse.Namespace) -> int:
    """Each file is read whole, formatted in memory, and replaced only if it changed
    (cli/files.py says how a file is rewritten without losing anything)."""
    scan = Scan(args, markdown=False)
    changed = unchanged = filtered = 0
    for source in scan.sources():
        try:
            if source.markdown:
                raise FileProblem(f"{source.name}: formatting Markdown pages is not supported")
            read = source.read()
            text = _text(source, read)
        except FileProblem as problem:
            scan.report(problem)
            continue
        formatted_text = format_text(text)
        formatted = _encoded(read, formatted_text)
        if source.path is None and not (args.check or args.diff):
            filtered += _put(scan, source, read, formatted)  # `mtgr fmt -` is a filter
            continue
        if formatted == read.data:
            unchanged += 1
            continue
        if args.diff:
            _print_diff(source.name, "\n".join(split_lines(text)), formatted_text)
        elif args.check:
            print(f"would reformat {source.name}")
        elif not _put(scan, source, read, formatted):
            continue
        else:
            print(f"reformatted {source.name}")
        changed += 1
    if not (changed or unchanged or filtered or scan.problems):
        raise UsageError(f"no .mtgr files in {', '.join(args.paths)}")
    if not args.quiet and (changed or unchanged):
        done = "would be reformatted" if args.check or args.diff else "reformatted"
        print(
            f"{output.count(changed, 'file')} {done}, {unchanged} already formatted",
            file=sys.stderr,
        )
    if scan.problems:
        return EXIT_USAGE
    return EXIT_FOUND if (args.check or args.diff) and changed else EXIT_CLEAN
