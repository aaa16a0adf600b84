"""Fenced ```mtgr blocks of a Markdown page, checked as one record with the page's line numbers."""

from __future__ import annotations

import re

from mtgr.syntax.document import split_lines

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*(\S*)")


def mtgr_blocks(markdown: str) -> str:
    """The page with every line outside an mtgr block blanked, so line numbers stay the page's."""
    out: list[str] = []
    fence: str | None = None
    inside_mtgr = False
    for line in split_lines(markdown):
        match = _FENCE.match(line)
        if fence is None and match:
            fence, inside_mtgr = match.group(1), match.group(2).lower() == "mtgr"
            out.append("")
        elif (
            fence is not None
            and match
            and match.group(1).startswith(fence[0])
            and len(match.group(1)) >= len(fence)
            and not match.group(2)
        ):
            fence, inside_mtgr = None, False
            out.append("")
        else:
            out.append(line if inside_mtgr else "")
    return "\n".join(out)
