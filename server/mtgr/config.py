"""The project's settings file, so severities and excludes are written once for the command
line, every editor and CI.

`mtgr.toml` (keys at the top level) or `[tool.mtgr]` in `pyproject.toml`, the nearest one
found walking up from the checked file; in one folder `mtgr.toml` wins, and a
`pyproject.toml` without `[tool.mtgr]` is passed over (as ruff does). Keys:

    severity = { N107 = "off", D801 = "warning" }   # a code's level, or off
    exclude = ["drafts/", "*.tmp.mtgr"]             # gitignore patterns, from this folder
    rules-file = "rules/MagicCompRules.txt"         # the CR text hover quotes from
    cards-file = "cards/oracle-cards.json"          # a card index or card file (decision 0050)
    perspective = "Alice"                           # or "all": for records that declare none

`perspective` is what a record without a `perspective` line is checked as (decision 0080);
a record's own line always wins.

Paths are relative to the settings file's folder. Nothing in it stops checking: an unknown key or code, a wrong value or TOML that does not
parse is a warning with the file and line, and the rest of the file still counts.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from mtgr.rules.registry import Severity, rule

CONFIG_FILES = ("mtgr.toml", "pyproject.toml")
MAX_BYTES = 1 << 20  # a settings file is small: a larger one is not read
KNOWN_KEYS = ("severity", "exclude", "rules-file", "cards-file", "perspective")
LEVELS = (*(level.value for level in Severity), "off")
ALL_PLAYERS = "all"  # the value that means every player's perspective, as `perspective all`


def perspective(value: str) -> str:
    """A perspective as the walk takes it (GameState.perspective): a player's name, or ""
    for `all`."""
    return "" if value == ALL_PLAYERS else value


@dataclass(frozen=True, slots=True)
class ConfigWarning:
    path: Path
    line: int  # from 1
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Config:
    """What a settings file says; `Config()` when there is none."""

    path: Path | None = None
    severity: dict[str, Severity | None] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    rules_file: Path | None = None
    cards_file: Path | None = None
    # assumed for a record without a `perspective` line: a name, "" for all, None for none
    perspective: str | None = None
    warnings: tuple[ConfigWarning, ...] = ()

    def excludes(self, path: Path) -> bool:
        """Whether a path (a folder ends in "/") under the file's folder is excluded."""
        if self.path is None or not self.exclude:
            return False
        try:
            relative = path.absolute().relative_to(self.path.parent.absolute())
        except ValueError:
            return False
        name = relative.as_posix() + ("/" if path.is_dir() else "")
        return _spec(self.exclude).match_file(name)


# what a folder scan takes: records, and Markdown pages (those with mtgr blocks count)
RECORD_SUFFIX = ".mtgr"
MARKDOWN_SUFFIXES = (".md", ".markdown")
# folders no record lives in (tools' caches, environments, version control), as ruff skips
SKIPPED_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
    }
)


def scan(
    folder: Path,
    excluded: Callable[[Path], bool],
    markdown: bool = True,
    unreadable: Callable[[OSError], None] | None = None,
) -> Iterator[Path]:
    """The records (and Markdown pages) under a folder in a stable order, without tools'
    folders and what `excluded` leaves out; `mtgr check DIR` and the server's workspace
    check take the same files."""
    suffixes = (RECORD_SUFFIX, *MARKDOWN_SUFFIXES) if markdown else (RECORD_SUFFIX,)
    for top, folders, files in os.walk(folder, onerror=unreadable):
        here = Path(top)
        folders[:] = sorted(
            f for f in folders if f not in SKIPPED_FOLDERS and not excluded(here / f)
        )
        for file in sorted(files):
            path = here / file
            if path.suffix.lower() in suffixes and not excluded(path):
                yield path


class Projects:
    """The settings file of each folder, each found and read once (a folder scan asks for
    every file); `on_load` sees each file as it is read (for its warnings)."""

    def __init__(self, on_load: Callable[[Config], None] | None = None) -> None:
        self.on_load = on_load
        self._found: dict[Path, Path | None] = {}  # folder -> its settings file
        self._loaded: dict[Path, Config] = {}

    def for_folder(self, folder: Path) -> Config:
        if folder not in self._found:
            self._found[folder] = find(folder)
        found = self._found[folder]
        if found is None:
            return Config()
        if found not in self._loaded:
            loaded = self._loaded[found] = load(found)
            if self.on_load is not None:
                self.on_load(loaded)
        return self._loaded[found]

    def for_path(self, path: Path) -> Config:
        return self.for_folder(path if path.is_dir() else path.parent)

    def excludes(self, path: Path) -> bool:
        return self.for_path(path).excludes(path)


def _spec(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


def find(start: Path) -> Path | None:
    """The nearest settings file in the folder of `start` (or `start` itself, a folder) and
    above it."""
    folder = start if start.is_dir() else start.parent
    for candidate in (folder.absolute(), *folder.absolute().parents):
        for name in CONFIG_FILES:
            path = candidate / name
            if path.is_file() and (name != "pyproject.toml" or _has_tool_mtgr(path)):
                return path
    return None


def _has_tool_mtgr(path: Path) -> bool:
    try:
        text = _read(path)
    except (OSError, ValueError):
        return False
    return re.search(r"^\s*\[\s*tool\s*\.\s*mtgr\s*[.\]]", text, re.MULTILINE) is not None


def load(path: Path) -> Config:
    """The settings in one file, with a warning (file and line) for what is not understood."""
    warnings: list[ConfigWarning] = []
    try:
        text = _read(path)
    except (OSError, ValueError) as error:  # ValueError: not UTF-8, not a small regular file
        return Config(path, warnings=(ConfigWarning(path, 1, f"cannot be read: {error}"),))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = int(match.group(1)) if (match := re.search(r"line (\d+)", str(error))) else 1
        message = f"not valid TOML ({error}); its settings are ignored"
        return Config(path, warnings=(ConfigWarning(path, line, message),))
    prefix: tuple[str, ...] = ()
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        data = tool.get("mtgr", {}) if isinstance(tool, dict) else {}
        prefix = ("tool", "mtgr")
    lines = _KeyLines(text, prefix)

    def warn(message: str, *keys: str) -> None:
        warnings.append(ConfigWarning(path, lines.find(*keys), message))

    severity: dict[str, Severity | None] = {}
    raw_severity = data.get("severity", {})
    if not isinstance(raw_severity, dict):
        warn("`severity` must be a table of CODE = LEVEL", "severity")
        raw_severity = {}
    for code, level in raw_severity.items():
        if rule(code) is None:
            warn(f"unknown code {code!r} in `severity` (see `mtgr rules`)", "severity", code)
        elif level not in LEVELS:
            warn(f"`{code}` must be one of {', '.join(LEVELS)}, not {level!r}", "severity", code)
        else:
            severity[code] = None if level == "off" else Severity(level)
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(p, str) for p in exclude):
        warn("`exclude` must be a list of gitignore-style patterns", "exclude")
        exclude = []
    rules_file, cards_file = (_path(data, key, path, warn) for key in ("rules-file", "cards-file"))
    assumed = data.get("perspective")
    if assumed is not None and (not isinstance(assumed, str) or not assumed.strip()):
        warn(
            f'`perspective` must be a player\'s name or "{ALL_PLAYERS}", not {assumed!r}',
            "perspective",
        )
        assumed = None
    for key in data:
        if key not in KNOWN_KEYS:
            warn(f"unknown key {key!r} (known: {', '.join(KNOWN_KEYS)})", key)
    return Config(
        path,
        severity,
        tuple(exclude),
        rules_file,
        cards_file,
        perspective(assumed) if assumed is not None else None,
        tuple(warnings),
    )


def _path(data: dict[str, object], key: str, path: Path, warn: Callable[..., None]) -> Path | None:
    """A path key's value, relative to the settings file's folder."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        warn(f"`{key}` must be a path (relative to {path.name}'s folder)", key)
        return None
    return path.parent / value


def _read(path: Path) -> str:
    """A regular file's text, at most MAX_BYTES: never a device, a pipe or a huge file."""
    status = path.stat()  # before opening: opening a FIFO would block
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_BYTES:
        raise ValueError(f"not a regular file of at most {MAX_BYTES:,} bytes")
    with path.open("rb") as handle:
        return handle.read(MAX_BYTES).decode("utf-8")


class _KeyLines:
    """The line of a key in the file's text: tomllib gives values, never places."""

    def __init__(self, text: str, prefix: tuple[str, ...]) -> None:
        self.lines = text.splitlines()
        self.prefix = prefix

    def find(self, *keys: str) -> int:
        """The line that sets the last key, searched in the table the keys before it name
        (`[tool.mtgr.severity]`, or `severity = {...}` / `severity.CODE =` in the parent);
        else the closest table's header; else line 1."""
        found = self._table(self.prefix) or 1
        for depth in range(1, len(keys) + 1):
            table, key = (*self.prefix, *keys[: depth - 1]), keys[depth - 1]
            line = self._key_in(table, key)
            if line is None:
                line = self._table((*table, key))
            if line is None:
                return found
            found = line
        return found

    def _table(self, table: tuple[str, ...]) -> int | None:
        if not table:
            return None
        header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(map(_key_pattern, table)) + r"\s*\]")
        for number, line in enumerate(self.lines, 1):
            if header.match(line):
                return number
        return None

    def _key_in(self, table: tuple[str, ...], key: str) -> int | None:
        """`key =` in the table's own section, `key = ` inside an inline table on the
        parent's line, or a dotted `parent.key =`."""
        start = self._table(table) if table else 0
        if start is None and table:
            parent = self._key_in(table[:-1], table[-1])
            if parent is None:
                return None
            inline = re.compile(r"[{,]\s*" + _key_pattern(key) + r"\s*=")
            for number in range(parent, len(self.lines) + 1):
                if inline.search(self.lines[number - 1]):
                    return number
                if "}" in self.lines[number - 1]:
                    break
            return None
        assignment = re.compile(r"^\s*" + _key_pattern(key) + r"\s*=")
        dotted = re.compile(
            r"^\s*" + r"\s*\.\s*".join(map(_key_pattern, (*table[-1:], key))) + r"\s*="
        )
        for number in range((start or 0) + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if re.match(r"^\s*\[", line):
                break
            if assignment.match(line) or (table and dotted.match(line)):
                return number
        return None


def _key_pattern(key: str) -> str:
    escaped = re.escape(key)
    return rf"(?:{escaped}|\"{escaped}\"|'{escaped}')"
