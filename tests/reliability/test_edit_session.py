"""A long editing session through the real server, with every kind of line break.

More than a thousand seeded edits go to the server as incremental didChange notifications
with UTF-16 ranges, on a record whose lines end in a mix of LF, CRLF and lone CR: inserts,
deletes, joins and splits, lone CRs, non-BMP characters, and the edits that turn a lone CR
and an LF into one CRLF or split one apart (the faults an independent attack found, where
the server's line count left the client's). After every edit the server's diagnostics,
pushed or pulled, equal a fresh `mtgr check` of the client's text, and the server's
formatting edits, applied to the client's text, give what `mtgr fmt` makes of it.
"""

from __future__ import annotations

import random
import sys

import pytest
import pytest_lsp
from _text import ROOT, apply_change, apply_text_edits, utf16_character
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from test_incremental_server import diagnostics_for, expected, published, random_change

from mtgr.syntax.document import split_with_breaks
from mtgr.syntax.format import format_text

EDITS = 1000
OPENING_LINES = 100  # a game's first turns: long enough for every kind of line, quick to re-check
BREAKS = ["\n", "\n", "\r\n", "\r"]


def mixed_breaks(text: str, rng: random.Random) -> str:
    """The text with each line break replaced by LF, CRLF or a lone CR at random."""
    texts, _breaks = split_with_breaks(text)
    return "".join(line + rng.choice(BREAKS) for line in texts[:-1]) + texts[-1]


def _insert(text: str, line: int, column: int, new: str) -> tuple[types.TextEdit, str]:
    content = split_with_breaks(text)[0][line]
    at = types.Position(line=line, character=utf16_character(content, column))
    change = types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=new)
    return change, apply_change(text, (at.line, at.character), (at.line, at.character), new)


def line_break_change(
    rng: random.Random, text: str
) -> tuple[types.TextDocumentContentChangeEvent, str] | None:
    """An edit at a line break: one that joins a lone CR and an LF into a CRLF, splits a
    line with a lone CR, or puts a non-BMP character at a line's edge."""
    texts, breaks = split_with_breaks(text)
    kind = rng.choice(["cr-before-lf", "lf-after-cr", "between-cr-and-lf", "lone-cr", "non-bmp"])
    if kind == "cr-before-lf":
        candidates = [i for i, end in enumerate(breaks) if end == "\n"]
        if candidates:
            line = rng.choice(candidates)
            return _insert(text, line, len(texts[line]), "\r")
    elif kind == "lf-after-cr":
        candidates = [i for i, end in enumerate(breaks) if end == "\r"]
        if candidates:
            return _insert(text, rng.choice(candidates) + 1, 0, "\n")
    elif kind == "between-cr-and-lf":
        candidates = [
            i for i in range(len(breaks) - 1) if breaks[i] == "\r" and breaks[i + 1] == "\n"
        ]
        if candidates:
            line = rng.choice(candidates) + 1
            start = types.Position(line=line, character=0)
            end = types.Position(
                line=line, character=utf16_character(texts[line], len(texts[line]))
            )
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=start, end=end), text=""
            )
            return change, apply_change(text, (line, 0), (line, end.character), "")
    else:
        line = rng.randrange(len(texts))
        column = rng.choice([0, len(texts[line]), rng.randint(0, len(texts[line]))])
        return _insert(text, line, column, "\r" if kind == "lone-cr" else "😀")
    return None


def session_change(
    rng: random.Random, text: str
) -> tuple[types.TextDocumentContentChangeEvent, str]:
    if rng.random() < 0.35 and (found := line_break_change(rng, text)) is not None:
        return found
    return random_change(rng, text)


def pulling_capabilities() -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=False)
    return caps


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["push", "pull"],
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    caps = (
        pulling_capabilities()
        if request.param == "pull"
        else client_capabilities("visual-studio-code")
    )
    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps))
    lsp_client.pulls = request.param == "pull"  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def server_diagnostics(client: LanguageClient, uri: str, version: int, waiting) -> list:
    if not client.pulls:  # type: ignore[attr-defined]
        return published(await waiting)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return published(report.items)


async def formatted_by_server(client: LanguageClient, uri: str, text: str) -> str:
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    return apply_text_edits(text, list(edits or []))


async def test_a_long_session_with_every_kind_of_line_break(client: LanguageClient) -> None:
    rng = random.Random(18)
    uri = "file:///tmp/session.mtgr"
    record = (ROOT / "examples" / "ragavan-dash.mtgr").read_text(encoding="utf-8")
    text = mixed_breaks("\n".join(record.split("\n")[:OPENING_LINES]), rng)
    version = 1
    waiting = None if client.pulls else diagnostics_for(client, uri, version)  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    assert await server_diagnostics(client, uri, version, waiting) == expected(text)
    for step in range(EDITS):
        changes = []
        for _ in range(rng.choice([1, 1, 1, 2])):
            change, text = session_change(rng, text)
            changes.append(change)
        version += 1
        waiting = None if client.pulls else diagnostics_for(client, uri, version)  # type: ignore[attr-defined]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes,
            )
        )
        got = await server_diagnostics(client, uri, version, waiting)
        assert got == expected(text), (step, changes)
        assert await formatted_by_server(client, uri, text) == format_text(text), (step, changes)
