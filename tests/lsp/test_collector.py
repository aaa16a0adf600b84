"""The server's garbage collection while idle (server/collector.py): the objects made since
the last collection, and all of them only after much growth or a document's close."""

from __future__ import annotations

import asyncio
import gc
import linecache
from collections.abc import Iterator

import attrs
import pytest

from mtgr.server.collector import Collector


def _full_collections() -> int:
    return gc.get_stats()[2]["collections"]


@pytest.fixture
def collector() -> Iterator[Collector]:
    enabled = gc.isenabled()
    collector = Collector()
    collector.start()
    try:
        yield collector
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_an_idle_collection_frees_young_cycles_without_a_full_collection(
    collector: Collector,
) -> None:
    full = _full_collections()
    for _ in range(100):
        _Cycle()
    collector.collect()
    assert _full_collections() == full
    assert gc.collect(1) == 0  # the cycles were freed


def test_a_full_collection_comes_once_the_kept_objects_grew_by_a_quarter(
    collector: Collector,
) -> None:
    full = _full_collections()
    kept = [[] for _ in range(int(gc.get_freeze_count() * 0.3) + 10)]
    collector.collect()
    assert _full_collections() == full + 1
    collector.collect()
    assert _full_collections() == full + 1  # not again: nothing grew since
    assert kept


def test_a_document_closed_is_collected_in_full_when_next_idle(collector: Collector) -> None:
    async def close_and_wait() -> None:
        collector.released()
        await asyncio.sleep(0)  # the idle timer is set, not run

    full = _full_collections()
    asyncio.run(close_and_wait())
    collector.collect()  # what the idle timer runs
    assert _full_collections() == full + 1


def test_starting_drops_the_generated_sources_attrs_keeps_for_tracebacks() -> None:
    @attrs.define
    class Made:
        value: int

    assert any(name.startswith("<attrs generated") for name in linecache.cache)
    enabled = gc.isenabled()
    try:
        Collector().start()
        assert not any(name.startswith("<attrs generated") for name in linecache.cache)
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()
    assert Made(1).value == 1
