"""Open documents, each with our own line store and the latest walk over it.

pygls keeps a TextDocument of its own that re-splits the whole text on every access; we
do not use it. Positions arrive in the client's negotiated encoding (UTF-16 by default)
and are turned into code-point columns here, once, so nothing below knows about them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from mtgr import config
from mtgr.cards.formats import CardFileError
from mtgr.cards.model import CardIndex
from mtgr.cards.store import default_index_path, open_index
from mtgr.check import Diagnostic, diagnostics
from mtgr.rules.registry import Severity, rule
from mtgr.rules.state import GameState
from mtgr.rules.walk import Walk, rewalk, state_before, walk
from mtgr.syntax import tree as t
from mtgr.syntax.document import Document, clear_parse_caches
from mtgr.syntax.markdown import mtgr_blocks


def _units(text: str, encoding: str) -> int:
    """A text's length in the client's units; a lone surrogate (JSON can carry one) counts
    as the one unit it is in UTF-16, and three bytes in UTF-8, as editors count it."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@dataclass
class Settings:
    """The `mtgr` section of the client's settings."""

    rules_file: str | None = None
    cards_file: str | None = None  # a card index or card file; None: the default index, if any
    severity: dict[str, Severity | None] = field(default_factory=dict)
    inlay_hints: bool = True
    # False re-parses and re-checks the whole document on every change: only for
    # measuring the incremental path against it (benchmarks/run.py)
    incremental: bool = True

    # what the client sent that means nothing here (an unknown code, a wrong level)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_client(cls, value: object) -> Settings:
        settings = cls()
        if not isinstance(value, Mapping):
            return settings
        rules_file = value.get("rulesFile")
        settings.rules_file = rules_file if isinstance(rules_file, str) and rules_file else None
        cards_file = value.get("cardsFile")
        settings.cards_file = cards_file if isinstance(cards_file, str) and cards_file else None
        severity = value.get("severity")
        if isinstance(severity, Mapping):
            for code, level in severity.items():
                if rule(str(code)) is None:
                    settings.warnings.append(
                        f"mtgr.severity: unknown code {code!r} is ignored (see `mtgr rules`)"
                    )
                elif level == "off":
                    settings.severity[str(code)] = None
                elif isinstance(level, str) and level in {s.value for s in Severity}:
                    settings.severity[str(code)] = Severity(level)
                else:
                    settings.warnings.append(
                        f"mtgr.severity: {code} must be one of {', '.join(config.LEVELS)}, "
                        f"not {level!r}"
                    )
        if isinstance(value.get("incremental"), bool):
            settings.incremental = value["incremental"]
        hints = value.get("inlayHints")
        if isinstance(hints, Mapping) and isinstance(hints.get("enabled"), bool):
            settings.inlay_hints = hints["enabled"]
        return settings


_Severities = tuple[tuple[str, Severity | None], ...]


class OpenDocument:
    def __init__(
        self,
        uri: str,
        text: str,
        version: int | None,
        encoding: str,
        check: bool = True,
        cards: CardIndex | None = None,
    ) -> None:
        self.uri = uri
        self.cards = cards
        self.version = version
        self.encoding = encoding
        self.is_markdown = uri.lower().endswith((".md", ".markdown"))
        self.document = Document(self._visible(text))
        self.source = Document(text) if self.is_markdown else self.document
        # False while a large document is first checked in steps (features/documents.py)
        self.checked = check
        self.walk: Walk = walk(self.document.lines, cards) if check else Walk(cards=cards)
        # the last position to_character converted: (line text, column, units)
        self._cursor: tuple[str, int, int] | None = None
        # the diagnostics last placed, with the walk and severities they were placed for
        self._placed: tuple[Walk, _Severities, list[Diagnostic]] | None = None
        self._settings_file = _settings_file(uri)
        self._settings_checked = time.monotonic()
        self.config = _load(self._settings_file)

    def reload_config(self, force: bool = True) -> bool:
        """Reads the project settings file again when the client says it changed (force),
        or when another file is now the nearest or it was written since; True if read."""
        recently = time.monotonic() - self._settings_checked < SETTINGS_FILE_CHECK_SECONDS
        if not force and recently:
            return False
        self._settings_checked = time.monotonic()
        now = _settings_file(self.uri)
        if not force and now == self._settings_file:
            return False
        self._settings_file = now
        self.config = _load(now)
        return True

    def severities(self, settings: Settings) -> dict[str, Severity | None]:
        """The project file's severities, each overridden by the editor's setting."""
        return {**self.config.severity, **settings.severity}

    def rules_file(self, settings: Settings) -> str | None:
        """The editor's `mtgr.rulesFile`, else the project file's `rules-file`."""
        if settings.rules_file:
            return settings.rules_file
        return str(self.config.rules_file) if self.config.rules_file else None

    def _visible(self, text: str) -> str:
        return mtgr_blocks(text) if self.is_markdown else text

    # -- edits
    def change(
        self,
        changes: list[types.TextDocumentContentChangeEvent],
        version: int | None,
        incremental: bool = True,
    ) -> None:
        """Applies the changes in order; the checker resumes after each one (see walk.rewalk)."""
        incremental = incremental and self.checked
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start = self.to_column_position(change.range.start, self.source)
                end = self.to_column_position(change.range.end, self.source)
                edited = self.source.edit(start, end, change.text)
                if self.is_markdown:
                    edited = self.document.replace_all(mtgr_blocks(self.source.text))
            else:
                if self.is_markdown:
                    self.source.replace_all(change.text)
                edited = self.document.replace_all(self._visible(change.text))
            if incremental:
                self.walk = rewalk(self.walk, self.document.lines, edited)
        if not incremental:
            if self.checked:  # a measured full re-check starts cold (benchmarks/run.py)
                clear_parse_caches()
                self.document = Document(self.document.text)
            self.walk = walk(self.document.lines, self.cards)
            self.checked = True
        self.version = version

    def use_cards(self, cards: CardIndex | None) -> None:
        """Checks the whole document again with another card index (or none); a first check
        still going in steps stops, since this one is complete (features/documents.py)."""
        self.cards = cards
        self.walk = walk(self.document.lines, cards)
        self.checked = True

    # -- positions
    def to_column_position(
        self, position: types.Position, document: Document | None = None
    ) -> tuple[int, int]:
        document = document or self.document
        line = min(max(position.line, 0), len(document) - 1)
        if position.line >= len(document):
            return line, len(document.texts[line])
        return line, self.to_column(line, position.character, document)

    def to_column(self, line: int, character: int, document: Document | None = None) -> int:
        """A client position's character offset as a code-point column."""
        text = (document or self.document).texts[line]
        if self.encoding == types.PositionEncodingKind.Utf32:
            return min(character, len(text))
        units = 0
        for column, ch in enumerate(text):
            if units >= character:
                return column
            units += _units(ch, self.encoding)
        return len(text)

    def to_character(self, line: int, column: int) -> int:
        """A code-point column in the client's units. On a line that is not ASCII the
        conversion goes on from the previous one (semantic tokens and diagnostics ask
        for the columns of a line in order), so a whole line costs its length, not its
        length once a token."""
        text = self.document.texts[line] if 0 <= line < len(self.document) else ""
        column = min(max(column, 0), len(text))
        if text.isascii():  # most lines: one unit a character in every encoding
            return column
        cursor = self._cursor
        if cursor is not None and cursor[0] is text:
            _, at, units = cursor
            if column >= at:
                units += _units(text[at:column], self.encoding)
            else:
                units -= _units(text[column:at], self.encoding)
        else:
            units = _units(text[:column], self.encoding)
        self._cursor = (text, column, units)
        return units

    def range(self, line: int, span: t.Span) -> types.Range:
        return types.Range(
            start=types.Position(line=line, character=self.to_character(line, span.start)),
            end=types.Position(line=line, character=self.to_character(line, span.end)),
        )

    # -- what the walk knows
    def diagnostics(self, settings: Settings) -> list[Diagnostic]:
        """The walk's findings as diagnostics, placed once a walk and severity setting:
        hover and code actions ask on every request, and placing them is linear in the file."""
        effective = self.severities(settings)
        severities = tuple(sorted(effective.items(), key=lambda item: item[0]))
        cached = self._placed
        if cached is not None and cached[0] is self.walk and cached[1] == severities:
            return cached[2]
        placed = diagnostics(self.document, self.walk, effective)
        self._placed = (self.walk, severities, placed)
        return placed

    def state_before(self, line: int) -> GameState:
        return state_before(self.walk, self.document.lines, line)

    def state_after(self, line: int) -> GameState:
        return state_before(self.walk, self.document.lines, line + 1)

    def statement(self, line: int) -> t.Statement | None:
        if 0 <= line < len(self.document):
            return self.document.lines[line].parsed.statement
        return None


# while typing, whether the settings file changed is looked at no more often than this
SETTINGS_FILE_CHECK_SECONDS = 2.0
# a settings file and when it was written: (path, modification time, size)
_Stamp = tuple[Path, int, int]


def _settings_file(uri: str) -> _Stamp | None:
    """The settings file nearest a document on disk (config.py); none for unsaved ones."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path is None:
        return None
    try:
        found = config.find(Path(path))
        if found is None:
            return None
        status = found.stat()
    except OSError:
        return None
    return found, status.st_mtime_ns, status.st_size


def _load(stamp: _Stamp | None) -> config.Config:
    return config.load(stamp[0]) if stamp is not None else config.Config()


class Session:
    def __init__(self) -> None:
        self.documents: dict[str, OpenDocument] = {}
        self.settings = Settings()
        self.encoding: str = types.PositionEncodingKind.Utf16
        self.cards: CardIndex | None = None
        self.cards_path: str | None = None  # the file `cards` was opened from

    def apply_settings(self, settings: Settings) -> str | None:
        """Takes the client's settings; opens the card index they name (or the default one)
        and re-checks open documents when it changed. Returns why an index cannot be used."""
        self.settings = settings
        default = default_index_path()
        path = settings.cards_file or (str(default) if default.is_file() else None)
        if path == self.cards_path:
            return None
        problem = None
        try:
            cards = open_index(Path(path)) if path else None
        except CardFileError as error:
            cards, problem = None, f"mtgr: card index not used: {error}"
        self.cards, self.cards_path = cards, path if cards is not None else None
        for document in self.documents.values():
            document.use_cards(cards)
        return problem

    def open(self, uri: str, text: str, version: int | None, check: bool = True) -> OpenDocument:
        document = OpenDocument(uri, text, version, self.encoding, check, self.cards)
        self.documents[uri] = document
        return document

    def get(self, uri: str) -> OpenDocument | None:
        return self.documents.get(uri)

    def close(self, uri: str) -> None:
        self.documents.pop(uri, None)
