-- :checkhealth mtgr: Neovim's version, the filetype, the LSP config, the server's
-- executable, and the server itself started and asked `initialize` (its name and version
-- come from the answer's serverInfo).
local M = {}

local function message(body)
  local text = vim.json.encode(body)
  return ('Content-Length: %d\r\n\r\n%s'):format(#text, text)
end

--- Starts the server, initializes it, shuts it down; its serverInfo, or nil and why not.
--- @param cmd string[]
--- @return table|nil, string|nil
local function initialize(cmd)
  local input = message({
    jsonrpc = '2.0',
    id = 1,
    method = 'initialize',
    params = { processId = vim.fn.getpid(), rootUri = vim.NIL, capabilities = vim.empty_dict() },
  }) .. message({ jsonrpc = '2.0', method = 'initialized', params = vim.empty_dict() })
    .. message({ jsonrpc = '2.0', id = 2, method = 'shutdown' })
    .. message({ jsonrpc = '2.0', method = 'exit' })
  local ok, done = pcall(function()
    -- not `text = true`: it would turn the headers' \r\n into \n
    return vim.system(cmd, { stdin = input, timeout = 30000 }):wait()
  end)
  if not ok then
    return nil, tostring(done)
  end
  local out, position = done.stdout or '', 1
  while true do
    -- headers (Content-Length, perhaps Content-Type), a blank line, the body
    local _, length_end, length = out:find('Content%-Length: (%d+)\r\n', position)
    local _, body_start = out:find('\r\n\r\n', length_end and length_end - 1 or position)
    if not length_end or not body_start then
      break
    end
    local body = out:sub(body_start + 1, body_start + tonumber(length))
    position = body_start + tonumber(length) + 1
    local decoded_ok, reply = pcall(vim.json.decode, body)
    if decoded_ok and reply.id == 1 then
      if reply.result then
        return reply.result.serverInfo or {}, nil
      end
      return nil, 'initialize failed: ' .. vim.inspect(reply.error)
    end
  end
  local stderr = vim.trim(done.stderr or '')
  return nil,
    ('no answer to initialize (exit code %s)%s'):format(
      tostring(done.code),
      stderr ~= '' and (': ' .. stderr:sub(-800)) or ''
    )
end

function M.check()
  vim.health.start('mtgr')
  if vim.fn.has('nvim-0.11') == 1 then
    vim.health.ok('Neovim ' .. tostring(vim.version()))
  else
    vim.health.error('Neovim 0.11 or newer is needed (vim.lsp.config, vim.lsp.enable)')
  end

  if vim.filetype.match({ filename = 'game.mtgr' }) == 'mtgr' then
    vim.health.ok('.mtgr files have the filetype mtgr')
  else
    vim.health.error('.mtgr files are not detected: add editors/nvim to your runtimepath')
  end

  local cmd = require('mtgr').server_command()
  if not cmd then
    vim.health.error('no `mtgr` LSP config: add editors/nvim to your runtimepath (lsp/mtgr.lua)')
    return
  end
  if vim.lsp.is_enabled and vim.lsp.is_enabled('mtgr') then
    vim.health.ok("the mtgr server is enabled (vim.lsp.enable('mtgr'))")
  else
    vim.health.warn("the mtgr server is not enabled", { "call vim.lsp.enable('mtgr')" })
  end

  local executable = vim.fn.exepath(cmd[1])
  if executable == '' then
    vim.health.error(('`%s` is not an executable on PATH'):format(cmd[1]), {
      'install mtgr: `pip install .` in a clone of the repository',
      "or set the command: vim.lsp.config('mtgr', { cmd = { '/path/to/mtgr', 'lsp' } })",
    })
    return
  end
  vim.health.ok(('server command: %s (%s)'):format(table.concat(cmd, ' '), executable))

  local info, why = initialize(cmd)
  if info then
    vim.health.ok(
      ('the server started and answered: %s %s'):format(info.name or '?', info.version or '?')
    )
  else
    vim.health.error('the server did not start: ' .. why, { 'see :LspLog' })
  end
end

return M
