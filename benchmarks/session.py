"""Editing sessions as a person makes them, through the real server over stdio, with a
do-nothing pygls server (benchmarks/floor.py) driven by the same client in the same run.

A session is several hundred didChanges: typing whole lines a character at a time, typing
and deleting inside card names, pasting 20 lines from later in the record, inserting and
deleting 20 lines, a typo near the top and its backspace, and undo/redo of each. They run
on three kinds of record: generated (benchmarks/generate.py), the examples' games
assembled and renumbered so numbers only go up (no diagnostics at open), and the examples
concatenated as they are (thousands of diagnostics). A typing burst sends keys 40 ms
apart without waiting and measures how far the diagnostics for the last key lag behind it.

The client is raw JSON-RPC: it parses each message as an editor must, but builds no
objects from it, so that what is measured is the server, not a client library.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.generate import generate

ROOT = Path(__file__).resolve().parent.parent
MTGR = (sys.executable, "-m", "mtgr", "lsp")
FLOOR = (sys.executable, "-m", "benchmarks.floor")
# What the client says it can do, as VS Code says it: diagnostics with their related
# places and explanation links (the server sends only what is taken). A client declares
# what it asks for, as an editor does: the server prepares the big answers' parts while
# idle only for a client that asks for them (features/prepare.py). The editing sessions
# ask for diagnostics alone.
CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        "publishDiagnostics": {
            "relatedInformation": True,
            "versionSupport": False,
            "tagSupport": {"valueSet": [1, 2]},
            "codeDescriptionSupport": True,
            "dataSupport": True,
        },
    },
}
# ...the big requests the outline (as a tree), highlighting, folds and inlay hints too
ASKING_CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        **CAPABILITIES["textDocument"],
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "semanticTokens": {
            "requests": {"full": {"delta": True}, "range": True},
            "tokenTypes": [],
            "tokenModifiers": [],
            "formats": ["relative"],
        },
        "inlayHint": {},
        "foldingRange": {},
    },
}


# -- the client


@dataclass
class Published:
    version: int | None
    count: int
    at: float
    size: int  # the message's bytes


class RawClient:
    """One server process; requests by id, diagnostics per document in a queue."""

    def __init__(
        self, command: tuple[str, ...], capabilities: dict[str, Any] | None = None
    ) -> None:
        self.command = command
        self.capabilities = CAPABILITIES if capabilities is None else capabilities
        self._next_id = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.published: dict[str, asyncio.Queue[Published]] = {}
        self.last_size = 0  # bytes of the last response body
        # when the last response's body had arrived, and how long parsing it took here
        self.answered_at = 0.0
        self.last_parse = 0.0
        self.publish_parses: list[float] = []  # how long parsing each publish took here

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=ROOT,
            limit=2**26,
        )
        self._reader = asyncio.create_task(self._read())
        await self.request("initialize", {"processId": None, "capabilities": self.capabilities})
        self.notify("initialized", {})

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = 0
            while True:
                header = await stdout.readline()
                if not header:
                    return
                if header == b"\r\n":
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = await stdout.readexactly(length)
            arrived = time.perf_counter()
            message = json.loads(body)
            parsed = time.perf_counter()
            if "method" in message and "id" in message:  # a request from the server
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.publish_parses.append(parsed - arrived)
                params = message["params"]
                queue = self.published.setdefault(params["uri"], asyncio.Queue())
                queue.put_nowait(
                    Published(params.get("version"), len(params["diagnostics"]), arrived, length)
                )
            elif "id" in message and message["id"] in self._pending:
                self.last_size = length
                self.answered_at, self.last_parse = arrived, parsed - arrived
                self._pending.pop(message["id"]).set_result(message.get("result"))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[self._next_id] = future
        self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return await asyncio.wait_for(future, timeout=600)

    async def diagnostics_for(self, uri: str, version: int, first: bool = False) -> Published:
        """The diagnostics published for `version`; with `first`, also those of a re-check
        still under way (published without a version), whichever comes first."""
        queue = self.published.setdefault(uri, asyncio.Queue())
        while True:
            published = await asyncio.wait_for(queue.get(), timeout=600)
            if published.version == version or (first and published.version is None):
                return published

    def open(self, uri: str, text: str) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "mtgr", "version": 0, "text": text}},
        )

    def change(self, uri: str, version: int, change: dict[str, Any]) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )

    def cpu_seconds(self) -> float | None:
        """CPU time the server's threads have had so far (Linux's schedstat; None where
        there is none): unlike wall-clock time, it does not count waiting for a core."""
        tasks = Path(f"/proc/{self.process.pid}/task")
        if not tasks.is_dir():
            return None
        total = 0
        for task in tasks.iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
        return total / 1e9

    async def settle(self, at_least: float) -> float | None:
        """Waits `at_least` seconds and then until the server stops using CPU time (it may
        be collecting garbage); returns the CPU time it used meanwhile, None where unknown."""
        start = self.cpu_seconds()
        await asyncio.sleep(at_least)
        last = self.cpu_seconds()
        if start is None or last is None:
            return None
        for _ in range(100):  # at most 10 s more
            await asyncio.sleep(0.1)
            now = self.cpu_seconds() or last
            if now - last < 0.002:
                break
            last = now
        return last - start

    def peak_memory_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    async def stop(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        await self.process.wait()
        self._reader.cancel()


# -- the records

_HEADER = re.compile(r"^(mtgr|title|rules|player|perspective)\b")
_NUMBER = re.compile(r"#(\d+)")
# A record of deliberate mistakes; records seen by everyone are left out as well, since
# the assembled match is seen from Alice's seat.
_NOT_ASSEMBLED = ("mistakes.mtgr",)
_ROLL = re.compile(r'"[^"]*" roll ')
_START = re.compile(r'^(start "[^"]*" by )"[^"]*"')
_LOSS = re.compile(r'^"([^"]*)" (?:concede|lose)\b')


def _examples() -> list[tuple[str, list[str], list[str]]]:
    """Each example as (file name, header lines, body lines)."""
    games = []
    for path in sorted((ROOT / "examples").glob("*.mtgr")):
        lines = path.read_text(encoding="utf-8").split("\n")
        start = 0
        while start < len(lines) and _HEADER.match(lines[start]):
            start += 1
        games.append((path.name, lines[:start], lines[start:]))
    return games


def assembled(lines: int) -> str:
    """The examples' games as one match from Alice's seat: `game N` between them, object
    numbers shifted so they only go up, a record from Bob's seat with the players' names
    swapped. Checks clean."""
    out: list[str] = []
    offset = 0
    game = 0
    loser = None  # of the game before: who chooses the next game's starting player (103.1)
    examples = [
        (head, body)
        for name, head, body in _examples()
        if name not in _NOT_ASSEMBLED and "perspective all" not in head and _one_duel(head, body)
    ]
    while len(out) < lines:
        for head, body in examples:
            if 'perspective "Bob"' in head:
                body = [
                    line.replace('"Alice"', "\0").replace('"Bob"', '"Alice"').replace("\0", '"Bob"')
                    for line in body
                ]
            if not out:
                out += [line for line in head if not line.startswith("perspective")]
                out.append('perspective "Alice"')
            game += 1
            if game > 1:  # a later game of the match: its starting player is chosen, not rolled
                out.append(f"game {game}")
                body = [line for line in body if not _ROLL.match(line)]
                if loser is not None:
                    body = [_START.sub(rf'\1"{loser}"', line) for line in body]
            losses = [m.group(1) for line in body if (m := _LOSS.match(line))]
            loser = losses[-1] if losses else None
            out += [_shifted(line, offset) for line in body]
            offset += max((int(n) for line in body for n in _NUMBER.findall(line)), default=0)
            if len(out) >= lines:
                break
    return "\n".join(out) + "\n"


def _one_duel(head: list[str], body: list[str]) -> bool:
    """Whether an example is one two-player game between Alice and Bob with 60-card decks:
    the Commander, multiplayer and match examples cannot be joined into one match from
    Alice's seat, nor a Limited game of 40-card decks."""
    players = {line.split('"')[1] for line in head if line.startswith("player ")}
    decks = {line.split()[-1] for line in head if line.startswith("player ") and " deck " in line}
    structured = any(line.startswith(("game ", "match ", "variant ")) for line in head + body)
    return players == {"Alice", "Bob"} and decks <= {"60"} and not structured


def _shifted(line: str, offset: int) -> str:
    return _NUMBER.sub(lambda m: f"#{int(m.group(1)) + offset}", line)


def as_is(lines: int) -> str:
    """The example files one after another as they are: every header after the first, every
    reused object number is a finding (thousands of diagnostics)."""
    out: list[str] = []
    while len(out) < lines:
        for _name, head, body in _examples():
            out += head + body
            if len(out) >= lines:
                break
    return "\n".join(out) + "\n"


RECORDS = {
    "generated": lambda lines: generate(lines, seed=7),
    "assembled": assembled,
    "as-is": as_is,
}


# -- the edits


def _units(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


@dataclass
class Mirror:
    """The client's copy of the text, to place each edit in UTF-16 positions."""

    lines: list[str]

    def position(self, line: int, column: int) -> dict[str, int]:
        return {"line": line, "character": _units(self.lines[line][:column])}

    def edit(self, start: tuple[int, int], end: tuple[int, int], text: str) -> dict[str, Any]:
        change = {
            "range": {"start": self.position(*start), "end": self.position(*end)},
            "text": text,
        }
        before = self.lines[start[0]][: start[1]]
        after = self.lines[end[0]][end[1] :]
        self.lines[start[0] : end[0] + 1] = (before + text + after).split("\n")
        return change

    def text_between(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        if start[0] == end[0]:
            return self.lines[start[0]][start[1] : end[1]]
        middle = self.lines[start[0] + 1 : end[0]]
        return "\n".join([self.lines[start[0]][start[1] :], *middle, self.lines[end[0]][: end[1]]])


Edit = tuple[str, dict[str, Any]]

TYPE_LINE = "typing a new line, a key at a time"
IN_NAME = "typing and deleting inside a card name"
PASTE = "pasting 20 lines from later"
INSERT = "inserting 20 lines"
DELETE = "deleting 20 lines"
TYPO = "a typo near the top, and its backspace"
UNDO = "undo and redo"
KINDS = (TYPE_LINE, IN_NAME, PASTE, INSERT, DELETE, TYPO, UNDO)


def session(text: str, count: int, seed: int) -> list[Edit]:
    """`count` edits of the mix, each labelled with its kind."""
    rng = random.Random(seed)
    mirror = Mirror(text.split("\n"))
    edits: list[Edit] = []
    operations = (_type_line, _in_name, _paste, _insert, _delete, _typo)
    weights = (3, 4, 1, 1, 1, 2)
    while len(edits) < count:
        operation = rng.choices(operations, weights)[0]
        edits += operation(mirror, rng)
    return edits[:count]


def _somewhere(mirror: Mirror, rng: random.Random, room: int = 0) -> int:
    return rng.randrange(max(1, len(mirror.lines) - 1 - room))


def _undo_redo(
    mirror: Mirror, start: tuple[int, int], end: tuple[int, int], text: str, rng: random.Random
) -> Iterator[Edit]:
    """Undo of an edit that put `text` at `start` (now ending at `end`); sometimes redo
    it and undo it again."""
    yield UNDO, mirror.edit(start, end, "")
    if rng.random() < 0.5:
        yield UNDO, mirror.edit(start, start, text)
        yield UNDO, mirror.edit(start, end, "")


def _type_line(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """A new line after line i, typed like one a few lines below it."""
    line = _somewhere(mirror, rng, 60)
    model = mirror.lines[line + rng.randint(1, 50)] or "// a note"
    end = len(mirror.lines[line])
    edits = [(TYPE_LINE, mirror.edit((line, end), (line, end), "\n"))]
    for column, character in enumerate(model):
        edits.append((TYPE_LINE, mirror.edit((line + 1, column), (line + 1, column), character)))
    if rng.random() < 0.5:
        edits += _undo_redo(mirror, (line, end), (line + 1, len(model)), "\n" + model, rng)
    return edits


def _in_name(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """Backspacing three characters inside a quoted card name and typing them again."""
    for _ in range(50):
        line = _somewhere(mirror, rng)
        text = mirror.lines[line]
        found = re.search(r'#\d+ "([^"]{4,})"', text)
        if found:
            break
    else:
        return _typo(mirror, rng)
    end = rng.randint(found.start(1) + 3, found.end(1))
    removed = text[end - 3 : end]
    edits = [(IN_NAME, mirror.edit((line, end - k - 1), (line, end - k), "")) for k in range(3)]
    for k, character in enumerate(removed):
        at = (line, end - 3 + k)
        edits.append((IN_NAME, mirror.edit(at, at, character)))
    return edits


def _paste(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """20 lines copied from later in the record, pasted at the start of a line; undone half
    the time (a kept paste leaves its findings for the rest of the session)."""
    line = _somewhere(mirror, rng, 200)
    source = rng.randint(line + 1, len(mirror.lines) - 21)
    block = "\n".join(mirror.lines[source : source + 20]) + "\n"
    edits = [(PASTE, mirror.edit((line, 0), (line, 0), block))]
    if rng.random() < 0.5:
        edits += _undo_redo(mirror, (line, 0), (line + 20, 0), block, rng)
    return edits


def _insert(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """20 comment lines inserted (every line below moves), then undone."""
    line = _somewhere(mirror, rng)
    block = "".join(f"// note {k}\n" for k in range(20))
    edits = [(INSERT, mirror.edit((line, 0), (line, 0), block))]
    return edits + list(_undo_redo(mirror, (line, 0), (line + 20, 0), block, rng))


def _delete(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """20 lines deleted, then the deletion undone."""
    line = _somewhere(mirror, rng, 21)
    block = mirror.text_between((line, 0), (line + 20, 0))
    edits = [(DELETE, mirror.edit((line, 0), (line + 20, 0), ""))]
    edits.append((UNDO, mirror.edit((line, 0), (line, 0), block)))
    if rng.random() < 0.5:
        edits.append((UNDO, mirror.edit((line, 0), (line + 20, 0), "")))
        edits.append((UNDO, mirror.edit((line, 0), (line, 0), block)))
    return edits


def _typo(mirror: Mirror, rng: random.Random) -> list[Edit]:
    """A stray character in the first lines of the record (every line below it may be
    re-checked), then its backspace."""
    line = rng.randrange(min(40, len(mirror.lines) - 1))
    column = rng.randint(0, len(mirror.lines[line]))
    return [
        (TYPO, mirror.edit((line, column), (line, column), "x")),
        (TYPO, mirror.edit((line, column), (line, column + 1), "")),
    ]


# -- the measures


@dataclass
class SessionResult:
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    diagnostics_at_open: int = 0
    diagnostics_at_end: int = 0
    peak_memory_mb: float = 0.0
    complete: list[float] = field(default_factory=list)  # to the diagnostics with the version
    sizes: list[int] = field(default_factory=list)  # of those publishes, in bytes

    @property
    def all(self) -> list[float]:
        return [t for times in self.by_kind.values() for t in times]


async def run_session(command: tuple[str, ...], text: str, edits: list[Edit]) -> SessionResult:
    client = RawClient(command)
    await client.start()
    uri = "file:///bench/session.mtgr"
    result = SessionResult()
    client.open(uri, text)
    result.diagnostics_at_open = (await client.diagnostics_for(uri, 0)).count
    for version, (kind, change) in enumerate(edits, 1):
        start = time.perf_counter()
        client.change(uri, version, change)
        published = await client.diagnostics_for(uri, version, first=True)
        result.by_kind.setdefault(kind, []).append(published.at - start)
        if published.version is None:  # what the user sees came first: wait for the rest
            published = await client.diagnostics_for(uri, version)
        result.complete.append(published.at - start)
        result.sizes.append(published.size)
        result.diagnostics_at_end = published.count
    result.peak_memory_mb = client.peak_memory_mb()
    await client.stop()
    return result


BURST_KEYS = 20
BURST_GAP = 0.04  # seconds between keys: a fast typist
BURSTS = 5  # each at another line, in a server of its own: one burst's lag varies a lot


@dataclass
class Burst:
    lag: float  # from the last key to its diagnostics' arrival
    parse: float  # the client's median time to parse a publish meanwhile


async def run_burst(command: tuple[str, ...], text: str, seed: int) -> Burst:
    """Types a line of BURST_KEYS characters, a key every BURST_GAP seconds, without waiting
    for diagnostics: how long after the last key its diagnostics arrived. The client
    parses every publish before it reads the next, as an editor does: where each takes
    longer than a key, publishes queue up behind it."""
    client = RawClient(command)
    await client.start()
    uri = "file:///bench/burst.mtgr"
    client.open(uri, text)
    await client.diagnostics_for(uri, 0)
    mirror = Mirror(text.split("\n"))
    rng = random.Random(seed)
    line = _somewhere(mirror, rng, 30)
    end = len(mirror.lines[line])
    version = 1
    client.change(uri, version, mirror.edit((line, end), (line, end), "\n"))
    await client.diagnostics_for(uri, version)
    model = (mirror.lines[line + 1 + rng.randint(1, 20)] or "// a note").ljust(BURST_KEYS)
    for column in range(BURST_KEYS):
        version += 1
        await asyncio.sleep(BURST_GAP)
        last_key = time.perf_counter()
        at = (line + 1, column)
        client.change(uri, version, mirror.edit(at, at, model[column]))
    published = await client.diagnostics_for(uri, version)
    await client.stop()
    return Burst(published.at - last_key, statistics.median(client.publish_parses))


async def run_bursts(command: tuple[str, ...], text: str, seed: int, count: int) -> list[Burst]:
    return [await run_burst(command, text, seed + k) for k in range(count)]


@dataclass
class BigRequest:
    """A request on the whole record; `rounds` (edit round -> bool) says after which edits
    it is asked (a delta is asked where the full answer before it was)."""

    method: str
    lines: int | None = None  # a range of this many lines from the middle; None: whole
    rounds: int = 1  # asked after every `rounds`-th edit...
    offset: int = 0  # ...starting with this one


BIG_REQUESTS = {
    "documentSymbol": BigRequest("textDocument/documentSymbol"),
    "semantic tokens, full": BigRequest("textDocument/semanticTokens/full", rounds=2),
    "semantic tokens, delta": BigRequest(
        "textDocument/semanticTokens/full/delta", rounds=2, offset=1
    ),
    "semantic tokens, 100 lines": BigRequest("textDocument/semanticTokens/range", lines=100),
    "folding ranges": BigRequest("textDocument/foldingRange"),
    "inlay hints, whole file": BigRequest("textDocument/inlayHint"),
    "inlay hints, 100 lines": BigRequest("textDocument/inlayHint", lines=100),
    "formatting (nothing to change)": BigRequest("textDocument/formatting"),
}
BIG_REQUEST_RUNS = 3  # each asked so often with nothing changed
# the whole-file answers whose parts the server builds while idle after a large open
# (features/prepare.py): each is also asked alone the moment the diagnostics arrive
PREPARED = ("documentSymbol", "semantic tokens, full", "inlay hints, whole file")
# Fresh servers whose first answers after open are timed: a first answer is one figure a
# server, and it varies from one server to the next on a shared machine.
FIRST_ANSWER_SERVERS = 3
BIG_EDITS = 12  # edits, each followed by the requests
# After an edit's diagnostics, the requests wait this long, and until the server is idle:
# mtgr collects garbage once it has been idle a second (server/collector.py), and that
# pause would land in whichever request is under way then. Its CPU time is given apart.
BIG_REQUEST_PAUSE = 1.2


@dataclass
class BigResult:
    first: list[float] = field(default_factory=list)  # the first after open, a server each
    again: list[float] = field(default_factory=list)  # nothing changed since the last
    edited: list[float] = field(default_factory=list)  # the first after an edit
    # the server's CPU time for each of them, under "again" and "edited"
    cpu: dict[str, list[float]] = field(default_factory=dict)
    parse: list[float] = field(default_factory=list)  # the client's parse of each reply
    size: int = 0  # bytes of the last reply
    idle: list[float] = field(default_factory=list)  # the server's CPU time while it waited


def _big_edits(text: str, seed: int) -> list[dict[str, Any]]:
    """Edits that keep the record formatted: a comment line inserted and deleted again,
    a letter of a card name changed and changed back (the name changes on every line
    after that shows it), each somewhere in the middle half."""
    mirror = Mirror(text.split("\n"))
    rng = random.Random(seed)
    edits: list[dict[str, Any]] = []
    while len(edits) < BIG_EDITS:
        line = _somewhere(mirror, rng, len(mirror.lines) // 4)
        line = max(line, len(mirror.lines) // 4)
        edits.append(mirror.edit((line, 0), (line, 0), "// a note\n"))
        edits.append(mirror.edit((line, 0), (line + 1, 0), ""))
        for _ in range(200):
            line = rng.randrange(len(mirror.lines) // 4, 3 * len(mirror.lines) // 4)
            found = re.search(r'#\d+ "([A-Za-z]{2})', mirror.lines[line])
            if found:
                at = found.start(1)
                letter = mirror.lines[line][at]
                other = "x" if letter != "x" else "y"
                edits.append(mirror.edit((line, at), (line, at + 1), other))
                edits.append(mirror.edit((line, at), (line, at + 1), letter))
                break
    return edits[:BIG_EDITS]


async def run_big_requests(
    command: tuple[str, ...], text: str, first_only: bool = False, at_once: str | None = None
) -> dict[str, BigResult]:
    """Each request once after the record opened, BIG_REQUEST_RUNS times with nothing
    changed, and after each of BIG_EDITS edits (once the edit's diagnostics are in, so
    that what is timed is the request, not the check); with `first_only`, only once after
    the record opened; with `at_once`, only that request, the moment the open's
    diagnostics arrive (before the server has prepared anything while idle)."""
    client = RawClient(command, ASKING_CAPABILITIES)
    await client.start()
    uri = "file:///bench/big.mtgr"
    client.open(uri, text)
    await client.diagnostics_for(uri, 0)
    if at_once is None:
        await client.settle(BIG_REQUEST_PAUSE)
    lines = text.count("\n")
    results = {name: BigResult() for name in BIG_REQUESTS}
    result_id = "0"  # of the last semantic tokens answer, for the next delta

    async def ask(name: str, when: str = "") -> float:
        nonlocal result_id
        request = BIG_REQUESTS[name]
        params: dict[str, Any] = {"textDocument": {"uri": uri}}
        first, last = 0, lines
        if request.lines is not None:
            first = lines // 2
            last = first + request.lines
        if request.lines is not None or request.method == "textDocument/inlayHint":
            params["range"] = {
                "start": {"line": first, "character": 0},
                "end": {"line": last, "character": 0},
            }
        if request.method == "textDocument/formatting":
            params["options"] = {"tabSize": 4, "insertSpaces": True}
        if request.method.endswith("/delta"):
            params["previousResultId"] = result_id
        cpu = client.cpu_seconds()
        start = time.perf_counter()
        answer = await client.request(request.method, params)
        took = client.answered_at - start
        results[name].parse.append(client.last_parse)
        cpu_after = client.cpu_seconds()
        if cpu is not None and cpu_after is not None:
            results[name].cpu.setdefault(when, []).append(cpu_after - cpu)
        if isinstance(answer, dict) and "resultId" in answer:
            result_id = answer["resultId"]
        results[name].size = client.last_size
        return took

    for name in BIG_REQUESTS if at_once is None else (at_once,):
        results[name].first.append(await ask(name, "first"))
    if first_only or at_once is not None:
        await client.stop()
        return results
    for name in BIG_REQUESTS:
        for _ in range(BIG_REQUEST_RUNS):
            results[name].again.append(await ask(name, "again"))
    idle = results[next(iter(BIG_REQUESTS))].idle
    for version, change in enumerate(_big_edits(text, seed=5), 1):
        client.change(uri, version, change)
        edited = change["range"]
        lines += change["text"].count("\n") - (edited["end"]["line"] - edited["start"]["line"])
        await client.diagnostics_for(uri, version)
        used = await client.settle(BIG_REQUEST_PAUSE)
        if used is not None:
            idle.append(used)
        for name, request in BIG_REQUESTS.items():
            if (version - 1) % request.rounds == request.offset:
                results[name].edited.append(await ask(name, "edited"))
    await client.stop()
    return results


# -- the report


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(value: float) -> str:
    milliseconds = value * 1000
    return f"{milliseconds:.1f} ms" if milliseconds < 100 else f"{milliseconds:.0f} ms"


def megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} KB"


def sending(size: int) -> tuple[str, ...]:
    """The floor publishing about `size` bytes of diagnostics each time (benchmarks/floor.py):
    what moving mtgr's publishes costs alone, where they are megabytes."""
    return (*FLOOR, "--publish-bytes", str(size))


def _ratio(mine: float, floor: float) -> str:
    return f"{mine / floor:.0f} times" if floor > 0 else "no floor"


SessionRow = tuple[str, str, str, str, str, str, str]


def median_and_p95(times: list[float]) -> str:
    return f"{ms(statistics.median(times))} / {ms(percentile(times, 0.95))}"


def _figures(mine: list[float], floor: list[float]) -> tuple[str, str, str]:
    return (
        median_and_p95(mine),
        median_and_p95(floor),
        _ratio(statistics.median(mine), statistics.median(floor)),
    )


async def measure(
    sizes: tuple[int, ...],
    edits: int,
    big_lines: int | None,
    burst_sizes: tuple[int, ...],
    records: tuple[str, ...] = tuple(RECORDS),
    detail_size: int | None = None,
    burst_count: int = BURSTS,
) -> tuple[list[SessionRow], list[SessionRow], list[SessionRow]]:
    """Sessions on every record kind given and size (per-edit-kind rows at `detail_size`,
    by default the middle size), bursts, and the big requests (none without `big_lines`);
    each against the floor in the same run."""
    sessions: list[SessionRow] = []
    bursts: list[SessionRow] = []
    if detail_size is None:
        detail_size = sizes[len(sizes) // 2]
    for size in sizes:
        for record in records:
            text = RECORDS[record](size)
            script = session(text, edits, seed=size)
            mine = await run_session(MTGR, text, script)
            floor = await run_session(FLOOR, text, script)
            sent = round(statistics.median(mine.sizes))
            alike = await run_session(sending(sent), text, script)
            label = f"{record}, {size:,} lines"
            notes = (
                f"{text.count(chr(10)):,} lines (whole games); "
                f"{mine.diagnostics_at_open:,} diagnostics at open, "
                f"{mine.diagnostics_at_end:,} at the end; peak {mine.peak_memory_mb:.0f} MB; "
                f"complete: median {ms(statistics.median(mine.complete))}, "
                f"p95 {ms(percentile(mine.complete, 0.95))}; "
                f"the floor sending as many bytes ({megabytes(sent)} a publish): "
                f"{median_and_p95(alike.all)}"
            )
            sessions.append(
                (label, "all edits", str(len(script)), *_figures(mine.all, floor.all), notes)
            )
            if size == detail_size:
                for kind in KINDS:
                    if kind in mine.by_kind:
                        sessions.append(
                            (
                                label,
                                kind,
                                str(len(mine.by_kind[kind])),
                                *_figures(mine.by_kind[kind], floor.by_kind[kind]),
                                "",
                            )
                        )
            if size in burst_sizes:
                typed = await run_bursts(MTGR, text, size, burst_count)
                lags = [burst.lag for burst in typed]
                floor_lags = [
                    burst.lag for burst in await run_bursts(FLOOR, text, size, burst_count)
                ]
                alike = await run_bursts(sending(sent), text, size, burst_count)
                alike_lags = [burst.lag for burst in alike]
                parse = statistics.median(burst.parse for burst in typed)
                bursts.append(
                    (
                        label,
                        f"{BURST_KEYS} keys, {BURST_GAP * 1000:.0f} ms apart",
                        str(burst_count),
                        *_figures(lags, floor_lags),
                        f"diagnostics for the last key, after it; the client parsed a publish "
                        f"in {ms(parse)} (median); the floor sending as many bytes: "
                        f"{median_and_p95(alike_lags)}",
                    )
                )
    if big_lines is None:
        return sessions, bursts, []
    text = generate(big_lines, seed=7)
    return sessions, bursts, await big_request_rows(text, f"generated, {big_lines:,} lines")


async def big_request_rows(text: str, label: str) -> list[SessionRow]:
    """The big requests on a record, against the floor: a row with nothing changed and a
    row after edits for each."""
    mine = await run_big_requests(MTGR, text)
    for _ in range(FIRST_ANSWER_SERVERS - 1):
        for name, fresh in (await run_big_requests(MTGR, text, first_only=True)).items():
            mine[name].first += fresh.first
            mine[name].cpu.setdefault("first", []).extend(fresh.cpu.get("first", []))
    at_once = {
        name: (await run_big_requests(MTGR, text, at_once=name))[name].first[0] for name in PREPARED
    }
    floor = await run_big_requests(FLOOR, text)
    rows: list[SessionRow] = []
    for name, result in mine.items():
        first = (
            f"first after open {ms(statistics.median(result.first))} (median of "
            f"{len(result.first)} fresh servers, {ms(min(result.first))} to "
            f"{ms(max(result.first))}"
        )
        if result.cpu.get("first"):
            first += f"; server CPU median {ms(statistics.median(result.cpu['first']))}"
        first += ")"
        if name in at_once:
            first += (
                f"; asked alone the moment the open's diagnostics arrived, before the "
                f"server prepared it while idle: {ms(at_once[name])}"
            )
        for when, key, times, floor_times, notes in (
            ("nothing changed", "again", result.again, floor[name].again, first),
            (
                "after an edit",
                "edited",
                result.edited,
                floor[name].edited,
                f"reply {result.size:,} bytes",
            ),
        ):
            cpu = result.cpu.get(key, [])
            if cpu:
                notes += f"; server CPU median {ms(statistics.median(cpu))}"
            if key == "edited":
                notes += (
                    f"; the client's parse of a reply: median {ms(statistics.median(result.parse))}"
                )
            if result.idle and key == "edited":
                notes += (
                    f"; the garbage collection while idle after each edit: server CPU median "
                    f"{ms(statistics.median(result.idle))}, p95 {ms(percentile(result.idle, 0.95))}"
                )
            rows.append(
                (label, f"{name}, {when}", str(len(times)), *_figures(times, floor_times), notes)
            )
    return rows


BIG_REQUESTS_HEADING = "## Big requests"


def big_requests_section(rows: list[SessionRow]) -> list[str]:
    """The page's section on the big requests (benchmarks/run.py writes it too)."""
    return [
        BIG_REQUESTS_HEADING,
        "",
        "On the open record (`python -m benchmarks.session` measures this part alone): each",
        f"request once after open (in each of {FIRST_ANSWER_SERVERS} fresh servers: the median is in",
        "the notes), three times with nothing changed, and after each of 12 edits that keep",
        "the record formatted (a comment line inserted and deleted, a letter of a card name",
        "changed and back), asked 1.2 s after the edit's diagnostics and once the server's",
        "garbage collection while idle has run (its CPU time is in the notes). The client asks",
        "for the outline as a tree. Timed, as the diagnostics are, to the reply's arrival at",
        "the client (its last byte read): the client's own parse of a reply of megabytes",
        "(Python's json here) is in the notes, apart. The server's CPU time (Linux schedstat)",
        "does not count waiting for a core. Target: ≤ 50 ms, replies no larger than their",
        "content needs.",
        "",
        "The first answers after open are asked, like the others, once the server is idle:",
        "the client declares the outline, highlighting and inlay hints (as editors do), and",
        "the server builds their parts while idle after a large record's first check, in",
        "steps of a few milliseconds that yield to every message and wait while the server",
        "writes (features/prepare.py). Each of those three is also asked alone in a fresh",
        "server the moment the open's diagnostics arrive, before that preparation could run:",
        "that figure is in the notes (as long as a first answer took before round 14).",
        "",
        *table(rows),
    ]


def main() -> None:
    """The big requests alone: `python -m benchmarks.session [LINES] [--out PAGE]` prints
    their section, and writes it in place of the page's (docs/benchmarks.md). With
    `--record KIND`, one editing session and one typing burst on that record of LINES
    instead (with per-edit-kind rows), against the floor, printed only."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("lines", type=int, nargs="?", default=50_000)
    parser.add_argument("--out", type=Path, help="the page whose section to replace")
    parser.add_argument("--record", choices=tuple(RECORDS), help="a session on this record")
    parser.add_argument("--edits", type=int, default=300, help="didChanges in that session")
    args = parser.parse_args()
    if args.record is not None:
        sessions, bursts, _ = asyncio.run(
            measure((args.lines,), args.edits, None, (args.lines,), records=(args.record,))
        )
        print("\n".join([*table(sessions), "", *table(bursts)]))
        return
    label = f"generated, {args.lines:,} lines"
    rows = asyncio.run(big_request_rows(generate(args.lines, seed=7), label))
    section = "\n".join(big_requests_section(rows)) + "\n"
    print(section)
    if args.out is not None:
        page = args.out.read_text(encoding="utf-8")
        start = page.index(f"\n{BIG_REQUESTS_HEADING}\n") + 1
        end = page.find("\n## ", start)
        rest = page[end + 1 :] if end >= 0 else ""
        args.out.write_text(
            page[:start] + section + ("\n" + rest if rest else ""), encoding="utf-8"
        )


def table(rows: list[SessionRow]) -> list[str]:
    lines = [
        "| record | edits | n | mtgr median / p95 | floor median / p95 | ratio | notes |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


if __name__ == "__main__":
    main()
