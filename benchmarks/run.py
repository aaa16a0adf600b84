"""Drives the real language server over stdio, as an editor does, and writes the figures
to docs/benchmarks.md: full open, keystroke to diagnostics (incremental and full side by
side), highlighting after a keystroke, completion, hover and board latency, and the
server's peak memory.

    python -m benchmarks.run [--edits 200] [--lines 10000,50000] [--out docs/benchmarks.md]
        [--session-edits 300] [--session-lines 1000,10000,50000] [--huge]

The second part is editing sessions as a person makes them, against a do-nothing server
in the same run (benchmarks/session.py).

The machines are shared and noisy: the report gives medians, 95th percentiles and the
ratio of the two keystroke paths measured in the same run, never a single timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import attrs
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.protocol import LanguageServerProtocol

from benchmarks import session
from benchmarks.cards import kept_section
from benchmarks.generate import generate

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Figures:
    rows: list[tuple[str, str, str, str]]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@attrs.define
class PlainResponse:
    """A response whose result stays JSON data."""

    id: Any
    jsonrpc: str
    result: Any = None


class ClientProtocol(LanguageServerProtocol):
    """pygls turns the result of a request outside LSP (`mtgr/board`) into nested named
    tuples, which costs this client more than the server spends answering; an editor
    reads plain JSON, and so does the benchmark."""

    def get_result_type(self, method: str) -> Any:
        return PlainResponse if method == "mtgr/board" else super().get_result_type(method)


class Server:
    """One server process and a client that waits for the diagnostics of each version."""

    def __init__(self, incremental: bool) -> None:
        self.incremental = incremental
        self.client = LanguageClient("mtgr-benchmark", "1", protocol_cls=ClientProtocol)
        self.published: dict[str, asyncio.Queue[types.PublishDiagnosticsParams]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, asyncio.Queue()).put_nowait(params)

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "mtgr", "lsp")
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                initialization_options={"mtgr": {"incremental": self.incremental}},
            )
        )
        self.client.initialized(types.InitializedParams())

    @property
    def pid(self) -> int:
        return self.client._server.pid  # type: ignore[union-attr]

    async def diagnostics_for(self, uri: str, version: int) -> None:
        queue = self.published.setdefault(uri, asyncio.Queue())
        while True:
            params = await asyncio.wait_for(queue.get(), timeout=300)
            if params.version == version:
                return

    async def open(self, uri: str, text: str) -> float:
        start = time.perf_counter()
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="mtgr", version=0, text=text
                )
            )
        )
        await self.diagnostics_for(uri, 0)
        return time.perf_counter() - start

    async def change(
        self, uri: str, version: int, edit: types.TextDocumentContentChangeEvent
    ) -> float:
        start = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[edit],
            )
        )
        await self.diagnostics_for(uri, version)
        return time.perf_counter() - start

    def peak_memory_mb(self) -> float:
        status = Path(f"/proc/{self.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def keystrokes(text: str, count: int, seed: int) -> list[types.TextDocumentContentChangePartial]:
    """Typing a character, deleting one, breaking a line and mending it, at random lines.

    Each edit is followed later by its undo, so the document stays a valid game."""
    rng = random.Random(seed)
    lines = text.split("\n")
    edits: list[types.TextDocumentContentChangePartial] = []
    while len(edits) < count:
        line = rng.randrange(len(lines) - 1)
        column = rng.randint(0, len(lines[line]))
        kind = rng.choice(("type", "delete", "break"))
        here = types.Position(line=line, character=column)
        if kind == "type":
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=here), text="x"
                )
            )
            after = types.Position(line=line, character=column + 1)
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=after), text=""
                )
            )
        elif kind == "delete" and column < len(lines[line]):
            after = types.Position(line=line, character=column + 1)
            removed = lines[line][column]
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=after), text=""
                )
            )
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=here), text=removed
                )
            )
        else:
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=here), text="\n"
                )
            )
            next_line = types.Position(line=line + 1, character=0)
            edits.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=here, end=next_line), text=""
                )
            )
    return edits[:count]


async def measure_keystrokes(text: str, edits: list, incremental: bool) -> list[float]:
    server = Server(incremental)
    await server.start()
    uri = "file:///bench/keystrokes.mtgr"
    await server.open(uri, text)
    times = [await server.change(uri, version, edit) for version, edit in enumerate(edits, 1)]
    await server.stop()
    return times


async def measure_highlighting(text: str, edits: list) -> list[float]:
    """After each keystroke's diagnostics, the semantic tokens an editor asks for next: a
    delta against the last answer, as VS Code and Neovim do."""
    server = Server(True)
    await server.start()
    uri = "file:///bench/highlighting.mtgr"
    await server.open(uri, text)
    document = types.TextDocumentIdentifier(uri=uri)
    first = await server.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=document)
    )
    result_id = first.result_id if first is not None else None
    times = []
    for version, edit in enumerate(edits, 1):
        await server.change(uri, version, edit)
        start = time.perf_counter()
        answer = await server.client.text_document_semantic_tokens_full_delta_async(
            types.SemanticTokensDeltaParams(
                text_document=document, previous_result_id=result_id or ""
            )
        )
        times.append(time.perf_counter() - start)
        result_id = answer.result_id if answer is not None else None
    await server.stop()
    return times


async def measure_requests(text: str, count: int, seed: int) -> tuple[list[float], list[float]]:
    server = Server(True)
    await server.start()
    uri = "file:///bench/requests.mtgr"
    await server.open(uri, text)
    rng = random.Random(seed)
    lines = text.split("\n")
    completion, hover = [], []
    for _ in range(count):
        line = rng.randrange(len(lines) - 1)
        position = types.Position(line=line, character=rng.randint(0, len(lines[line])))
        document = types.TextDocumentIdentifier(uri=uri)
        start = time.perf_counter()
        await server.client.text_document_completion_async(
            types.CompletionParams(text_document=document, position=position)
        )
        completion.append(time.perf_counter() - start)
        start = time.perf_counter()
        await server.client.text_document_hover_async(
            types.HoverParams(text_document=document, position=position)
        )
        hover.append(time.perf_counter() - start)
    await server.stop()
    return completion, hover


async def measure_board(text: str, count: int, seed: int) -> list[float]:
    """`mtgr/board` at random lines, all three renderings, as the board view asks for it."""
    server = Server(True)
    await server.start()
    uri = "file:///bench/board.mtgr"
    await server.open(uri, text)
    rng = random.Random(seed)
    lines = text.count("\n")
    times = []
    for _ in range(count):
        params = {"textDocument": {"uri": uri}, "line": rng.randrange(lines)}
        start = time.perf_counter()
        answer = await server.client.protocol.send_request_async("mtgr/board", params)
        times.append(time.perf_counter() - start)
        assert answer is not None, "mtgr/board answered null for an open document"
    await server.stop()
    return times


# Each open starts a fresh server: the median of five is steadier on a shared machine.
OPEN_RUNS = 5


async def measure_open(text: str) -> tuple[float, float]:
    server = Server(True)
    await server.start()
    seconds = await server.open("file:///bench/open.mtgr", text)
    memory = server.peak_memory_mb()
    await server.stop()
    return seconds, memory


def ms(value: float) -> str:
    milliseconds = value * 1000
    # whole numbers from 100 up: "229 ms", never a figure that reads like a CR rule number
    return f"{milliseconds:.1f} ms" if milliseconds < 100 else f"{milliseconds:.0f} ms"


async def run(
    edits: int,
    out: Path,
    sizes: tuple[int, int] = (10_000, 50_000),
    session_edits: int = 300,
    session_sizes: tuple[int, ...] = (1_000, 10_000, 50_000),
    bursts: int = session.BURSTS,
) -> None:
    """The keystrokes, completions and hovers go to the smaller recording; the peak
    memory is the larger one's."""
    load = [os.getloadavg()[0]]
    texts = {n: generate(n, seed=7) for n in sizes}
    opened = [("generated", n, text) for n, text in texts.items()]
    opened += [("assembled", n, session.assembled(n)) for n in sizes]
    rows: list[tuple[str, str, str, str]] = []
    for kind, n, text in opened:
        lines = text.count("\n")
        runs = [await measure_open(text) for _ in range(OPEN_RUNS)]
        times = [r[0] for r in runs]
        seconds = statistics.median(times)
        memory = max(r[1] for r in runs)
        rows.append(
            (
                f"full open, {kind}, {lines:,} lines",
                f"{lines / seconds:,.0f} lines/s",
                "≥ 50,000 lines/s",
                f"median of {OPEN_RUNS}: {ms(seconds)}; runs from {lines / max(times):,.0f} "
                f"to {lines / min(times):,.0f} lines/s",
            )
        )
        if kind == "generated" and n == sizes[1]:
            rows.append(
                (
                    f"peak memory, {n:,}-line file open",
                    f"{memory:.0f} MB",
                    "≤ 150 MB",
                    "VmHWM of the server process",
                )
            )
    text = texts[sizes[0]]
    script = keystrokes(text, edits, seed=11)
    incremental = await measure_keystrokes(text, script, incremental=True)
    full = await measure_keystrokes(text, script, incremental=False)
    rows.append(
        (
            "keystroke → diagnostics (incremental), median",
            ms(statistics.median(incremental)),
            "≤ 16 ms",
            f"{len(script)} edits",
        )
    )
    rows.append(
        (
            "keystroke → diagnostics (incremental), p95",
            ms(percentile(incremental, 0.95)),
            "≤ 50 ms",
            "",
        )
    )
    rows.append(
        (
            "keystroke → diagnostics (full re-check), median",
            ms(statistics.median(full)),
            "",
            "same edits, same run",
        )
    )
    ratio = statistics.median(full) / statistics.median(incremental)
    rows.append(
        ("incremental speed-up, median against median", f"{ratio:.0f} times", "≥ 30 times", "")
    )
    highlighting = await measure_highlighting(text, script)
    rows.append(
        (
            "highlighting after a keystroke (semantic tokens delta), p95",
            ms(percentile(highlighting, 0.95)),
            "",
            f"median {ms(statistics.median(highlighting))}",
        )
    )
    completion, hover = await measure_requests(text, edits, seed=13)
    rows.append(
        (
            "completion, p95",
            ms(percentile(completion, 0.95)),
            "≤ 20 ms",
            f"median {ms(statistics.median(completion))}",
        )
    )
    rows.append(
        (
            "hover, p95",
            ms(percentile(hover, 0.95)),
            "≤ 20 ms",
            f"median {ms(statistics.median(hover))}",
        )
    )
    board = await measure_board(text, edits, seed=17)
    rows.append(
        (
            "board at a random line (mtgr/board: JSON, HTML and text), p95",
            ms(percentile(board, 0.95)),
            "≤ 30 ms",
            f"median {ms(statistics.median(board))}",
        )
    )
    # the targets' sizes (10,000 and 50,000 lines) have the per-edit-kind rows, the bursts
    # and the big requests; 200,000 lines (`--huge`) only the sessions and a burst
    targeted = tuple(size for size in session_sizes if size <= 50_000) or session_sizes
    sessions = await session.measure(
        session_sizes,
        session_edits,
        big_lines=max(targeted),
        burst_sizes=session_sizes[1:],
        detail_size=targeted[len(targeted) // 2],
        burst_count=bursts,
    )
    load.append(os.getloadavg()[0])
    out.write_text(report(rows, *sessions, load=load) + kept_section(out), encoding="utf-8")
    print(report(rows, *sessions, load=load))


def report(
    rows: list[tuple[str, str, str, str]],
    sessions: list[session.SessionRow],
    bursts: list[session.SessionRow],
    requests: list[session.SessionRow],
    load: list[float],
) -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    lines = [
        "# Benchmarks",
        "",
        "Written by `scripts/benchmark` (`python -m benchmarks.run --huge`); the server is driven over stdio",
        "by a pygls client, as an editor would. Recordings come from `benchmarks/generate.py`",
        "(seed 7): whole games one after another, as in a day of coverage; the full open is",
        "also timed on the examples' games assembled one after another (benchmarks/session.py).",
        "",
        f"Machine: {os.cpu_count()} cores, {cpu}; Python {platform.python_version()};",
        f"run on {time.strftime('%Y-%m-%d')}, load average {load[0]:.1f} at the start and "
        f"{load[-1]:.1f} at the end. Shared machine: compare ratios, not single timings.",
        "",
        "| measure | result | target | notes |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    lines += [
        "",
        "## Editing sessions",
        "",
        "Through the server over stdio, a raw JSON-RPC client waiting for the diagnostics of",
        "each version before the next edit (`benchmarks/session.py`); the same edits go to a",
        "do-nothing pygls server (`benchmarks/floor.py`) in the same run, the floor. Records:",
        "generated; the examples' games assembled and renumbered (clean at open); the",
        "examples concatenated as they are (thousands of diagnostics). Per-edit-kind rows at",
        "10,000 lines; 200,000 lines (`--huge`) has no target. Timed to the first diagnostics",
        "after the edit: on a large record a",
        "far re-check publishes what the user sees first (without a version), and the notes",
        "give the time to the diagnostics of the version, complete. Targets at 10,000 lines:",
        "median ≤ 10 ms, p95 ≤ 30 ms; at most twice that at 50,000.",
        "",
        "LSP's push model sends every diagnostic of the file in each publish, so a record with",
        "thousands of them costs megabytes a keystroke whatever the server does. The notes of",
        'each "all edits" row give a second floor for that: the do-nothing server publishing,',
        "for each version, as many bytes as mtgr's median publish in that session",
        "(`benchmarks/floor.py --publish-bytes`), through an output pipe as wide as mtgr's.",
        "",
        *session.table(sessions),
        "",
        "## Typing bursts",
        "",
        "Keys sent without waiting; how long after the last key its diagnostics arrive, in",
        f"{session.BURSTS} bursts at different lines, each in a fresh server (median / slowest).",
        "The client parses every publish before it reads the next, as an editor does; where",
        "that takes longer than the time between keys, publishes queue up behind it, whoever",
        "sent them: the notes give the client's time for one, and the floor sending as many",
        "bytes. Target: ≤ 100 ms.",
        "",
        *session.table(bursts),
        "",
        *session.big_requests_section(requests),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    parser.add_argument(
        "--lines",
        type=_sizes,
        default=(10_000, 50_000),
        help="the sizes of the two recordings, smaller first (default: 10000,50000)",
    )
    parser.add_argument(
        "--session-edits", type=int, default=300, help="didChanges per editing session"
    )
    parser.add_argument(
        "--session-lines",
        type=_session_sizes,
        default=(1_000, 10_000, 50_000),
        help="record sizes for the editing sessions, ascending (default: 1000,10000,50000)",
    )
    parser.add_argument(
        "--bursts", type=int, default=session.BURSTS, help="typing bursts per record and size"
    )
    parser.add_argument(
        "--huge", action="store_true", help="also edit 200,000-line records (several minutes)"
    )
    args = parser.parse_args()
    session_sizes = (*args.session_lines, 200_000) if args.huge else args.session_lines
    asyncio.run(
        run(args.edits, args.out, args.lines, args.session_edits, session_sizes, args.bursts)
    )


def _sizes(text: str) -> tuple[int, int]:
    small, large = (int(part) for part in text.split(","))
    if not 0 < small <= large:
        raise argparse.ArgumentTypeError("two sizes, the smaller first: 10000,50000")
    return small, large


def _session_sizes(text: str) -> tuple[int, ...]:
    sizes = tuple(int(part) for part in text.split(","))
    if not sizes or sizes[0] <= 0 or list(sizes) != sorted(sizes):
        raise argparse.ArgumentTypeError("sizes in ascending order: 1000,10000,50000")
    return sizes


if __name__ == "__main__":
    main()
