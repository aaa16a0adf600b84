"""The parse caches are bounded in bytes as well as entries, and what a document kept in them
is freed when it closes (issue 17 item 5)."""

from __future__ import annotations

import gc

from hypothesis import given, settings
from hypothesis import strategies as st

from mtgr.server.session import Session
from mtgr.syntax.cache import ParseCache, entry_cost
from mtgr.syntax.document import (
    LINES,
    SHAPES,
    Document,
    clear_parse_caches,
    parse_line,
    release_parse_caches,
)
from mtgr.syntax.parser import _shape

LONG = '#1 new card "' + "x" * 100_000 + '" hand "Alice"'
RECORD = 'mtgr 0.4\nplayer "Alice" deck 60\n' + LONG + '\n"Alice" draw #2 "Island"\n'


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.text("ab", min_size=1, max_size=6), st.integers(0, 3000)),
        max_size=60,
    ),
    st.integers(1, 20),
    st.integers(1, 20_000),
)
def test_the_byte_and_entry_bounds_hold_and_the_latest_entries_stay(
    puts: list[tuple[str, int]], max_entries: int, max_bytes: int
) -> None:
    cache: ParseCache[str] = ParseCache(max_entries, max_bytes)
    for key, length in puts:
        text = key + "y" * length
        assert cache.put(text, text.upper()) == text.upper()
        kept = [t for t in dict.fromkeys(k + "y" * n for k, n in puts) if t in cache]
        assert len(cache) <= max_entries and cache.bytes <= max_bytes
        assert cache.bytes == sum(entry_cost(t) for t in kept)
        # the newest entry stays unless it alone is over the bound
        assert (text in cache) == (entry_cost(text) <= max_bytes)
        assert cache.get(text) == (text.upper() if text in cache else None)


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: ParseCache[int] = ParseCache(max_entries=2, max_bytes=10**6)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the more recent
    cache.put("c", 3)
    assert "a" in cache and "b" not in cache and "c" in cache


def test_release_drops_what_the_owner_used_last_and_nothing_else() -> None:
    cache: ParseCache[int] = ParseCache(max_entries=100, max_bytes=10**6)
    first, second = object(), object()
    cache.put("mine", 1, first)
    cache.put("shared", 2, first)
    cache.put("theirs", 3, second)
    assert cache.get("shared", second) == 2  # the second document used it since
    cache.release(first)
    assert "mine" not in cache and "shared" in cache and "theirs" in cache
    assert cache.bytes == entry_cost("shared") + entry_cost("theirs")


def test_typing_into_a_long_line_keeps_the_caches_within_their_byte_bounds() -> None:
    document = Document(RECORD)
    typed = []
    for key in range(100):  # 100 versions at 400 KB each in the estimate: over the bound
        at = (2, 20 + key)
        document.edit(at, at, "y")
        typed.append(document.texts[2])
        assert LINES.bytes <= LINES.max_bytes and SHAPES.bytes <= SHAPES.max_bytes
    kept = sum(text in LINES for text in typed)
    assert 0 < kept <= LINES.max_bytes // entry_cost(LONG) < len(typed)
    assert typed[-1] in LINES and document.lines[2].parsed == parse_line(typed[-1])


def test_closing_a_document_frees_its_cache_entries_and_keeps_another_documents() -> None:
    session = Session()
    other = 'mtgr 0.4\nplayer "Bob" deck 60\n"Bob" draw #9 "Swamp" // only here\n'
    # the other document's line typed after it opened: a line opening parses is not kept in
    # the line cache (the document holds it), a line an edit made is
    session.open("file:///other.mtgr", other, 0).document.edit((2, 0), (2, 0), " ")
    others = (' "Bob" draw #9 "Swamp" // only here', _shape('"Bob" draw #9 "Swamp"'))
    long_line = '#3 new card "' + "z" * 50_000 + '" library "Alice"'  # no other test types it
    text = f'mtgr 0.4\nplayer "Alice" deck 60\n{long_line}\n"Alice" draw #4 "Plains"\n'
    opened = session.open("file:///long.mtgr", text, 0)
    typed = []
    for key in range(5):
        at = (2, 20 + key)
        opened.document.edit(at, at, "y")
        typed.append(opened.document.texts[2])
    assert typed[-1] in LINES and _shape(typed[-1]) in SHAPES
    session.close("file:///long.mtgr")
    only_here = (*typed, long_line, 'player "Alice" deck 60', '"Alice" draw #4 "Plains"')
    for line in only_here:
        assert line not in LINES and _shape(line) not in SHAPES
    assert others[0] in LINES and others[1] in SHAPES  # the other document's stay
    release_parse_caches(session.get("file:///other.mtgr").cache_owner)
    assert others[0] not in LINES and others[1] not in SHAPES


def test_a_line_that_does_not_parse_leaves_no_cyclic_garbage() -> None:
    """The server collects cycles only when idle, so garbage that only the cyclic collector
    frees piles up while the user types (it held 80 MB in a 900-edit session)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        clear_parse_caches()  # so the line's shape is parsed, not found
        parsed = parse_line('"Alice" frobnicate #1 "never seen before"')
        assert parsed.error is not None
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
