-- mtgr language server for Neovim 0.11+ (vim.lsp.config). Drop this folder into your
-- runtimepath (or copy this file to ~/.config/nvim/lsp/mtgr.lua), then: vim.lsp.enable('mtgr')
return {
  cmd = { 'mtgr', 'lsp' },
  filetypes = { 'mtgr' },
  root_markers = { '.git' },
  settings = {
    mtgr = {
      -- rulesFile = '/path/to/MagicCompRules.txt', -- your own copy of the CR, for rule hover
      -- cardsFile = '/path/to/oracle-cards.json', -- card data (default: `mtgr cards import`'s index)
      -- severity = { N105 = 'hint', V706 = 'off' },
      inlayHints = { enabled = true },
    },
  },
}
