-- :MtgrBoard: the board after the cursor's line, as text, in a split (or a float) that
-- follows the cursor and edits. The board comes from the language server's `mtgr/board`
-- request (docs/server.md); nothing is checked here.
local M = {}

local DEBOUNCE_MS = 25
local FILETYPES = { mtgr = true, markdown = true }

local state = {
  buf = nil, -- the board's scratch buffer
  win = nil, -- the window showing it
  source = nil, -- the record's buffer the board follows
  asked = 0, -- the latest request; older answers are dropped
  timer = nil,
  group = nil,
}

local function is_open()
  return state.win ~= nil and vim.api.nvim_win_is_valid(state.win)
end

local function show(lines)
  if not (state.buf and vim.api.nvim_buf_is_valid(state.buf)) then
    return
  end
  vim.bo[state.buf].modifiable = true
  vim.api.nvim_buf_set_lines(state.buf, 0, -1, false, lines)
  vim.bo[state.buf].modifiable = false
end

-- the cursor line (zero-based) of the source buffer, in the current window if it shows it
local function cursor_line(source)
  if vim.api.nvim_get_current_buf() == source then
    return vim.api.nvim_win_get_cursor(0)[1] - 1
  end
  local win = vim.fn.bufwinid(source)
  if win ~= -1 then
    return vim.api.nvim_win_get_cursor(win)[1] - 1
  end
  return nil
end

function M.update()
  local source = state.source
  if not is_open() or not (source and vim.api.nvim_buf_is_valid(source)) then
    return
  end
  local line = cursor_line(source)
  if line == nil then
    return
  end
  local client = vim.lsp.get_clients({ bufnr = source, name = 'mtgr' })[1]
  if not client then
    show({ 'mtgr: no language server attached to this buffer' })
    return
  end
  state.asked = state.asked + 1
  local asked = state.asked
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(source),
    line = line,
    formats = { 'text' },
  }
  client:request('mtgr/board', params, function(err, result)
    if asked ~= state.asked then
      return -- a newer request is on its way
    end
    if err then
      show({ 'mtgr/board: ' .. (err.message or tostring(err)) })
    elseif result == nil or result == vim.NIL then
      show({ 'checking the record...' })
      vim.defer_fn(M.update, 250)
    else
      show(vim.split(result.text, '\n', { trimempty = true }))
      vim.b[state.buf].mtgr_board_line = result.line + 1
    end
  end, source)
end

local function schedule()
  if state.timer then
    state.timer:stop()
  else
    state.timer = vim.uv.new_timer()
  end
  state.timer:start(DEBOUNCE_MS, 0, vim.schedule_wrap(M.update))
end

local function follow(args)
  if FILETYPES[vim.bo[args.buf].filetype] and args.buf ~= state.buf then
    state.source = args.buf
    schedule()
  end
end

function M.close()
  if state.group then
    vim.api.nvim_del_augroup_by_id(state.group)
    state.group = nil
  end
  if state.timer then
    state.timer:stop()
    state.timer:close()
    state.timer = nil
  end
  if is_open() then
    vim.api.nvim_win_close(state.win, true)
  end
  state.win, state.buf = nil, nil
end

-- opts.float: a floating window at the right instead of a split
function M.open(opts)
  opts = opts or {}
  local source = vim.api.nvim_get_current_buf()
  if not FILETYPES[vim.bo[source].filetype] then
    vim.notify('MtgrBoard: open an .mtgr file first', vim.log.levels.WARN)
    return
  end
  M.close()
  state.source = source
  state.buf = vim.api.nvim_create_buf(false, true)
  vim.bo[state.buf].bufhidden = 'wipe'
  vim.bo[state.buf].filetype = 'mtgrboard'
  vim.api.nvim_buf_set_name(state.buf, 'mtgr board')
  local here = vim.api.nvim_get_current_win()
  if opts.float then
    local width = math.min(82, vim.o.columns - 4)
    state.win = vim.api.nvim_open_win(state.buf, false, {
      relative = 'editor',
      row = 1,
      col = vim.o.columns - width - 2,
      width = width,
      height = math.max(10, vim.o.lines - 6),
      style = 'minimal',
      border = 'rounded',
      title = ' mtgr board ',
    })
  else
    vim.cmd('botright vertical 82 split')
    state.win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(state.win, state.buf)
    vim.wo[state.win].wrap = false
    vim.wo[state.win].number = false
    vim.wo[state.win].winfixwidth = true
    vim.api.nvim_set_current_win(here)
  end
  state.group = vim.api.nvim_create_augroup('mtgr_board', { clear = true })
  vim.api.nvim_create_autocmd(
    { 'CursorMoved', 'CursorMovedI', 'TextChanged', 'TextChangedI', 'BufEnter' },
    { group = state.group, callback = follow }
  )
  vim.api.nvim_create_autocmd('WinClosed', {
    group = state.group,
    pattern = tostring(state.win),
    callback = function()
      vim.schedule(M.close)
    end,
  })
  show({ 'asking the server...' })
  M.update()
end

function M.toggle(opts)
  if is_open() then
    M.close()
  else
    M.open(opts)
  end
end

-- for tests and statuslines: the board buffer, or nil
function M.buffer()
  return is_open() and state.buf or nil
end

return M
