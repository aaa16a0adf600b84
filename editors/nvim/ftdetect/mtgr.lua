-- .mtgr files are records of Magic: The Gathering games.
vim.filetype.add({ extension = { mtgr = 'mtgr' } })
