"""The setup files for Helix and Sublime Text (editors/README.md) name the server command
the package installs, and the language, file type and scope the grammar uses."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "editors"
GRAMMAR = json.loads((ROOT / "syntaxes" / "mtgr.tmLanguage.json").read_text(encoding="utf-8"))
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SERVER = [next(iter(PYPROJECT["project"]["scripts"])), "lsp"]


def test_helix_languages_toml() -> None:
    config = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    (language,) = config["language"]
    assert language["file-types"] == GRAMMAR["fileTypes"]
    assert language["scope"] == GRAMMAR["scopeName"]
    assert language["comment-token"] == "//"
    (name,) = language["language-servers"]
    server = config["language-server"][name]
    assert [server["command"], *server["args"]] == SERVER


def test_sublime_lsp_client() -> None:
    text = (EDITORS / "sublime" / "LSP.sublime-settings").read_text(encoding="utf-8")
    # Sublime's settings allow // comments; these are whole lines
    settings = json.loads(
        "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    )
    client = settings["clients"]["mtgr"]
    assert client["command"] == SERVER
    assert client["selector"] == GRAMMAR["scopeName"]
    assert client["enabled"] is True
