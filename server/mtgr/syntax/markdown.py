"""Fenced ```mtgr blocks of a Markdown page, checked as one record with the page's line
numbers and columns.

The blocks are found as CommonMark finds fenced code (markdown-it-py): at the top level and
inside block quotes and list items, with backticks or tildes, an info string whose first
word is `mtgr` in any case, an unclosed fence running to the end of its container. Inside
a container, the prefix CommonMark strips from each line (`> `, a list item's indentation)
becomes spaces, so every statement keeps the column it has on the page.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from mtgr.syntax.document import split_lines

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@cache
def _commonmark() -> MarkdownIt:
    """The CommonMark parser, loaded with the first page: a server that opens no Markdown
    page, and every `mtgr check` of records alone, does without its 1.3 MB."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def _is_mtgr(info: str) -> bool:
    words = info.split(maxsplit=1)
    return bool(words) and words[0].lower() == "mtgr"


def mtgr_blocks(markdown: str) -> str:
    """The page with every line outside an mtgr block blank, so line numbers stay the page's."""
    lines = split_lines(markdown)
    out = [""] * len(lines)
    for token in _commonmark().parse("\n".join(lines)):
        if token.type != "fence" or token.map is None or not _is_mtgr(token.info):
            continue
        first = token.map[0] + 1  # the line after the opening fence
        for number, content in enumerate(token.content.split("\n")[:-1], start=first):
            if number >= len(lines):
                break
            source = lines[number]
            # the container's prefix as spaces; a tab expanded by CommonMark cannot be
            # mapped back, and the content then starts at column 1
            prefix = len(source) - len(content) if source.endswith(content) else 0
            out[number] = " " * prefix + content
    return "\n".join(out)
