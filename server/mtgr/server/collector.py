"""Garbage collection between keystrokes, not during them.

Python's cyclic collector runs when allocations pass a threshold, and a walk over a long
record allocates (states, findings), so collections landed inside keystrokes and cost
more than the keystroke's own work (measured with benchmarks/session.py: 20-50 ms of a
25 ms edit on 10,000 lines with 3,000 diagnostics). Objects without cycles are still
freed at once by reference counting; only cyclic garbage waits for the next collection,
which runs once the server has been idle for IDLE_SECONDS, or at the end of a check when
very many objects were allocated since the last one.
"""

from __future__ import annotations

import asyncio
import gc

IDLE_SECONDS = 1.0
# allocations (less deallocations) since the last collection that make the next check's
# end collect even while the user types on
MOST_ALLOCATIONS = 2_000_000


class Collector:
    def __init__(self) -> None:
        self._idle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Freezes what the server has loaded (never garbage) and stops the collections
        that allocation counts trigger."""
        gc.collect()
        gc.freeze()
        gc.disable()

    def worked(self) -> None:
        """Called when a piece of work ends: collects later, once nothing else comes."""
        if gc.get_count()[0] > MOST_ALLOCATIONS:
            gc.collect()
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, gc.collect)
