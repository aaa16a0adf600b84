;;; mtgr-mode.el --- .mtgr records of Magic: The Gathering games, with eglot  -*- lexical-binding: t; -*-

;; A small major mode for .mtgr files: `//' comments (so M-; and comment-region work),
;; strings, and highlighting of object numbers, keywords and comments; eglot (built into
;; Emacs 29, the `eglot' package from GNU ELPA or Debian's elpa-eglot before that) runs
;; `mtgr lsp' for diagnostics (Flymake), hover (ElDoc), completion, definitions, code
;; actions and formatting.
;;
;; Setup: (add-to-list 'load-path "/path/to/mtgr/editors/emacs")
;;        (require 'mtgr-mode)
;;        (add-hook 'mtgr-mode-hook #'eglot-ensure)

;;; Code:

(defvar mtgr-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?/ ". 12" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?# "_" table)
    (modify-syntax-entry ?- "_" table)
    table)
  "Syntax table of `mtgr-mode': `//' starts a comment that ends with the line.")

(defconst mtgr-font-lock-keywords
  `((,(regexp-opt '("mtgr" "title" "rules" "player" "perspective" "start" "game" "turn"
                    "phase" "step" "incomplete" "keyframe" "end")
                  'symbols)
     . font-lock-keyword-face)
    ("#[0-9]+" . font-lock-variable-name-face)
    ("->" . font-lock-builtin-face)
    ("\\_<[+-][0-9]+\\_>" . font-lock-constant-face))
  "Highlighting of `mtgr-mode': structure keywords, object numbers, arrows, amounts.")

;;;###autoload
(define-derived-mode mtgr-mode prog-mode "mtgr"
  "Major mode for .mtgr records of Magic: The Gathering games."
  :syntax-table mtgr-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "//+\\s-*")
  (setq-local font-lock-defaults '(mtgr-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.mtgr\\'" . mtgr-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(mtgr-mode . ("mtgr" "lsp"))))

(provide 'mtgr-mode)
;;; mtgr-mode.el ends here
