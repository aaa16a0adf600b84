"""The pre-commit hooks call commands that exist, on the files they should."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtgr.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def hooks() -> list[dict[str, str]]:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    found: list[dict[str, str]] = []
    for line in text.splitlines():
        match = re.match(r"^(-\s+|\s+)(\w+): (.*)$", line)
        if not match:
            continue
        if match.group(1).startswith("-"):
            found.append({})
        found[-1][match.group(2)] = match.group(3)
    return found


def test_hooks_run_mtgr_subcommands_on_records(capsys: pytest.CaptureFixture[str]) -> None:
    entries = {h["id"]: h for h in hooks()}
    assert set(entries) == {"mtgr-check", "mtgr-fmt"}
    for hook in entries.values():
        program, command = hook["entry"].split()
        assert program == "mtgr" and hook["language"] == "python"
        assert re.search(hook["files"], "game.mtgr")
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
    capsys.readouterr()
