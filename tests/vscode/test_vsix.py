"""The .vsix as the Marketplace gets it: scripts/build-vsix.sh builds it with no vsce flag
that hides a problem and no vsce warning, and it holds one JavaScript file (esbuild's
bundle of the extension and its client library), the Python bundle of the server, the
grammars, the icon and the licence."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "scripts" / "build-vsix.sh"
VSIX = ROOT / "vscode-extension" / "dist" / "mtgr.vsix"

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="build-vsix.sh is a bash script: releases build on Linux"
)


@pytest.fixture(scope="module")
def build() -> tuple[str, list[str]]:
    """The build's output and the names in the .vsix it wrote."""
    assert shutil.which("npm"), "npm is needed to build the .vsix"
    done = subprocess.run(
        ["bash", str(BUILD)],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
        env={**os.environ, "PYTHON": sys.executable},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(VSIX) as archive:
        return done.stdout, archive.namelist()


def test_vsce_runs_without_flags_that_hide_problems() -> None:
    script = BUILD.read_text(encoding="utf-8")
    assert "--allow-missing-repository" not in script
    assert "--skip-license" not in script


def test_vsce_does_not_warn(build: tuple[str, list[str]]) -> None:
    output, _ = build
    assert "DONE" in output
    assert "WARNING" not in output.upper(), output


def test_one_javascript_file(build: tuple[str, list[str]]) -> None:
    _, names = build
    scripts = [
        name
        for name in names
        if name.endswith((".js", ".cjs", ".mjs")) and not name.startswith("extension/bundled/")
    ]
    assert scripts == ["extension/out/extension.js"]
    assert not [name for name in names if "/node_modules/" in name]


def test_the_python_bundle_and_the_rest(build: tuple[str, list[str]]) -> None:
    _, names = build
    for needed in [
        "extension/bundled/libs/mtgr/__main__.py",
        "extension/bundled/libs/mtgr/server/app.py",
        "extension/bundled/libs/pygls/__init__.py",
        "extension/bundled/libs/lsprotocol/types.py",
        "extension/bundled/libs/parsimonious/__init__.py",
        "extension/syntaxes/mtgr.tmLanguage.json",
        "extension/images/icon.png",
        "extension/LICENSE.txt",
        "extension/package.json",
    ]:
        assert needed in names, needed
    # pure Python, one .vsix for every platform
    assert not [name for name in names if name.endswith((".so", ".pyd", ".dylib"))]
