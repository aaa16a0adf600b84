-- Buffer settings for .mtgr records: `gc` comments a line with `//` (commentstring), `gq`
-- formats through the language server (textDocument/rangeFormatting; Neovim's own
-- formatting while no server is attached), and a warning when the server is enabled but
-- its command cannot run. `:compiler mtgr` then `:make` fills the quickfix list.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

vim.bo.commentstring = '// %s'
vim.bo.comments = '://'
vim.bo.formatexpr = 'v:lua.vim.lsp.formatexpr()'
vim.b.undo_ftplugin = 'setlocal commentstring< comments< formatexpr<'

require('mtgr').warn_if_the_server_cannot_start()
