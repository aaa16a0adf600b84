"""Regressions from the independent attack on 0.4.0 (issue 18, items 1 and 2).

1. An edit that joins a lone CR and an LF into one CRLF, or splits one, left the server
   counting lines differently from the client: diagnostics one line off and formatting
   edits landing on the wrong lines.
2. A finding one line emits about an earlier line (D801 on a damage line, emitted by the
   line after it) outlived the line that emitted it.
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from _text import apply_change, apply_text_edits
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_incremental_server import diagnostics_for, expected, published

from mtgr.check import check_text, diagnostics
from mtgr.rules.walk import rewalk, walk
from mtgr.syntax.document import Document, split_lines
from mtgr.syntax.format import format_text

HEADER = 'mtgr 0.4\rplayer "Alice"\nplayer "Bob"\r\nperspective "Alice"\r'
# (text, start, end, new text): each changes how many lines a client counts
JOINS = [
    pytest.param(
        HEADER + '"Alice" draw #1 "Opt"\n  #1  cast', (1, 14), (1, 14), "\r", id="cr-before-lf"
    ),
    pytest.param(HEADER + '"Alice" draw #1 "Opt"\n#1 cast', (4, 0), (4, 0), "\n", id="lf-after-cr"),
    pytest.param(
        'mtgr 0.4\rx\nplayer "Alice"\n #1  tap', (1, 0), (1, 1), "", id="delete-between-cr-and-lf"
    ),
    pytest.param(HEADER + '"Alice" draw #1 "Opt"', (2, 12), (3, 0), "", id="split-crlf-apart"),
]


def _client_text(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    return apply_change(text, start, end, new)  # every test line here is ASCII: UTF-16 = columns


@pytest.mark.parametrize(("text", "start", "end", "new"), JOINS)
def test_the_document_counts_lines_as_the_client_does(
    text: str, start: tuple[int, int], end: tuple[int, int], new: str
) -> None:
    document = Document(text)
    document.edit(start, end, new)
    after = _client_text(text, start, end, new)
    assert document.text == after
    assert document.texts == split_lines(after)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize(("text", "start", "end", "new"), JOINS)
async def test_diagnostics_and_formatting_land_on_the_client_lines(
    client: LanguageClient, text: str, start: tuple[int, int], end: tuple[int, int], new: str
) -> None:
    uri = "file:///tmp/joins.mtgr"
    opened = diagnostics_for(client, uri, 1)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    await opened
    changed = diagnostics_for(client, uri, 2)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                    text=new,
                )
            ],
        )
    )
    after = _client_text(text, start, end, new)
    assert published(await changed) == expected(after)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    assert apply_text_edits(after, list(edits or [])) == format_text(after)


DAMAGE = (
    'mtgr 0.4\nperspective all\nplayer "Alice"\nplayer "Bob"\n'
    '"Alice" draw #1\n#1 damage 1 -> "Bob"\n#1 untap'
)


@pytest.mark.parametrize(
    ("start", "end"),
    [
        pytest.param((5, 20), (6, 8), id="delete-the-emitting-line"),
        pytest.param((5, 20), (6, 0), id="join-it-to-the-damage-line"),
    ],
)
def test_a_finding_goes_with_the_line_that_emitted_it(
    start: tuple[int, int], end: tuple[int, int]
) -> None:
    document = Document(DAMAGE)
    result = walk(document.lines)
    assert [d.line for d in diagnostics(document, result) if d.code == "D801"] == [5]
    first = document.edit(start, end, "")
    result = rewalk(result, document.lines, first)
    assert [(d.code, d.line) for d in diagnostics(document, result)] == [
        (d.code, d.line) for d in check_text(document.text)
    ]
