"""The server's peak memory (VmHWM) on long records, after editing sessions, with a game of
tens of thousands of objects, and while typing into a very long line; written as its own
section of docs/benchmarks.md.

    python -m benchmarks.memory [--objects 40000] [--lines 50000] [--edits 900] [--keys 200]

Each figure comes from a fresh server process driven over stdio (benchmarks/session.py's
client), so it is the whole process: interpreter, server, caches and the open record.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import time
import tracemalloc
from pathlib import Path

from benchmarks import session
from benchmarks.generate import generate

ROOT = Path(__file__).resolve().parent.parent
HEADING = "## Memory"
LONG_LINE = 100_000  # characters


def one_long_game(objects: int) -> str:
    """One game in which Alice draws `objects` cards while a spell resolves: every card a
    new object, all in one game, so the walk's states hold them all at once."""
    lines = [
        "mtgr 0.4",
        'title "One game, every card drawn"',
        "rules 2026-09-25",
        f'player "Alice" deck {objects + 100}',
        'player "Bob" deck 60',
        "perspective all",
        "",
        '"Alice" roll d20 14',
        '"Bob" roll d20 9',
        'start "Alice" by "Alice"',
        '"Alice" draw #1 "Island"',
        '"Alice" draw #2 "Enter the Infinite"',
        *(f'"Alice" draw #{n} "Island"' for n in range(3, 8)),
        *(f'"Bob" draw #{n} "Island"' for n in range(8, 15)),
        '"Alice" keep',
        '"Bob" keep',
        "",
        'turn 1 "Alice"',
        "phase main",
        "#1 play",
        "#2 cast // draw cards equal to the number of cards in your library",
        "#1 tap by #1",
        "#2 pay {8}{U}{U}{U}{U} // the other eleven mana: earlier turns, not recorded",
        "#2 resolve",
        *(f'"Alice" draw #{n} "Island" by #2' for n in range(15, 15 + objects - 14)),
    ]
    return "\n".join(lines) + "\n"


def long_line_record() -> str:
    return 'mtgr 0.4\nplayer "Alice" deck 60\n#1 new card "' + "x" * LONG_LINE + '" hand "Alice"\n'


async def open_peak(text: str) -> float:
    client = session.RawClient(session.MTGR)
    await client.start()
    uri = "file:///bench/memory.mtgr"
    client.open(uri, text)
    await client.diagnostics_for(uri, 0)
    peak = client.peak_memory_mb()
    await client.stop()
    return peak


async def typing_in_long_line_peak(keys: int) -> float:
    """Peak memory after typing `keys` characters into a LONG_LINE-character line, each
    key waited for."""
    client = session.RawClient(session.MTGR)
    await client.start()
    uri = "file:///bench/long-line.mtgr"
    client.open(uri, long_line_record())
    await client.diagnostics_for(uri, 0)
    mirror = session.Mirror(long_line_record().split("\n"))
    for version in range(1, keys + 1):
        at = (2, 20 + version)
        client.change(uri, version, mirror.edit(at, at, "y"))
        await client.diagnostics_for(uri, version)
    peak = client.peak_memory_mb()
    await client.stop()
    return peak


def typing_in_long_line_cache(keys: int) -> tuple[float, float, float]:
    """In this process: what typing into a long line leaves in the parse caches (MB, as
    traced), while the document is open and after it closed, and the caches' bound."""
    from mtgr.syntax.document import LINES, SHAPES, Document, release_parse_caches

    tracemalloc.start()
    document = Document(long_line_record())
    base = tracemalloc.get_traced_memory()[0]
    for key in range(keys):
        at = (2, 20 + key)
        document.edit(at, at, "y")
    gc.collect()
    typed = tracemalloc.get_traced_memory()[0]
    release_parse_caches(document.owner)
    del document
    gc.collect()
    closed = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    bound = (LINES.max_bytes + SHAPES.max_bytes) / 2**20
    return (typed - base) / 2**20, (closed - base) / 2**20, bound


async def run(objects: int, lines: int, edits: int, keys: int) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    game = one_long_game(objects)
    rows.append(
        (
            f"peak memory, {objects:,} objects in one game open",
            f"{await open_peak(game):.0f} MB",
            "≤ 200 MB",
            f"{game.count(chr(10)):,} lines, `benchmarks.memory.one_long_game`",
        )
    )
    generated = generate(lines, seed=7)
    rows.append(
        (
            f"peak memory, {lines:,}-line generated record open",
            f"{await open_peak(generated):.0f} MB",
            "≤ 100 MB",
            "",
        )
    )
    for name, text in (("generated", generated), ("assembled", session.assembled(lines))):
        result = await session.run_session(session.MTGR, text, session.session(text, edits, 5))
        rows.append(
            (
                f"peak memory after a {edits}-edit session, {lines:,}-line {name} record",
                f"{result.peak_memory_mb:.0f} MB",
                "≤ 100 MB",
                "the editing sessions' mix (benchmarks/session.py), seed 5",
            )
        )
    rows.append(
        (
            f"peak memory after typing {keys} keys into a {LONG_LINE:,}-character line",
            f"{await typing_in_long_line_peak(keys):.0f} MB",
            "",
            "each key waited for",
        )
    )
    typed, closed, bound = typing_in_long_line_cache(keys)
    rows.append(
        (
            "parse caches after those keys, open / closed",
            f"{typed:.1f} MB / {max(closed, 0):.1f} MB",
            f"≤ {bound:.0f} MB / 0",
            "in process, traced by tracemalloc; the bound is the caches' byte estimate",
        )
    )
    return rows


def section(rows: list[tuple[str, str, str, str]]) -> str:
    lines = [
        HEADING,
        "",
        "Written by `python -m benchmarks.memory` (also run by `scripts/benchmark`): the peak",
        "memory (VmHWM) of a fresh server process over stdio for each figure. Run on",
        f"{time.strftime('%Y-%m-%d')} with load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        "",
        "| measure | result | target | notes |",
        "| --- | --- | --- | --- |",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
    ]
    return "\n".join(lines) + "\n"


def write_section(out: Path, rows: list[tuple[str, str, str, str]]) -> None:
    """Replaces this section of the page (or adds it at the end), keeping the rest."""
    text = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n"
    start = text.find(f"\n{HEADING}\n")
    if start < 0:
        out.write_text(text.rstrip("\n") + "\n\n" + section(rows), encoding="utf-8")
        return
    following = text.find("\n## ", start + len(HEADING) + 2)
    rest = text[following:] if following >= 0 else ""
    out.write_text(text[:start] + "\n" + section(rows) + rest, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--objects", type=int, default=40_000)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--edits", type=int, default=900)
    parser.add_argument("--keys", type=int, default=200, help="keys typed into the long line")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()
    rows = asyncio.run(run(args.objects, args.lines, args.edits, args.keys))
    write_section(args.out, rows)
    for row in rows:
        print(" | ".join(row))


if __name__ == "__main__":
    main()
