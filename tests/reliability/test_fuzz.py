"""The atheris fuzz target: a short bounded run, and every input it (or anything) found
that once broke the parser or checker, replayed."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "fuzz" / "fuzz_mtgr.py"
CRASHES = sorted((Path(__file__).parent / "crashes").iterdir())


def _target_module():
    spec = importlib.util.spec_from_file_location("mtgr_fuzz_target", TARGET)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("case", CRASHES, ids=[path.name for path in CRASHES])
def test_crash_regressions(case: Path) -> None:
    started = time.monotonic()
    _target_module().check_input(case.read_bytes())
    assert time.monotonic() - started < 10, "an input that once hung takes too long again"


def test_the_corpus_passes() -> None:
    target = _target_module()
    seeds = sorted((ROOT / "fuzz" / "corpus").iterdir())
    assert len(seeds) >= 5
    for seed in seeds:
        target.check_input(seed.read_bytes())


def test_short_fuzz_run(tmp_path: Path) -> None:
    if importlib.util.find_spec("atheris") is None:
        pytest.skip(
            "atheris is not installed: scripts/setup --test installs it (a test dependency)"
        )
    corpus = tmp_path / "corpus"
    artifacts = tmp_path / "artifacts"
    shutil.copytree(ROOT / "fuzz" / "corpus", corpus)
    artifacts.mkdir()
    completed = subprocess.run(
        [
            sys.executable,
            str(TARGET),
            str(corpus),
            f"-dict={ROOT / 'fuzz' / 'mtgr.dict'}",
            "-max_total_time=20",
            "-runs=200000",
            "-max_len=4096",
            "-timeout=10",
            "-rss_limit_mb=2048",
            f"-artifact_prefix={artifacts}/",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    found = sorted(p.name for p in artifacts.iterdir())
    assert completed.returncode == 0 and not found, (
        f"the fuzzer found {found} (copy them to tests/reliability/crashes/):\n"
        + completed.stderr[-4000:]
    )
    assert "Done" in completed.stderr
