"""The memory benchmark runs end to end (small sizes), writes its section and keeps the rest of
the page; its game of many objects is a clean record with that many objects."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchmarks.memory import HEADING, one_long_game

from mtgr.check import check_text
from mtgr.rules.walk import walk
from mtgr.syntax.document import Document

ROOT = Path(__file__).resolve().parents[1]


def test_the_game_of_many_objects_checks_clean_and_holds_them_all() -> None:
    text = one_long_game(500)
    assert check_text(text) == []
    assert len(walk(Document(text).lines).final_state.objects) == 500


def test_the_memory_benchmark_writes_its_section_and_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "benchmarks.md"
    out.write_text("# Benchmarks\n\nintro\n\n## Card index\n\ncards\n", encoding="utf-8")
    command = [sys.executable, "-m", "benchmarks.memory", "--objects", "300", "--lines", "300"]
    for _ in range(2):  # the second run replaces the section
        subprocess.run(
            [*command, "--edits", "5", "--keys", "4", "--out", str(out)], cwd=ROOT, check=True
        )
    page = out.read_text(encoding="utf-8")
    assert page.startswith("# Benchmarks\n\nintro\n\n## Card index\n\ncards\n\n## Memory\n")
    assert page.count(HEADING) == 1
    rows = re.findall(r"^\| (peak memory[^|]*|parse caches[^|]*) \| ([^|]*) \|", page, re.M)
    assert [name for name, _ in rows] == [
        "peak memory, 300 objects in one game open",
        "peak memory, 300-line generated record open",
        "peak memory after a 5-edit session, 300-line generated record",
        "peak memory after a 5-edit session, 300-line assembled record",
        "peak memory after typing 4 keys into a 100,000-character line",
        "parse caches after those keys, open / closed",
    ]
    assert all(re.fullmatch(r"[0-9.]+ MB( / [0-9.]+ MB)?", value) for _, value in rows)
