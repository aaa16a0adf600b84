"""Emacs with eglot (Debian's Emacs and elpa-eglot, installed by scripts/setup-emacs-test),
in batch mode: editors/emacs/mtgr-mode.el gives .mtgr files their mode and `//` comments,
eglot starts `mtgr lsp` and Flymake gets its diagnostics on the right lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup-emacs-test"
MISSING_PREREQUISITE = 3  # scripts/setup-emacs-test's exit status for it
RECORD = """mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" draw #1 "Shock"
"Alice" draw #2 "Opt"
#1 cast
#2 cast
#1 resolve
"""
DRIVER = """
(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'eglot)
(add-to-list 'load-path {editors})
(require 'mtgr-mode)
(push '(mtgr-mode . ({python} "-m" "mtgr" "lsp")) eglot-server-programs)
(find-file {record})
(princ (format "MODE %s\\n" major-mode))
(save-excursion
  (goto-char (point-min))
  (forward-line 1)
  (comment-region (line-beginning-position) (line-end-position))
  (princ (format "COMMENTED %s\\n" (buffer-substring (line-beginning-position)
                                                     (line-end-position))))
  (uncomment-region (line-beginning-position) (line-end-position)))
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) 60)))
  (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
    (accept-process-output nil 0.2)))
(dolist (d (flymake-diagnostics))
  (princ (format "DIAGNOSTIC %d %s %s\\n" (line-number-at-pos (flymake-diagnostic-beg d))
                 (flymake-diagnostic-type d) (flymake-diagnostic-text d))))
(kill-emacs 0)
"""

pytestmark = pytest.mark.editor


def elisp_string(value: object) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def emacs() -> str:
    done = subprocess.run([str(SETUP)], capture_output=True, text=True, timeout=1800, check=False)
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if done.returncode == MISSING_PREREQUISITE and "MISSING" in found:
        reason = f"the Emacs test cannot run here: {found['MISSING']}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    assert done.returncode == 0, f"scripts/setup-emacs-test failed:\n{done.stderr}"
    return found["EMACS"]


def test_eglot_gets_diagnostics_and_comments_are_slashes(emacs: str, tmp_path: Path) -> None:
    record = tmp_path / "game.mtgr"
    record.write_text(RECORD, encoding="utf-8")
    driver = tmp_path / "drive.el"
    driver.write_text(
        DRIVER.format(
            editors=elisp_string(ROOT / "editors" / "emacs"),
            python=elisp_string(sys.executable),
            record=elisp_string(record),
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "HOME": str(tmp_path)}  # no user init, nothing written to ~/.emacs.d
    done = subprocess.run(
        [emacs, "-Q", "--batch", "-l", str(driver)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "MODE mtgr-mode" in done.stdout, output
    assert 'COMMENTED // player "Alice" deck 60' in done.stdout, output
    diagnostics = [line.split(" ", 3) for line in done.stdout.splitlines()]
    diagnostics = [parts[1:] for parts in diagnostics if parts[0] == "DIAGNOSTIC"]
    assert [(line, kind) for line, kind, _ in diagnostics] == [("9", "eglot-error")], output
    assert "K301" in diagnostics[0][2]
