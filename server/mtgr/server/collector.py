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
import linecache
import os
import sys

IDLE_SECONDS = 1.0
# allocations (less deallocations) since the last collection that make the next check's
# end collect even while the user types on
MOST_ALLOCATIONS = 2_000_000
# the growth of the objects kept, against how many there were, that makes a full collection
FULL_COLLECTION_GROWTH = 0.25


# glibc's mallopt parameter (malloc.h): how many heaps (arenas) threads may use
_M_ARENA_MAX = -8


def share_one_heap() -> None:
    """Has the server's threads take their memory from one glibc heap (Linux with glibc;
    elsewhere, or with MALLOC_ARENA_MAX set by the user, nothing changes).

    glibc gives each thread that allocates a heap (arena) of its own, and the memory freed
    in one stays resident for that thread's next allocations. Ours are few and big: the
    reading thread takes a didOpen or a paste of megabytes, the writing thread frames
    publishes of megabytes, and each kept that much resident beside the main heap. The
    threads never allocate at once (the interpreter's lock), so one heap costs no
    waiting. Measured on the server's VmHWM over a 900-edit session on the 50,000-line
    assembled record (benchmarks.memory's session): open 111 to 109 MB, peak 142 to 139
    MB. A fixed
    M_MMAP_THRESHOLD saved 2 MB more but cost a fifth more CPU time per keystroke
    (blocks mapped and trimmed again on every walk), so it is not set."""
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_ARENA_MAX"):
        return
    import ctypes  # here: only a server that starts pays for it

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(_M_ARENA_MAX, 1)


class Collector:
    def __init__(self) -> None:
        self._idle: asyncio.TimerHandle | None = None
        self._objects = 0  # about how many objects were kept after the last full collection
        self._grown = 0  # about how many young objects were kept since

    def start(self) -> None:
        """Freezes what the server has loaded (never garbage) and stops the collections
        that allocation counts trigger. attrs keeps the source of every method it generates
        in linecache, for tracebacks: for lsprotocol's classes that is about 2 MB a server
        holds for ever, so it goes here (a traceback still names the file and line)."""
        share_one_heap()
        linecache.clearcache()
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
