"""The pages `mtgr render` writes, in real Chromium (playwright-core, from
scripts/setup-vscode-test): for every example the board page and the replay page open
with no console errors and no network request, show what the record says (names, life,
tapped cards, hidden cards as backs, the stack), follow the dark colour scheme, and the
replay steps through every line with the arrow key and moves with the slider.

A passing run writes docs/images/board.png, board-dark.png and replay.png (the README's
screenshots) when they are missing, or always with MTGR_UPDATE_SCREENSHOTS set.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mtgr.cli.main import main

pytestmark = pytest.mark.editor

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup-vscode-test"
DRIVER = ROOT / "tests" / "vscode" / "pages.js"
IMAGES = ROOT / "docs" / "images"
EXAMPLES = sorted((ROOT / "examples").glob("*.mtgr"))
RAGAVAN = "ragavan-dash"


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").split("\n"))


def cast_line() -> int:
    lines = (ROOT / "examples" / f"{RAGAVAN}.mtgr").read_text(encoding="utf-8").splitlines()
    return lines.index("#7 cast") + 1


@pytest.fixture(scope="module")
def chromium() -> str:
    done = subprocess.run([str(SETUP)], capture_output=True, text=True, timeout=3600, check=False)
    assert done.returncode == 0, f"scripts/setup-vscode-test failed:\n{done.stderr}"
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    return found["CHROMIUM"]


@pytest.fixture(scope="module")
def seen(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("pages")
    shots = base / "shots"
    shots.mkdir()
    pages = []
    for example in EXAMPLES:
        name = example.stem
        probe = cast_line() if name == RAGAVAN else (line_count(example) + 1) // 2
        board, replay = base / f"{name}.html", base / f"{name}-replay.html"
        assert main(["render", f"{example}:{probe}", "-o", str(board)]) == 0
        assert main(["render", str(example), "--replay", "-o", str(replay)]) == 0
        entry = {
            "name": name,
            "board": str(board),
            "replay": str(replay),
            "lines": line_count(example),
            "probe": probe,
        }
        if name == RAGAVAN:
            entry["screenshots"] = {
                "board": str(shots / "board.png"),
                "dark": str(shots / "board-dark.png"),
                "replay": str(shots / "replay.png"),
            }
        pages.append(entry)
    config = {
        "chromium": chromium,
        "profile": str(base / "profile"),
        "artifacts": str(base),
        "pages": pages,
    }
    config_path = base / "config.json"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    done = subprocess.run(
        ["node", str(DRIVER), str(config_path)],
        cwd=DRIVER.parent,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    result = json.loads((base / "result.json").read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stdout + done.stderr
    if all(page["ok"] for page in result["pages"].values()):
        for shot in shots.iterdir():
            target = IMAGES / shot.name
            if not target.exists() or os.environ.get("MTGR_UPDATE_SCREENSHOTS"):
                shutil.copy(shot, target)
    return result["pages"]


def page(seen: dict, name: str) -> dict:
    entry = seen[name]
    assert entry["ok"], entry.get("error")
    return entry


@pytest.mark.parametrize("example", [p.stem for p in EXAMPLES])
def test_the_board_page_opens_cleanly_and_follows_dark_mode(seen: dict, example: str) -> None:
    board = page(seen, example)["board"]
    assert board["errors"] == []
    assert board["players"], board
    assert board["background"] != board["darkBackground"]


@pytest.mark.parametrize("example", [p.stem for p in EXAMPLES])
def test_the_replay_steps_through_every_line(seen: dict, example: str) -> None:
    replay = page(seen, example)["replay"]
    lines = line_count(ROOT / "examples" / f"{example}.mtgr")
    assert replay["errors"] == []
    assert replay["start"] == "1"
    assert [step["line"] for step in replay["steps"]] == [str(n) for n in range(2, lines + 1)]
    for number, step in enumerate(replay["steps"], 2):
        assert step["where"] == f"line {number} of {lines}"
        assert step["head"].startswith(f"after line {number} of {lines}")
        assert step["slider"] == str(number)
    assert replay["lastKey"] == replay["pastEnd"] == str(lines)
    assert replay["home"] == "1"
    if replay["turns"]:
        assert replay["jumped"] == replay["turns"][-1][0]
    if replay["ticks"]:
        assert replay["ticked"] == replay["ticks"][0]


def test_the_board_at_line_70_shows_the_position(seen: dict) -> None:
    board = page(seen, RAGAVAN)["board"]
    alice, bob = board["players"]["Alice"], board["players"]["Bob"]
    assert board["where"].startswith(f"after line {cast_line()} of")
    assert alice["life"] == "17"
    assert alice["tapped"] == ["Dragon's Rage Channeler"]
    assert "Steam Vents" in alice["cards"]
    assert bob["backs"] == 7
    assert board["stack"] == ["#7 Expressive Iteration"]


def test_the_slider_moves_the_replay_to_line_70(seen: dict) -> None:
    probe = page(seen, RAGAVAN)["replay"]["probe"]
    assert probe["where"].startswith(f"after line {cast_line()} of")
    assert probe["players"]["Alice"]["life"] == "17"
    assert probe["players"]["Alice"]["tapped"] == ["Dragon's Rage Channeler"]
    assert probe["players"]["Bob"]["backs"] == 7
    assert probe["stack"] == ["#7 Expressive Iteration"]


def test_diagnostics_are_marked_on_the_timeline(seen: dict) -> None:
    replay = page(seen, "mistakes")["replay"]
    assert len(replay["ticks"]) >= 5
    assert replay["ticked"] == replay["ticks"][0]
