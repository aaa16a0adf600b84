"""What the end-to-end tests share: the opening of their records (accented names before
the cursor, a hidden hand, a replaced discard) and applying a server's edits as an
editor does, in the negotiated position encoding."""

from __future__ import annotations

import itertools

from lsprotocol import types
from pytest_lsp import client_capabilities

from mtgr.syntax.document import LINE_BREAK, split_lines

OPENING = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 6
"Bob" roll d20 17
start "Bob" by "Bob"
"Bob" draw #1
"Bob" draw #2
"Alice" draw #8 "Æther Vial"
"Alice" draw #9 "Leyline of the Void"
"Alice" draw #10 "Jötun Grunt"
"Bob" keep
"Alice" keep
#9 move hand -> battlefield by #9
turn 1 "Bob"
step upkeep
step draw
"Bob" draw #3
phase main
#1 "Thoughtseize" cast
#1 target "Alice"
#1 resolve
"""


def capabilities(preset: str) -> types.ClientCapabilities:
    """A pytest-lsp preset ("visual-studio-code", "neovim"), or "<encoding> only": VS Code's
    capabilities offering that one position encoding ("utf-8 only", "utf-32 only")."""
    if preset.endswith(" only"):
        caps = client_capabilities("visual-studio-code")
        caps.general = types.GeneralClientCapabilities(position_encodings=[preset.split()[0]])
        return caps
    return client_capabilities(preset)


def units(text: str, encoding: str) -> int:
    """How many units of the negotiated encoding a text takes: what LSP positions count."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def column(line: str, character: int, encoding: str) -> int:
    """A client position's character as a code-point column in `line`."""
    units = 0
    for index, ch in enumerate(line):
        if units >= character:
            return index
        if encoding == "utf-8":
            units += len(ch.encode("utf-8"))
        elif encoding == "utf-16":
            units += len(ch.encode("utf-16-le")) // 2
        else:
            units += 1
    return len(line)


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """Applies edits the way an editor does: positions count lines by any line end, and
    the line ends between the edits stay as they are."""
    lines = split_lines(text)
    starts = [0, *(match.end() for match in LINE_BREAK.finditer(text))]

    def absolute(position: types.Position) -> int:
        return starts[position.line] + column(lines[position.line], position.character, encoding)

    ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))
    for before, after in itertools.pairwise(ordered):
        assert absolute(before.range.end) <= absolute(after.range.start), "edits overlap"
    for edit in reversed(ordered):
        start, end = absolute(edit.range.start), absolute(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text
