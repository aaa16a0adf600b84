"""The server lives as long as its client: LSP's `processId` names the process that
started it, and when that process is gone the server exits, even if a pipe it holds
open (shared with another process) never closes.

The watch is a thread, not an event-loop task, so that it fires while the loop is busy
with a long check."""

from __future__ import annotations

import logging
import os
import threading
import time

logger = logging.getLogger(__name__)

CHECK_EVERY_SECONDS = 2.0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0 checks without signalling
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, but another user's
    return True


def watch_client(pid: int | None) -> threading.Thread | None:
    """Starts watching; only on POSIX, where signal 0 asks without harm (on Windows
    `os.kill` would end the process it names), and only a process visible from here (a
    client in another container sends a pid this one cannot see)."""
    if pid is None or pid <= 0 or pid == os.getpid() or os.name != "posix" or not alive(pid):
        return None
    watch = threading.Thread(target=_watch, args=(pid,), name="mtgr-client-watch", daemon=True)
    watch.start()
    return watch


def _watch(pid: int) -> None:
    while alive(pid):
        time.sleep(CHECK_EVERY_SECONDS)
    logger.error("the client (process %d) is gone: exiting", pid)
    os._exit(1)  # the read loop may be blocked on a pipe that never closes
