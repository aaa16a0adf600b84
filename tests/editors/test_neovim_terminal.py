"""Neovim in a real terminal (tmux): the user's config from editors/nvim/ shows our
diagnostics as virtual text and highlights from semantic tokens. The captured screen
becomes the README's screenshot (docs/images/neovim.png) when it is missing, or when
MTGR_UPDATE_SCREENSHOTS=1, and Chromium is there to render it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ansi2html import Ansi2HTMLConverter

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "images" / "neovim.png"

pytestmark = pytest.mark.editor


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", "mtgr-test", *args], check=True, capture_output=True, text=True
    ).stdout


def test_diagnostics_show_in_the_terminal(tmp_path: Path) -> None:
    assert shutil.which("tmux"), "tmux is needed: apt-get install tmux"
    nvim = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")
    assert nvim
    record = tmp_path / "mistakes.mtgr"
    shutil.copy(ROOT / "examples" / "mistakes.mtgr", record)
    init = tmp_path / "init.lua"
    init.write_text(
        f"""
vim.opt.runtimepath:append([[{ROOT / "editors" / "nvim"}]])
vim.cmd('runtime! ftdetect/*.lua')
vim.opt.termguicolors = true
vim.opt.number = true
vim.lsp.config('mtgr', {{ cmd = {{ [[{sys.executable}]], '-m', 'mtgr', 'lsp' }} }})
vim.lsp.enable('mtgr')
vim.diagnostic.config({{ virtual_text = true }})
""",
        encoding="utf-8",
    )
    env = {**os.environ, "TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path / "state")}
    command = f"{nvim} --clean -n -u {init} +74 {record}"
    subprocess.run(
        [
            "tmux",
            "-L",
            "mtgr-test",
            "new-session",
            "-d",
            "-s",
            "nvim",
            "-x",
            "150",
            "-y",
            "40",
            command,
        ],
        check=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        screen = ""
        while time.monotonic() < deadline:
            screen = _tmux("capture-pane", "-p", "-t", "nvim")
            if "only a countered object may leave from below" in screen:
                break
            time.sleep(0.2)
        assert "#17 resolves, but #18" in screen, screen
        time.sleep(1.0)  # semantic tokens arrive after the diagnostics
        colored = _tmux("capture-pane", "-p", "-e", "-t", "nvim")
        assert colored.count("\x1b[") > 20, "no colours: semantic tokens were not applied"
        _screenshot(colored, tmp_path)
    finally:
        subprocess.run(["tmux", "-L", "mtgr-test", "kill-server"], check=False)


def _screenshot(colored: str, tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    wanted = not SCREENSHOT.exists() or os.environ.get("MTGR_UPDATE_SCREENSHOTS") == "1"
    if not (chromium and wanted):
        return
    html = Ansi2HTMLConverter(dark_bg=True, font_size="13px").convert(colored)
    page = tmp_path / "screen.html"
    page.write_text(html, encoding="utf-8")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'chromium'}",
            f"--screenshot={SCREENSHOT}",
            "--window-size=1250,700",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
