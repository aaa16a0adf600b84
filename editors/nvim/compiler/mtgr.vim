" :compiler mtgr, then :make checks the current record with `mtgr check` and fills the
" quickfix list (`:make other.mtgr records/` checks those too). mtgr check prints
" `path:line:col: severity CODE message`; error, warning and information become the
" quickfix types E, W and I, a hint has none, and other lines (the summary) are dropped.
if exists('current_compiler')
  finish
endif
let current_compiler = 'mtgr'

CompilerSet makeprg=mtgr\ check\ %:S
CompilerSet errorformat=%f:%l:%c:\ %trror\ %m,
      \%f:%l:%c:\ %tarning\ %m,
      \%f:%l:%c:\ %tnformation\ %m,
      \%f:%l:%c:\ hint\ %m,
      \%-G%.%#
