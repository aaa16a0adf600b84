"""Garbage collection between keystrokes, not during them, and mostly of young objects.

Python's cyclic collector runs when allocations pass a threshold, and a walk over a long
record allocates (states, findings), so collections landed inside keystrokes and cost
more than the keystroke's own work (measured with benchmarks/session.py: 20-50 ms of a
25 ms edit on 10,000 lines with 3,000 diagnostics). Objects without cycles are still
freed at once by reference counting; only cyclic garbage waits for the next collection,
which runs once the server has been idle for IDLE_SECONDS, or at the end of a check when
very many objects were allocated since the last one.

That collection looks at the objects made since the one before (generations 0 and 1): a
few milliseconds after an edit. A full collection looks at every object the open
records hold (170-390 ms with 50,000 lines, and a request that arrives meanwhile waits
for it) and found nothing to free after edits, so it runs only as CPython itself would
run one: once the objects kept since the last have grown by a quarter of those there were,
and after a document closes.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys

IDLE_SECONDS = 1.0
# allocations (less deallocations) since the last collection that make the next check's
# end collect even while the user types on
MOST_ALLOCATIONS = 2_000_000
# the growth of the objects kept, against how many there were, that makes a full collection
FULL_COLLECTION_GROWTH = 0.25


# glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
# blocks at least this large are mapped on their own, and returned to the system when freed
MAPPED_BLOCK_BYTES = 128 * 1024


def settle_allocator() -> None:
    """Has glibc return the server's large passing buffers to the system when they are
    freed, and keep the threads' small blocks in one heap (Linux with glibc; elsewhere
    nothing changes; MALLOC_MMAP_THRESHOLD_ / MALLOC_ARENA_MAX set by the user win).

    A publish is megabytes joined on the writing thread, a didOpen or a paste megabytes
    read on the reading thread. glibc maps a block above 128 KB on its own, but once one
    such is freed it raises that threshold to its size, so from then on those buffers are
    carved from a heap, each thread's its own (an arena per thread), where what is freed
    stays resident among what is kept. Measured with /work/helpers/memtrace.py (a
    900-edit session on the 50,000-line assembled record): the peak fell from 144 to
    about 136 MB, the open from 111 to 109 MB."""
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_MMAP_THRESHOLD_"):
        return
    import ctypes  # here: only a server that starts pays for it

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(_M_MMAP_THRESHOLD, MAPPED_BLOCK_BYTES)  # fixed: no longer raised by frees
    if not os.environ.get("MALLOC_ARENA_MAX"):
        mallopt(_M_ARENA_MAX, 1)


class Collector:
    def __init__(self) -> None:
        self._idle: asyncio.TimerHandle | None = None
        self._objects = 0  # about how many objects were kept after the last full collection
        self._grown = 0  # about how many young objects were kept since

    def start(self) -> None:
        """Freezes what the server has loaded (never garbage) and stops the collections
        that allocation counts trigger."""
        settle_allocator()
        gc.collect()
        gc.freeze()
        gc.disable()
        self._objects = gc.get_freeze_count()
        self._grown = 0

    def worked(self) -> None:
        """Called when a piece of work ends: collects later, once nothing else comes."""
        if gc.get_count()[0] > MOST_ALLOCATIONS:
            self.collect()
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self.collect)

    def released(self) -> None:
        """Called when a document closes: what it held is old, and collected in full when
        the server is next idle (what a cycle among it holds is not left for later)."""
        self._grown = max(self._grown, int(self._objects * FULL_COLLECTION_GROWTH) + 1)
        self.worked()

    def collect(self) -> None:
        """Collects the young objects, and every object when those kept since the last full
        collection have grown past FULL_COLLECTION_GROWTH of it."""
        young = gc.get_count()[0]
        if self._grown + young > self._objects * FULL_COLLECTION_GROWTH:
            found = gc.collect()
            self._objects = max(self._objects + self._grown + young - found, 1)
            self._grown = 0
        else:
            self._grown += max(young - gc.collect(1), 0)
