"""The table of game objects by number, in two forms that share what did not change.

The walk reads and writes the working state's objects on every line, so the working
table is a plain dict (`ObjectTable`: reads at dict speed) that also remembers which
numbers changed since it was last frozen. A checkpoint keeps a `FrozenObjects`: the same
objects in a trie of small pages keyed by number, never changed. Freezing copies only the
pages on the path to a changed number and shares every other page with the table frozen
before, so 16 lines that draw one card each cost a few pages, not a copy of every object:
the checkpoints of a record grow with its length, not with its length times its objects.

The trie's shape depends only on the numbers it holds (no empty pages are kept), so two
frozen tables with equal objects are equal page for page, and comparing them skips every
page they share (dict equality takes an identical value as equal without looking in).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgr.rules.state import GameObject

PAGE_BITS = 5  # 32 numbers a page, 32 pages a section
_Page = dict[int, "GameObject"]
_Section = dict[int, _Page]


class FrozenObjects(Mapping[int, "GameObject"]):
    """An object table that never changes: sections of pages of objects, by number."""

    __slots__ = ("_sections", "_size")

    def __init__(self, sections: dict[int, _Section], size: int) -> None:
        self._sections = sections
        self._size = size

    def __getitem__(self, number: int) -> GameObject:
        return self._sections[number >> (2 * PAGE_BITS)][number >> PAGE_BITS][number]

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[int]:
        for section in self._sections.values():
            for page in section.values():
                yield from page

    def pages(self) -> Iterator[_Page]:
        for section in self._sections.values():
            yield from section.values()

    def page_of(self, number: int) -> _Page | None:
        """The page that holds (or would hold) `number`; None if there is none. With
        `sections`, what shows which parts two tables share (tests, measurements)."""
        section = self._sections.get(number >> (2 * PAGE_BITS))
        return None if section is None else section.get(number >> PAGE_BITS)

    def sections(self) -> Iterator[_Section]:
        return iter(self._sections.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectTable):
            other = other.frozen()
        if isinstance(other, FrozenObjects):
            return self._sections == other._sections
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def sharing(self, other: FrozenObjects) -> FrozenObjects:
        """This table, with every section and page that equals `other`'s taken from `other`
        (`other` itself when all are equal): a walk done again after an edit keeps what it
        finds equal to the walk before it once, not twice. Compares only what the two do
        not share already."""
        if self is other:
            return self
        mine, theirs = self._sections, other._sections
        same = len(mine) == len(theirs)
        sections: dict[int, _Section] = {}
        for key, section in mine.items():
            their_section = theirs.get(key)
            if section is their_section:
                sections[key] = section
                continue
            if their_section is None:
                sections[key] = section
                same = False
                continue
            pages: _Section = {}
            same_section = len(section) == len(their_section)
            for page_key, page in section.items():
                their_page = their_section.get(page_key)
                if their_page is not None and (page is their_page or page == their_page):
                    pages[page_key] = their_page
                else:
                    pages[page_key] = page
                    same_section = False
            sections[key] = their_section if same_section else pages
            same = same and same_section
        return other if same else FrozenObjects(sections, self._size)

    def thawed(self) -> ObjectTable:
        """A working table with these objects, which freezes again by sharing these pages."""
        table = ObjectTable()
        for page in self.pages():
            dict.update(table, page)
        table._base = self
        return table

    def with_changes(
        self, table: Mapping[int, GameObject], numbers: Iterable[int]
    ) -> FrozenObjects:
        """This table with the objects at `numbers` taken from `table` (gone where it has
        none): the path to each changed number is copied, every other page shared."""
        sections = dict(self._sections)
        copied_sections: set[int] = set()
        copied_pages: set[int] = set()
        size = self._size
        for number in numbers:
            obj = table.get(number)
            section_key, page_key = number >> (2 * PAGE_BITS), number >> PAGE_BITS
            section = sections.get(section_key)
            page = None if section is None else section.get(page_key)
            if obj is None and (page is None or number not in page):
                continue  # gone before and gone now
            if section is None:
                section = sections[section_key] = {}
            elif section_key not in copied_sections:
                section = sections[section_key] = dict(section)
            copied_sections.add(section_key)
            if page is None:
                page = section[page_key] = {}
            elif page_key not in copied_pages:
                page = section[page_key] = dict(page)
            copied_pages.add(page_key)
            if obj is not None:
                size += number not in page
                page[number] = obj
                continue
            size -= 1
            del page[number]
            if not page:  # no empty pages: the shape of the trie depends on its numbers only
                del section[page_key]
                if not section:
                    del sections[section_key]
        return FrozenObjects(sections, size)


_EMPTY = FrozenObjects({}, 0)


class ObjectTable(dict[int, "GameObject"]):
    """The working state's objects: a dict that remembers which numbers changed since it
    was last frozen, so that `frozen()` shares every untouched page with that frozen table."""

    __slots__ = ("_base", "_changed")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._base = _EMPTY
        self._changed: set[int] = set(self)

    def frozen(self) -> FrozenObjects:
        """These objects as a frozen table; costs what changed since the last call."""
        if self._changed:
            self._base = self._base.with_changes(self, self._changed)
            self._changed = set()
        return self._base

    def rebase(self, frozen: FrozenObjects) -> None:
        """Freezes from now on by sharing the pages of `frozen`, a table equal to these
        objects as `frozen()` just gave them (nothing changed since)."""
        assert not self._changed
        self._base = frozen

    def copy(self) -> ObjectTable:  # type: ignore[override]
        table = ObjectTable()
        dict.update(table, self)
        table._base = self._base
        table._changed = set(self._changed)
        return table

    # every way to change a dict, so that no change goes unremembered
    def __setitem__(self, number: int, obj: GameObject) -> None:
        dict.__setitem__(self, number, obj)
        self._changed.add(number)

    def __delitem__(self, number: int) -> None:
        dict.__delitem__(self, number)
        self._changed.add(number)

    def pop(self, number: int, *default: Any) -> Any:  # type: ignore[override]
        self._changed.add(number)
        return dict.pop(self, number, *default)

    def popitem(self) -> tuple[int, GameObject]:
        number, obj = dict.popitem(self)
        self._changed.add(number)
        return number, obj

    def setdefault(self, number: int, default: GameObject) -> GameObject:  # type: ignore[override]
        self._changed.add(number)
        return dict.setdefault(self, number, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        changes = dict(*args, **kwargs)
        dict.update(self, changes)
        self._changed.update(changes)

    def __ior__(self, other: Any) -> ObjectTable:  # type: ignore[override]
        self.update(other)
        return self

    def clear(self) -> None:
        self._changed.update(self)
        dict.clear(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenObjects):
            return other == self
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]
