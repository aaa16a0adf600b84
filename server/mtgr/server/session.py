"""Open documents, each with our own line store and the latest walk over it.

pygls keeps a TextDocument of its own that re-splits the whole text on every access; we
do not use it. Positions arrive in the client's negotiated encoding (UTF-16 by default)
and are turned into code-point columns here, once, so nothing below knows about them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
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
from mtgr.rules.walk import Walk, rewalk, rewalk_in_steps, state_before, walk
from mtgr.syntax import tree as t
from mtgr.syntax.document import (
    Document,
    clear_parse_caches,
    release_parse_caches,
    split_lines,
)
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
    # assumed for a record without a `perspective` line (decision 0080): a name, "" for all
    perspective: str | None = None
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
        perspective = value.get("perspective")
        if isinstance(perspective, str) and perspective.strip():
            settings.perspective = config.perspective(perspective)
        elif perspective not in (None, ""):
            settings.warnings.append(
                f"mtgr.perspective must be a player's name or {config.ALL_PLAYERS!r}, "
                f"not {perspective!r}"
            )
        if isinstance(value.get("incremental"), bool):
            settings.incremental = value["incremental"]
        hints = value.get("inlayHints")
        if isinstance(hints, Mapping) and isinstance(hints.get("enabled"), bool):
            settings.inlay_hints = hints["enabled"]
        return settings


def assumed_perspective(settings: Settings, project: config.Config) -> str | None:
    """The perspective assumed until a record declares its own: the editor's
    `mtgr.perspective`, else the project file's `perspective` (decision 0080)."""
    return settings.perspective if settings.perspective is not None else project.perspective


_Severities = tuple[tuple[str, Severity | None], ...]
_EVERYTHING = (0, 1 << 62, True)


class OpenDocument:
    def __init__(
        self,
        uri: str,
        text: str,
        version: int | None,
        encoding: str,
        check: bool = True,
        cards: CardIndex | None = None,
        settings: Settings | None = None,
        project: tuple[_Stamp | None, config.Config] | None = None,
    ) -> None:
        self.uri = uri
        self.cards = cards
        # the client's settings for the document's workspace folder (Session.settings_for)
        self.settings = settings or Settings()
        self.version = version
        self.encoding = encoding
        self.is_markdown = uri.lower().endswith((".md", ".markdown"))
        # every Document of this one keeps its parses for this owner, freed on close
        self.cache_owner = object()
        self.document = Document(self._visible(text), self.cache_owner)
        self.source = Document(text, self.cache_owner) if self.is_markdown else self.document
        # the project settings file (config.py) and what it says; given by Session.open,
        # which needs it first to choose the card index
        self._settings_file, self.config = project or _project(uri)
        self._settings_checked = time.monotonic()
        # False until the document's first walk is done (a large one is walked in steps)
        self.checked = check
        assumed = assumed_perspective(self.settings, self.config)
        self._walk: Walk = (
            walk(self.document.lines, cards, assumed)
            if check
            else Walk(cards=cards, perspective=assumed)
        )
        # the lines edits changed since the walk: (first, last) in today's numbers; the
        # walk is brought up to date by steps (features/documents.py) or on first use
        self._pending: tuple[int, int] | None = None if check else (0, len(self.document))
        self.edits = 0  # edits applied so far: steps of an older edit see they are stale
        self.steps: _Steps | None = None  # the steps under way, if any
        # the lines the edits since take_touched() may have changed: (first, last, whether
        # lines below moved), in today's numbers; None: no edit since
        self._touched: tuple[int, int, bool] | None = _EVERYTHING
        # the ids of the lines around those edits, some of which they replaced
        self._replaced: list[int] = []
        # the last position to_character converted: (line text, column, units)
        self._cursor: tuple[str, int, int] | None = None
        # the diagnostics last placed, with the walk and severities they were placed for
        self._placed: tuple[Walk, _Severities, list[Diagnostic]] | None = None

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
    # -- the walk
    @property
    def walk(self) -> Walk:
        """The walk over today's text. While the first walk goes in steps, the part done so
        far (its checkpoints save walking from the top; what lies below is walked from the
        last of them). After an edit whose steps have not ended, finished here and now."""
        if self._pending is None:
            return self._walk
        if not self.checked:
            return self.steps.partial if self.steps is not None else self._walk
        self._walk = rewalk(self._walk, self.document.lines, *self._pending)
        self._pending = None
        return self._walk

    @property
    def assumed_perspective(self) -> str | None:
        """The perspective the document's walk assumes until the record declares one."""
        return self._walk.perspective

    @property
    def pending(self) -> bool:
        """Whether edits wait for the walk."""
        return self._pending is not None

    def walk_in_steps(self, first_step: int, lines_per_step: int) -> _Steps:
        """Steps that bring the walk up to date, pausing after `first_step` lines past the
        edits and then every `lines_per_step`; they stop counting once another edit comes."""
        assert self._pending is not None
        first, last = self._pending
        self.steps = _Steps(self, first, last, first_step, lines_per_step)
        return self.steps

    # -- edits
    def change(
        self,
        changes: list[types.TextDocumentContentChangeEvent],
        version: int | None,
        incremental: bool = True,
    ) -> None:
        """Applies the changes in order and brings the walk up to date."""
        self.apply(changes, version)
        if not incremental:
            self._touch(*_EVERYTHING)
            if self.checked:  # a measured full re-check starts cold (benchmarks/run.py)
                clear_parse_caches()
                self.document = Document(self.document.text, self.cache_owner)
            self._walk = walk(self.document.lines, self.cards, self._walk.perspective)
            self._pending = None
            self.checked = True
        elif self.checked:
            _ = self.walk

    def apply(
        self, changes: list[types.TextDocumentContentChangeEvent], version: int | None
    ) -> None:
        """Applies the changes to the text only; the walk follows later (see `walk`), so
        that changes arriving faster than they are checked are checked once, together."""
        for change in changes:
            before = len(self.document)
            if isinstance(change, types.TextDocumentContentChangePartial):
                start = self.to_column_position(change.range.start, self.source)
                end = self.to_column_position(change.range.end, self.source)
                lines = self.source.lines
                self._replaced += [line.id for line in lines[max(start[0] - 1, 0) : end[0] + 2]]
                edited = self.source.edit(start, end, change.text)
                if self.is_markdown:
                    self.document.replace_all(mtgr_blocks(self.source.text))
                    self._touch(*_EVERYTHING)
                    self._pend_everything()
                    continue
                # one line more on each side: the edit may join or split a line break
                # there (syntax/document.py)
                breaks = len(split_lines(change.text)) - 1
                moved = len(self.document) - before
                self._touch(max(0, min(start[0], edited) - 1), start[0] + breaks + 1, moved != 0)
                self._pend(min(edited, max(start[0] - 1, 0)), end[0] + 1, end[0] + 1 + moved, moved)
            else:
                if self.is_markdown:
                    self.source.replace_all(change.text)
                self.document.replace_all(self._visible(change.text))
                self._touch(*_EVERYTHING)
                self._pend_everything()
        self.edits += 1
        self._placed = None
        self.version = version

    def _pend_everything(self) -> None:
        self._pending = (0, len(self.document))

    def _pend(self, first: int, old_last: int, new_last: int, moved: int) -> None:
        """Adds an edit of lines [first, old_last] (now [first, new_last]) to the pending."""
        if self._pending is not None:
            pending_first, pending_last = self._pending
            first = min(first, pending_first)
            # the lines after the edit moved; a pending line inside it is inside its new text
            new_last = max(new_last, pending_last + moved if pending_last > old_last else new_last)
        self._pending = (first, new_last)

    def _finish(self, steps: _Steps, result: Walk) -> None:
        if self.steps is steps:
            self.steps = None
        if steps.edits == self.edits and self._pending is not None:
            self._walk = result
            self._pending = None
            self.checked = True

    def _touch(self, first: int, last: int, moved: bool) -> None:
        if self._touched is not None:
            old_first, old_last, old_moved = self._touched
            # an earlier edit's lines may have moved since: keep the widest reading
            first, last = min(first, old_first), max(last, old_last)
            moved = moved or old_moved
            if moved:
                last = _EVERYTHING[1]
        self._touched = (first, last, moved)

    def take_touched(self) -> tuple[int, int, bool, list[int]] | None:
        """What the edits since the last call may have changed, for whoever keeps things
        per line (features/diagnostics.py): (first, last, whether lines below moved, the ids
        of the lines around the edits, which may be gone now); forgets it."""
        touched, self._touched = self._touched, None
        replaced, self._replaced = self._replaced, []
        return None if touched is None else (*touched, replaced)

    def use(self, cards: CardIndex | None, perspective: str | None) -> None:
        """Checks the whole document again with another card index (or none) or assumed
        perspective; a first check still going in steps stops, since this one is complete
        (features/documents.py)."""
        self.cards = cards
        self._walk = walk(self.document.lines, cards, perspective)
        self._pending = None
        self._touch(*_EVERYTHING)
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

    def counts_characters(self, text: str) -> bool:
        """Whether the client counts a line's columns in characters: an ASCII line, or one
        whose characters are each one unit (a card name with an accent, in UTF-16), so the
        answers written for the columns of ASCII lines serve it too."""
        return text.isascii() or _units(text, self.encoding) == len(text)

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
    path = fs_path(uri)
    if path is None:
        return None
    try:
        found = config.find(path)
        if found is None:
            return None
        status = found.stat()
    except OSError:
        return None
    return found, status.st_mtime_ns, status.st_size


def _load(stamp: _Stamp | None) -> config.Config:
    return config.load(stamp[0]) if stamp is not None else config.Config()


def _project(uri: str) -> tuple[_Stamp | None, config.Config]:
    stamp = _settings_file(uri)
    return stamp, _load(stamp)


def fs_path(uri: str) -> Path | None:
    """The file a `file:` URI names; None for unsaved documents and other schemes."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(path) if path else None


class _Steps:
    """A walk brought up to date in steps (walk.rewalk_in_steps); iterate for (lines done,
    partial walk) after each step. They end early when another edit comes, and the walk
    is the document's only when they ran to the end with no edit meanwhile."""

    def __init__(
        self, document: OpenDocument, first: int, last: int, first_step: int, per_step: int
    ) -> None:
        self.document = document
        self.edits = document.edits
        self.partial = document._walk
        self._steps = rewalk_in_steps(
            document._walk, document.document.lines, first, last, first_step, per_step
        )

    @property
    def stale(self) -> bool:
        return self.document.edits != self.edits or not self.document.pending

    def __iter__(self) -> Iterator[tuple[int, Walk]]:
        for done, partial in self._steps:
            self.partial = partial
            if self.stale:
                return
            if done >= len(self.document.document):
                self.document._finish(self, self.partial)
                return
            yield done, self.partial


class Session:
    """The open documents and the client's settings: its global ones, and those of each
    workspace folder (multi-root workspaces), each document taking its folder's."""

    def __init__(self) -> None:
        self.documents: dict[str, OpenDocument] = {}
        self.settings = Settings()  # for documents outside every workspace folder
        # each workspace folder with its own settings (None: the global ones)
        self.folders: dict[Path, Settings | None] = {}
        self.encoding: str = types.PositionEncodingKind.Utf16
        self._indexes: dict[str, CardIndex | None] = {}  # card indexes opened, by path
        self.problems: list[str] = []  # card files that could not be used, to tell the user
        self.pushes = 0  # how many times the client sent its settings unasked
        self.warnings_shown: list[str] = []  # what the settings' warnings last told the user

    # -- workspace folders and settings
    def folder_of(self, uri: str) -> Path | None:
        """The innermost workspace folder holding the document, if any."""
        path = fs_path(uri)
        if path is None:
            return None
        holding = [f for f in self.folders if path == f or path.is_relative_to(f)]
        return max(holding, key=lambda f: len(f.parts)) if holding else None

    def settings_for(self, uri: str) -> Settings:
        folder = self.folder_of(uri)
        settings = self.folders.get(folder) if folder is not None else None
        return settings or self.settings

    def set_folders(self, folders: list[Path]) -> None:
        self.folders = {folder: self.folders.get(folder) for folder in folders}

    def apply_settings(
        self, settings: Settings | None, folders: Mapping[Path, Settings | None] | None = None
    ) -> None:
        """Takes the client's global settings (None: keep them) and those of the folders
        given; each open document takes its folder's, and is checked again with another card
        index when they (or its project file) name another one."""
        if settings is not None:
            self.settings = settings
        for folder, folder_settings in (folders or {}).items():
            if folder in self.folders:
                self.folders[folder] = folder_settings
        for document in self.documents.values():
            self.refresh(document)

    def refresh(self, document: OpenDocument) -> None:
        """Gives the document its folder's settings, and the card index and assumed
        perspective they and its project file name."""
        document.settings = self.settings_for(document.uri)
        cards = self.cards_for(document.settings, document.config)
        perspective = assumed_perspective(document.settings, document.config)
        if cards is not document.cards or perspective != document.assumed_perspective:
            document.use(cards, perspective)

    def cards_for(self, settings: Settings, project: config.Config) -> CardIndex | None:
        """The editor's `mtgr.cardsFile`, else the project file's `cards-file`, else the
        index `mtgr cards import` made, if any; each opened once."""
        if settings.cards_file:
            path: str | None = settings.cards_file
        elif project.cards_file is not None:
            path = str(project.cards_file)
        else:
            default = default_index_path()
            path = str(default) if default.is_file() else None
        if path is None:
            return None
        if path not in self._indexes:
            try:
                self._indexes[path] = open_index(Path(path).expanduser())
            except CardFileError as error:
                self._indexes[path] = None
                self.problems.append(f"mtgr: card index not used: {error}")
        return self._indexes[path]

    def forget_failed_cards(self) -> None:
        """Tries the card files that could not be used again when next asked (after a
        settings change: one may be there now)."""
        self._indexes = {path: cards for path, cards in self._indexes.items() if cards}

    def take_problems(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    # -- documents
    def open(self, uri: str, text: str, version: int | None, check: bool = True) -> OpenDocument:
        settings = self.settings_for(uri)
        project = _project(uri)
        cards = self.cards_for(settings, project[1])
        document = OpenDocument(
            uri, text, version, self.encoding, check, cards, settings=settings, project=project
        )
        self.documents[uri] = document
        return document

    def get(self, uri: str) -> OpenDocument | None:
        return self.documents.get(uri)

    def close(self, uri: str) -> None:
        document = self.documents.pop(uri, None)
        if document is not None:
            release_parse_caches(document.cache_owner)
