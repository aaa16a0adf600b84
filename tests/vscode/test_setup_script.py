"""scripts/setup-vscode-test tells a prerequisite the machine cannot have (exit status 3
and one MISSING= line, which test_code_server.py turns into one skip reason) from a
failure (exit status 1), and sets nothing up before it has checked them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup-vscode-test"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a bash script for Debian")


def run_with_node(tmp_path: Path, major: str) -> subprocess.CompletedProcess[str]:
    """The script with a stand-in `node` of this major version first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    node = bin_dir / "node"
    node.write_text(f"#!/bin/sh\necho {major}\n")
    node.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "MTGR_VSCODE_TEST_CACHE": str(tmp_path / "cache"),
    }
    return subprocess.run(
        [str(SETUP)], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_another_node_is_a_missing_prerequisite(tmp_path: Path) -> None:
    done = run_with_node(tmp_path, "18")
    assert done.returncode == 3, done.stderr
    missing = [line for line in done.stdout.splitlines() if line.startswith("MISSING=")]
    assert len(missing) == 1, done.stdout
    assert "Node 20" in missing[0]
    # nothing was installed before the check
    assert sorted(path.name for path in (tmp_path / "cache").iterdir()) == [".lock"]
