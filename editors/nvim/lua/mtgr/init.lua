-- Helpers for the mtgr runtime files: which command starts the language server, and a
-- message when it cannot run (Neovim itself only writes that to its LSP log).
local M = {}

--- The server command of the `mtgr` LSP config (lsp/mtgr.lua with the user's changes).
--- @return string[]|nil
function M.server_command()
  local config = vim.lsp.config.mtgr
  local cmd = config and config.cmd
  if type(cmd) == 'table' then
    return cmd
  end
  return nil
end

--- Warns once when the mtgr server is enabled but its executable is not found.
function M.warn_if_the_server_cannot_start()
  if not vim.lsp.is_enabled or not vim.lsp.is_enabled('mtgr') then
    return
  end
  local cmd = M.server_command()
  if cmd and vim.fn.executable(cmd[1]) == 0 then
    vim.notify_once(
      ('mtgr: the language server cannot start: `%s` is not an executable on PATH. '
        .. 'Install mtgr (`pip install .` in a clone of the repository) or set its command '
        .. "with vim.lsp.config('mtgr', { cmd = { ... } }); :checkhealth mtgr says more."):format(cmd[1]),
      vim.log.levels.WARN
    )
  end
end

return M
