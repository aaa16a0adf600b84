"""Through the real server: after any edit, the published diagnostics are a fresh check's.

Random sequences of edits (inserts, deletes, joins and splits of lines, whole-document
replacements, several changes in one notification; in the pregame, in a keyframe, at
the end) go to the server over stdio as incremental didChange notifications with UTF-16
ranges. After each, the diagnostics the server publishes for that version must equal
`check_text` of the same text, columns converted from code points to UTF-16.
"""

from __future__ import annotations

import asyncio
import importlib.util
import random
import sys
from collections.abc import Sequence

import pytest
import pytest_lsp
from _text import ROOT, apply_change, utf16_character
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.check import check_text
from mtgr.syntax.document import split_lines

SNIPPETS = [
    "",
    "x",
    " ",
    "\n",
    "\r\n",
    "#",
    "7",
    '"',
    "->",
    "// note",
    " // allow O201",
    "resolve",
    "#2 cast\n",
    "step end\n",
    "phase main\n",
    '"Alice" draw #90 "Jötun Grunt"\n',
    '#91 new card "Dandân" battlefield "Bob"\n',
    '#3 "Jötun Grunt" cast\n',
    '"Bob" life -2 by #3\n',
    "#16 untap\n",
    '"Alice" keep\n',
    'turn 4 "Bob"\n',
    "keyframe\n",
    "end\n",
    '#1 battlefield "Alice" tapped\n',
    '"Alice" life 23\n',
    '#92 new card "Æther Vial 😀" hand "Alice"\n',
    "incomplete\n",
    'player "Carol"\n',
    "judge call allow O201 D804\n",  # a ruling silences findings above it (decision 0033)
]


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "mtgr_benchmarks_generate", ROOT / "benchmarks" / "generate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def expected(text: str) -> list[tuple[str, int, int, int, int, str]]:
    """A fresh check of the text, as (code, range in UTF-16, message), sorted."""
    lines = split_lines(text)
    found = []
    for d in check_text(text):
        line = lines[d.line]
        found.append(
            (
                d.code,
                d.line,
                utf16_character(line, d.span.start),
                d.line,
                utf16_character(line, d.span.end),
                d.message,
            )
        )
    return sorted(found)


def published(diagnostics: Sequence[types.Diagnostic]) -> list[tuple[str, int, int, int, int, str]]:
    return sorted(
        (
            str(d.code),
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            d.message,
        )
        for d in diagnostics
    )


# ---- edits --------------------------------------------------------------------------------


def _region_line(rng: random.Random, lines: list[str]) -> int:
    """A line in the pregame, in a keyframe, at the end, or anywhere."""
    region = rng.choice(["pregame", "keyframe", "end", "anywhere", "anywhere"])
    if region == "pregame":
        first_turn = next((i for i, s in enumerate(lines) if s.startswith("turn ")), len(lines))
        return rng.randrange(0, max(1, first_turn))
    if region == "keyframe":
        frames = [i for i, s in enumerate(lines) if s.strip() == "keyframe"]
        if frames:
            return min(len(lines) - 1, rng.choice(frames) + rng.randrange(0, 8))
    if region == "end":
        return max(0, len(lines) - 1 - rng.randrange(0, 4))
    return rng.randrange(0, len(lines))


def random_change(
    rng: random.Random, text: str
) -> tuple[types.TextDocumentContentChangeEvent, str]:
    """One change event and the text after it."""
    lines = split_lines(text)
    kind = rng.choice(
        ["insert", "insert", "delete", "replace", "join", "split", "whole", "past-end"]
    )
    line = _region_line(rng, lines)
    column = rng.randint(0, len(lines[line]))
    if kind == "whole":
        new_lines = list(lines)
        at = rng.randrange(0, len(new_lines))
        if rng.random() < 0.5:
            del new_lines[at]
        else:
            new_lines.insert(at, rng.choice(SNIPPETS).rstrip("\n"))
        new_text = "\n".join(new_lines)
        return types.TextDocumentContentChangeWholeDocument(text=new_text), new_text
    end_line, end_column = line, column
    new = ""
    if kind == "insert":
        new = rng.choice(SNIPPETS)
    elif kind in ("delete", "replace"):
        end_line = min(len(lines) - 1, line + rng.choice([0, 0, 1, 2]))
        end_column = rng.randint(0, len(lines[end_line]))
        if (end_line, end_column) < (line, column):
            end_line, end_column = line, column
        new = rng.choice(SNIPPETS) if kind == "replace" else ""
    elif kind == "join" and line + 1 < len(lines):
        column = len(lines[line])
        end_line, end_column = line + 1, 0
    elif kind == "split":
        new = "\n"
    elif kind == "past-end":  # positions past the end of a line, or of the document
        character = utf16_character(lines[line], len(lines[line])) + rng.randint(1, 5)
        start = types.Position(line=line, character=character)
        if rng.random() < 0.5:
            start = types.Position(line=len(lines) + rng.randint(0, 3), character=0)
        new = rng.choice(SNIPPETS)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=start, end=start), text=new
        )
        after = apply_change(
            text, (start.line, start.character), (start.line, start.character), new
        )
        return change, after
    start = types.Position(line=line, character=utf16_character(lines[line], column))
    end = types.Position(line=end_line, character=utf16_character(lines[end_line], end_column))
    change = types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text=new
    )
    after = apply_change(text, (start.line, start.character), (end.line, end.character), new)
    return change, after


# ---- the server ---------------------------------------------------------------------------


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


async def diagnostics_for(
    client: LanguageClient, uri: str, version: int
) -> Sequence[types.Diagnostic]:
    async def wait() -> Sequence[types.Diagnostic]:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return params.diagnostics

    return await asyncio.wait_for(wait(), timeout=60)


async def run_edits(client: LanguageClient, uri: str, text: str, edits: int, seed: int) -> None:
    rng = random.Random(seed)
    version = 1
    waiting = diagnostics_for(client, uri, version)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="mtgr", version=version, text=text
            )
        )
    )
    assert published(await waiting) == expected(text)
    for step in range(edits):
        changes = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            change, text = random_change(rng, text)
            changes.append(change)
        version += 1
        waiting = diagnostics_for(client, uri, version)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes,
            )
        )
        got = published(await waiting)
        assert got == expected(text), (seed, step, changes)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_edits_to_ragavan_dash(client: LanguageClient, seed: int) -> None:
    text = (ROOT / "examples" / "ragavan-dash.mtgr").read_text(encoding="utf-8")
    await run_edits(client, f"file:///tmp/ragavan-{seed}.mtgr", text, edits=80, seed=seed)


async def test_edits_to_a_generated_game(client: LanguageClient) -> None:
    text = _load_generator().generate(1000)
    assert "Jötun Grunt" in text or "Dandân" in text  # names wider in UTF-8 than in UTF-16
    await run_edits(client, "file:///tmp/generated.mtgr", text, edits=80, seed=7)


def test_deleting_the_line_above_a_checkpoint_rewalks_from_before_it() -> None:
    """Found by the test above: the line left at the first changed index carried the id of
    a checkpointed line, whose saved state still held the deleted line's draw."""
    from mtgr.rules.walk import CHECKPOINT_EVERY, rewalk, walk
    from mtgr.syntax.document import Document

    head = 'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\n'
    filler = "// note\n" * (CHECKPOINT_EVERY - 4)
    text = head + filler + '"Alice" draw #1 "Mountain"\n#1 play\n'
    document = Document(text)
    assert document.texts[CHECKPOINT_EVERY - 1].startswith('"Alice" draw #1')
    result = walk(document.lines)
    first = document.edit((CHECKPOINT_EVERY - 1, 0), (CHECKPOINT_EVERY, 0), "")
    result = rewalk(result, document.lines, first)
    fresh = walk(document.lines)
    assert result.findings(document.lines) == fresh.findings(document.lines)
    assert any(f.code == "O201" for f in fresh.findings(document.lines))
