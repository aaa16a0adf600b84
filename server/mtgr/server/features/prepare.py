"""The first big answers about a long record, prepared while the server is idle.

An editor asks for the outline, the highlighting and the inlay hints of the whole file as
it opens one; on 50,000 lines each took 70 to 110 ms to build from nothing, the parts of
every later answer (kept per chunk of lines or per turn, and rebuilt only where an edit
changed them) included. Once a large document's first check has published, those parts
are built here, in steps of about a millisecond or two, each step yielding to whatever
message came meanwhile: a keystroke waits for one step at most. Nor does a step run while
the server writes to the client: the writing thread, blocked on a pipe the client reads in
blocks, needs the interpreter's lock after each block, and a step holds it (an answer of
megabytes asked for at once took three times as long to arrive). A request that arrives
before the end builds what is left itself; an edit ends the preparation (the answers
after an edit are built from what is kept, and the next check prepares again).

Only what the client said it asks for is prepared: an editor without inlay hints pays
neither the time nor the memory.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from mtgr.server.features import inlay_hints, semantic_tokens, symbols
from mtgr.server.transport import QueuedWriter

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

# about 1 to 2 ms of work a step on this machine's 50,000-line records
LINES_PER_STEP = 1000
# how long to wait before looking again whether the server has written what it had to:
# the first pause, and the longest (a client that reads slowly, or not at all)
WRITING_PAUSE_SECONDS = (0.005, 0.1)

# documents whose answers were prepared to the end (a later edit keeps most of them)
_PREPARED: weakref.WeakSet[OpenDocument] = weakref.WeakSet()
_PREPARING: weakref.WeakKeyDictionary[OpenDocument, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def prepare_soon(server: MtgrServer, document: OpenDocument) -> None:
    """Prepares the document's first big answers, unless they are or are being prepared."""
    if document in _PREPARED:
        return
    task = _PREPARING.get(document)
    if task is None or task.done():
        _PREPARING[document] = asyncio.ensure_future(prepare(server, document))


async def prepare(server: MtgrServer, document: OpenDocument) -> None:
    edits = document.edits

    def stale() -> bool:
        return (
            document.pending
            or document.edits != edits
            or server.session.get(document.uri) is not document
        )

    for steps in _wanted(server, document):
        while True:
            await asyncio.sleep(0)  # the messages that came first
            pause, longest = WRITING_PAUSE_SECONDS
            while _writing(server) and not stale():
                await asyncio.sleep(pause)
                pause = min(pause * 2, longest)
            if stale():
                return
            if next(steps, True):  # the last step is done
                break
    _PREPARED.add(document)
    server.collector.worked()


def _writing(server: MtgrServer) -> bool:
    writer = server.protocol.writer
    return isinstance(writer, QueuedWriter) and not writer.idle


def _wanted(server: MtgrServer, document: OpenDocument) -> Iterator[Iterator[None]]:
    """The preparations of what the client asks for, one after another (made lazily: each
    reads the document as it is when it starts)."""
    text_document = server.client_capabilities.text_document
    if text_document is None:
        return
    outline = text_document.document_symbol
    if outline is not None and outline.hierarchical_document_symbol_support:
        yield symbols.prepared_in_steps(document, LINES_PER_STEP)
    if text_document.semantic_tokens is not None:
        yield semantic_tokens.prepared_in_steps(document, LINES_PER_STEP)
    if text_document.inlay_hint is not None and document.settings.inlay_hints:
        yield inlay_hints.prepared_in_steps(document, LINES_PER_STEP)
