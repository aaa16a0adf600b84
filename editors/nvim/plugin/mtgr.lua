-- :MtgrBoard [float]: the board after the cursor's line beside the record (lua/mtgr/board.lua).
vim.api.nvim_create_user_command('MtgrBoard', function(args)
  require('mtgr.board').toggle({ float = args.args == 'float' })
end, {
  nargs = '?',
  complete = function()
    return { 'float' }
  end,
  desc = 'mtgr: show the board after the cursor line (toggle)',
})
