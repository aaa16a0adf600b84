"""```mtgr blocks are found where CommonMark finds fenced code (top level, block quotes,
list items, either fence character, any case of `mtgr`), and their findings keep the
page's lines and columns."""

from __future__ import annotations

from mtgr.check import check_text
from mtgr.syntax.markdown import mtgr_blocks

RECORD = [
    "mtgr 0.4",
    'player "Alice" deck 60',
    'player "Bob" deck 60',
    'perspective "Alice"',
    '"Alice" draw #1 "Shock"',
    '"Alice" draw #2 "Opt"',
    "#1 cast",
    "#2 cast",
    "#1 resolve",
]
# K301 on `#1 resolve`: #2 is on top of the stack
K301_COLUMN = RECORD[-1].index("resolve")


def page(prefix: str, opening: str = "```mtgr", closing: str = "```") -> str:
    """A page holding RECORD in one fenced block, every line of it after `prefix`."""
    fenced = [opening, *RECORD, closing]
    return "\n".join(["# A game", "", *(prefix + line for line in fenced), "", "after"])


def found(markdown: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.span.start) for d in check_text(mtgr_blocks(markdown))]


def k301(prefix: str) -> list[tuple[str, int, int]]:
    line = 2 + len(RECORD)  # two lines before the fence, then the fence itself
    return [("K301", line, len(prefix) + K301_COLUMN)]


def test_a_top_level_block() -> None:
    assert found(page("")) == k301("")


def test_a_block_in_a_block_quote() -> None:
    assert found(page("> ")) == k301("> ")


def test_a_block_in_a_list_item() -> None:
    markdown = page("   ").replace("   ```mtgr", "-  ```mtgr", 1)
    assert found(markdown) == k301("   ")


def test_a_block_in_a_quoted_list_item() -> None:
    markdown = page(">    ").replace(">    ```mtgr", "> 1. ```mtgr", 1)
    assert found(markdown) == k301(">    ")


def test_tildes_any_case_and_more_words_in_the_info_string() -> None:
    assert found(page("", "~~~~ MTGR title=game", "~~~~")) == k301("")


def test_an_unclosed_fence_runs_to_the_end_of_its_container() -> None:
    quoted = page("> ", closing="").replace("\nafter", "\n> more quoted")
    assert found(quoted) == k301("> ")
    # the quote ends at the blank line: "after" is not part of the block
    assert mtgr_blocks(page("> ", closing="")).split("\n")[-1] == ""


def test_what_is_not_an_mtgr_fence_is_blanked() -> None:
    other = page("", "```python")
    indented = page("    ")  # an indented code block that shows fence marks
    short = page("", "``mtgr", "``")  # two backticks: inline code, not a fence
    for markdown in (other, indented, short):
        assert set(mtgr_blocks(markdown).split("\n")) == {""}, markdown


def test_a_longer_fence_holds_a_shorter_one() -> None:
    markdown = page("", "````mtgr", "````").replace("#2 cast", "```\n#2 cast")
    blanked = mtgr_blocks(markdown).split("\n")
    assert "```" in blanked  # kept as a line of the record (and reported there)
    assert len(blanked) == len(markdown.split("\n"))


def test_line_endings_and_the_page_length_are_kept() -> None:
    markdown = page("> ").replace("\n", "\r\n")
    assert len(mtgr_blocks(markdown).split("\n")) == len(markdown.split("\r\n"))
    assert found(markdown) == k301("> ")
