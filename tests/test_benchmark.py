"""The benchmark runs end to end (small sizes, few edits) and writes every figure."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

from benchmarks.floor import diagnostics_of_about
from benchmarks.session import (
    BIG_REQUESTS,
    FIRST_ANSWER_SERVERS,
    KINDS,
    PREPARED,
    RawClient,
    assembled,
    sending,
)

from mtgr.check import check_text

ROOT = Path(__file__).resolve().parents[1]


def test_the_assembled_record_checks_clean() -> None:
    """Its rows are "0 diagnostics at open": the examples it joins must make one legal match
    (the Commander, multiplayer and match examples cannot, and later games roll no die)."""
    assert [(d.line, d.code) for d in check_text(assembled(12_000))] == []


def test_the_benchmark_drives_the_server_and_writes_every_row(tmp_path: Path) -> None:
    out = tmp_path / "benchmarks.md"
    command = [sys.executable, "-m", "benchmarks.run", "--edits", "6", "--lines", "300,600"]
    command += ["--session-edits", "8", "--session-lines", "300,600,900", "--bursts", "2"]
    subprocess.run([*command, "--out", str(out)], cwd=ROOT, check=True, timeout=900)
    report = out.read_text(encoding="utf-8")
    measures, sessions, bursts, requests = _tables(report)
    rows = {cells[0]: cells[1] for cells in measures}
    figure = r"[0-9][0-9,.]*"
    expected = {
        r"full open, generated, 3\d\d lines": rf"{figure} lines/s",
        r"full open, generated, 6\d\d lines": rf"{figure} lines/s",
        r"full open, assembled, [\d,]+ lines": rf"{figure} lines/s",
        r"peak memory, 600-line file open": rf"{figure} MB",
        r"keystroke → diagnostics \(incremental\), median": rf"{figure} ms",
        r"keystroke → diagnostics \(incremental\), p95": rf"{figure} ms",
        r"keystroke → diagnostics \(full re-check\), median": rf"{figure} ms",
        r"incremental speed-up, median against median": rf"{figure} times",
        r"highlighting after a keystroke \(semantic tokens delta\), p95": rf"{figure} ms",
        r"completion, p95": rf"{figure} ms",
        r"hover, p95": rf"{figure} ms",
        r"board at a random line \(mtgr/board: JSON, HTML and text\), p95": rf"{figure} ms",
    }
    assert len(rows) == len(measures) == len(expected) + 1, rows  # assembled: two sizes
    for name, value in expected.items():
        matches = [row for row in rows if re.fullmatch(name, row)]
        assert len(matches) == (2 if "assembled" in name else 1), (name, rows)
        assert all(re.fullmatch(value, rows[match]) for match in matches), (name, rows)
    assert re.search(r"^Machine: \d+ cores", report, re.MULTILINE)
    assert re.search(r"load average [0-9.]+ at the start and [0-9.]+ at the end", report)

    timing = rf"{figure} ms / {figure} ms"
    records = ("generated", "assembled", "as-is")
    for size in (300, 600, 900):  # every record at every size, against the floor
        for record in records:
            [row] = [r for r in sessions if r[1] == "all edits" and _size(r[0], record) == size]
            assert row[2] == "8" and re.fullmatch(timing, row[3]) and re.fullmatch(timing, row[4])
            assert re.fullmatch(rf"{figure} times", row[5]) and "diagnostics at open" in row[6]
            bytes_floor = rf"the floor sending as many bytes \({figure} [KM]B a publish\): {timing}"
            assert re.search(bytes_floor, row[6]), row
    for record in records:  # per edit kind at the middle size
        kinds = {r[1] for r in sessions if _size(r[0], record) == 600} - {"all edits"}
        assert kinds and kinds <= set(KINDS), kinds
    assert {(r[0].split(",")[0], _size(r[0], r[0].split(",")[0])) for r in bursts} == {
        (record, size) for record in records for size in (600, 900)
    }
    for row in bursts:  # several bursts, against both floors; the client's parse apart
        assert row[2] == "2" and re.fullmatch(timing, row[3]), row
        assert re.fullmatch(timing, row[4]), row
        parse = rf"the client parsed a publish in {figure} ms \(median\)"
        assert re.search(rf"{parse}; the floor sending as many bytes: {timing}$", row[6]), row
    assert [r[1] for r in requests] == [
        f"{name}, {when}" for name in BIG_REQUESTS for when in ("nothing changed", "after an edit")
    ]
    for row in requests:  # the first answer after open, or the reply's size; the server's CPU
        notes = "first after open " if row[1].endswith("nothing changed") else "reply "
        assert re.fullmatch(timing, row[3]) and row[6].startswith(notes), row
        if row[1].endswith("after an edit"):
            assert re.search(rf"the client's parse of a reply: median {figure} ms", row[6])
        else:  # the first answers of several fresh servers, and their CPU time
            servers = rf"median of {FIRST_ANSWER_SERVERS} fresh servers, {figure} ms to {figure} ms"
            cpu = rf"; server CPU median {figure} ms" if sys.platform == "linux" else ""
            assert re.match(rf"first after open {figure} ms \({servers}{cpu}\)", row[6]), row
            at_once = rf"asked alone the moment the open's diagnostics arrived, .*: {figure} ms"
            assert bool(re.search(at_once, row[6])) == (row[1].rsplit(", ", 1)[0] in PREPARED), row
        if sys.platform == "linux":  # read from /proc
            assert re.search(rf"server CPU median {figure} ms", row[6]), row


def test_the_floor_sends_diagnostics_of_the_size_asked() -> None:
    """The floor that mtgr's as-is rows are read against sends as many bytes as mtgr did:
    within one diagnostic of the size asked, to the version's document, and as valid JSON."""
    one = len(diagnostics_of_about(10_000)) - len(diagnostics_of_about(9_000))
    for size in (0, 2, 5_000, 1_000_000):
        assert abs(len(diagnostics_of_about(size)) - size) <= one, size
        assert isinstance(json.loads(diagnostics_of_about(size)), list)

    async def published() -> list[tuple[int | None, int, int]]:
        client = RawClient(sending(300_000))
        await client.start()
        client.open("file:///a.mtgr", "mtgr 1\n")
        client.change("file:///a.mtgr", 1, {"text": "mtgr 1\n\n"})
        found = [await client.diagnostics_for("file:///a.mtgr", v) for v in (0, 1)]
        await client.stop()
        return [(p.version, p.count, p.size) for p in found]

    for version, (got_version, count, size) in enumerate(asyncio.run(published())):
        assert got_version == version and count > 100 and abs(size - 300_000) < one + 200


def _tables(report: str) -> list[list[list[str]]]:
    """The report's tables, each a list of rows of cells."""
    tables: list[list[list[str]]] = []
    for line in report.splitlines():
        if line.startswith("| ---"):
            continue
        if line.startswith(("| measure", "| record")):
            tables.append([])
        elif line.startswith("| "):
            tables[-1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return tables


def _size(label: str, record: str) -> int | None:
    found = re.fullmatch(rf"{re.escape(record)}, ([0-9,]+) lines", label)
    return None if found is None else int(found.group(1).replace(",", ""))


def test_the_sizes_must_be_two_and_the_smaller_first() -> None:
    command = [sys.executable, "-m", "benchmarks.run", "--lines", "600,300"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--lines" in result.stderr


def test_the_card_benchmark_writes_its_own_section_and_keeps_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "benchmarks.md"
    out.write_text("# Benchmarks\n\n| measure | result | target | notes |\n", encoding="utf-8")
    command = [sys.executable, "-m", "benchmarks.cards", "--cards", "2000", "--out", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, timeout=300)
    report = out.read_text(encoding="utf-8")
    assert report.startswith("# Benchmarks\n\n| measure | result | target | notes |\n")
    section = report.split("\n## Card index\n", 1)[1]
    for measure in (
        r"import, 2,000 cards \| [0-9.]+ s",
        r"open the index \(added to server start\), median \| [0-9.]+ ms",
        r"memory, index open and every search table built \| [0-9]+ MB",
        r"lookup by name, p95 \| [0-9]+ µs",
        r"card-name completion, p95 \| [0-9.]+ ms",
    ):
        assert re.search(rf"^\| {measure} \|", section, re.MULTILINE), measure
