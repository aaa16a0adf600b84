"""No text breaks the parser, the checker or the formatter, and quick fixes fix.

Any text: random bytes decoded with replacement, NUL, lone surrogates, CRLF and lone CR
line ends, tabs, megabyte lines, ten-thousand-digit numbers, long runs of `->`,
unterminated strings, and the real example lines mutated. For each: nothing raises,
every diagnostic lies inside the document, formatting is idempotent and keeps every
line's meaning, and every quick fix removes the diagnostic it is for and adds none.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable

import pytest
import pytest_lsp
from _text import apply_change, example_lines, example_texts, utf16_character
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mtgr.check import Diagnostic, check_text
from mtgr.server.features.code_actions import apply_edits, fixes
from mtgr.server.session import OpenDocument
from mtgr.syntax import tree as t
from mtgr.syntax.document import split_lines
from mtgr.syntax.format import format_text
from mtgr.syntax.parser import parse_line

LINES = example_lines()


def scaled(examples: int) -> int:
    """More examples for a longer run: MTGR_RELIABILITY_SCALE=10 pytest tests/reliability"""
    return max(1, int(examples * float(os.environ.get("MTGR_RELIABILITY_SCALE", "1"))))


TEXTS = example_texts()
PIECES = [
    "#",
    "#1",
    "#12",
    "#0",
    '"Alice"',
    '"Bob"',
    '"Jötun Grunt"',
    '"Dandân"',
    '"😀"',
    '"',
    '\\"',
    "\\",
    "->",
    " -> ",
    "//",
    "// allow O201",
    " ",
    "\t",
    "\x00",
    "\ufeff",
    "\u2028",
    "\ud800",
    "\udfff",
    "\r\n",
    "\r",
    "\n",
    "{R}",
    "+1/+1",
    "-3",
    "999999999",
    "1234567890123",
    "cast",
    "move",
    "draw",
    "by",
    "sba",
    "replacement",
    "library",
    "battlefield",
    "top",
    "turn",
    "step",
    "phase",
    "keyframe",
    "end",
    "incomplete",
    "game",
    "player",
    "start",
    "mtgr 0.4",
    "sideboard",
    "match",
    "drawn",
    "2-1-0",
    "variant commander",
    "commander",
    "tax 2",
    "judge",
    "missed-trigger",
    "allow D804",
    "mana",
    "{G}{G}",
    "split-second",
    "double-strike",
    "trample",
    "stays tapped",
]

# ---- strategies -------------------------------------------------------------------------

any_characters = st.text(
    st.characters(codec=None, categories=None, exclude_categories=()), max_size=80
)
replaced_bytes = st.binary(max_size=200).map(lambda b: b.decode("utf-8", errors="replace"))
pieces = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)
mixed_pieces = st.lists(
    st.one_of(st.sampled_from(PIECES), st.sampled_from(LINES), any_characters), max_size=12
).map(lambda parts: " ".join(parts))


@st.composite
def mutated_line(draw: st.DrawFn) -> str:
    line = draw(st.sampled_from(LINES))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "repeat"]))
        if kind == "insert":
            line = line[:at] + draw(st.one_of(st.sampled_from(PIECES), any_characters)) + line[at:]
        elif kind == "delete":
            line = line[:at] + line[at + draw(st.integers(1, 6)) :]
        elif kind == "replace":
            line = line[:at] + draw(st.sampled_from(PIECES)) + line[at + 1 :]
        elif kind == "truncate":
            line = line[:at]
        else:
            line = line[:at] + line[at:] * draw(st.integers(2, 4))
    return line


any_line = st.one_of(any_characters, replaced_bytes, pieces, mixed_pieces, mutated_line())


@st.composite
def mutated_document(draw: st.DrawFn) -> str:
    """An example file with a few of its lines mutated, dropped, doubled or swapped."""
    lines = split_lines(TEXTS[draw(st.sampled_from(sorted(TEXTS)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["mutate", "drop", "double", "swap", "insert"]))
        if kind == "mutate":
            lines[at] = draw(mutated_line())
        elif kind == "drop":
            del lines[at]
        elif kind == "double":
            lines.insert(at, lines[at])
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        else:
            lines.insert(at, draw(any_line))
        if not lines:
            lines = [""]
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


any_document = st.one_of(
    st.lists(any_line, max_size=12).flatmap(
        lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines))
    ),
    replaced_bytes,
    any_characters,
    mutated_document(),
)

# ---- what must hold ---------------------------------------------------------------------


def assert_line_inside(parsed: t.ParsedLine, line: str) -> None:
    spans = [token.span for token in parsed.tokens]
    if parsed.error is not None:
        spans.append(parsed.error.span)
        assert parsed.statement is None
    if parsed.comment is not None:
        spans.append(parsed.comment)
    if parsed.statement is not None:
        spans.append(parsed.statement.span)
    for span in spans:
        assert 0 <= span.start <= span.end <= len(line), (span, len(line))


def assert_diagnostics_inside(text: str, found: Iterable[Diagnostic]) -> None:
    lines = split_lines(text)
    for diagnostic in found:
        assert 0 <= diagnostic.line < len(lines), diagnostic
        line = lines[diagnostic.line]
        assert 0 <= diagnostic.span.start <= diagnostic.span.end <= len(line), diagnostic
        assert diagnostic.message
        json.dumps(diagnostic.message)  # what the server sends: must serialize
        for related in diagnostic.related:
            assert 0 <= related.line < len(lines), related
            if related.span is not None:
                other = lines[related.line]
                assert 0 <= related.span.start <= related.span.end <= len(other), related


def without_spans(value: object) -> object:
    """A statement (or any part of one) with every column left out: its meaning."""
    if isinstance(value, t.Span):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple(
                (f.name, without_spans(getattr(value, f.name)))
                for f in dataclasses.fields(value)
                if f.compare
            ),
        )
    if isinstance(value, tuple | list):
        return tuple(without_spans(v) for v in value)
    if isinstance(value, frozenset):
        return value
    return value


def line_meanings(text: str) -> list[object]:
    """What each line says, spans aside; trailing blank lines say nothing."""
    meanings = []
    for line in split_lines(text):
        parsed = parse_line(line)
        meanings.append(
            (
                without_spans(parsed.statement),
                None if parsed.error is None else parsed.error.code,
                parsed.allowed,
            )
        )
    while meanings and meanings[-1] == (None, None, frozenset()):
        meanings.pop()
    return meanings


def findings_by_line(text: str) -> Counter[tuple[int, str]]:
    return Counter((d.line, d.code) for d in check_text(text))


# ---- the parser -------------------------------------------------------------------------


@settings(max_examples=scaled(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_line)
def test_parse_line_never_raises_and_stays_inside_the_line(line: str) -> None:
    for part in split_lines(line):
        assert_line_inside(parse_line(part), part)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("x" * 1_000_000, id="a 1 MB word"),
        pytest.param('"Alice" draw #1 "' + "a" * 1_000_000 + '"', id="a 1 MB card name"),
        pytest.param("#1 cast" + " \t" * 300_000 + "// x", id="1 MB of blanks"),
        pytest.param("#" + "9" * 10_000 + " cast", id="10,000-digit object"),
        pytest.param('"Bob" life -' + "7" * 10_000, id="10,000-digit life"),
        pytest.param("turn " + "1" * 10_000 + ' "Bob"', id="10,000-digit turn"),
        pytest.param("#1 move " + "-> " * 20_000 + "exile", id="20,000 arrows"),
        pytest.param("->" * 50_000, id="50,000 bare arrows"),
        pytest.param('"Alice" draw #1 "Shock', id="unterminated name"),
        pytest.param('"' * 100_001, id="100,001 quotes"),
        pytest.param('"\\' * 50_000, id="escapes without end"),
        pytest.param("#" * 100_000, id="100,000 hashes"),
        pytest.param("\x00#1 cast\x00", id="NUL"),
        pytest.param('#1 "\ud800" cast \udfff', id="lone surrogates"),
        pytest.param("\ufeff#1 cast\t// allow O201", id="BOM and tab"),
        pytest.param("// " + "y" * 1_000_000, id="1 MB comment"),
    ],
)
def test_extreme_lines(line: str) -> None:
    parsed = parse_line(line)
    assert_line_inside(parsed, line)
    text = f'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\n{line}\n#2 cast'
    found = check_text(text)
    assert_diagnostics_inside(text, found)
    if parsed.error is not None:
        assert (parsed.error.code, 3) in {(d.code, d.line) for d in found}


# ---- the checker ------------------------------------------------------------------------


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_document)
def test_check_text_never_raises_and_places_diagnostics_inside(text: str) -> None:
    assert_diagnostics_inside(text, check_text(text))


def test_every_example_checks_inside() -> None:
    for text in TEXTS.values():
        assert_diagnostics_inside(text, check_text(text))


def test_line_ends_do_not_change_the_findings() -> None:
    text = TEXTS["mistakes.mtgr"]
    lf = findings_by_line(text)
    assert lf, "mistakes.mtgr has findings"
    for ending in ("\r\n", "\r"):
        assert findings_by_line(text.replace("\n", ending)) == lf


# ---- the formatter ----------------------------------------------------------------------


@settings(max_examples=scaled(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_document)
def test_format_is_idempotent_and_keeps_meaning(text: str) -> None:
    formatted = format_text(text)
    assert format_text(formatted) == formatted
    assert line_meanings(formatted) == line_meanings(text)
    assert findings_by_line(formatted) == findings_by_line(text)


def test_format_keeps_the_examples_meaning() -> None:
    for text in TEXTS.values():
        formatted = format_text(text)
        assert format_text(formatted) == formatted
        assert line_meanings(formatted) == line_meanings(text)


# ---- quick fixes ------------------------------------------------------------------------


def assert_fix_fixes(text: str, before: list[Diagnostic], code: str, line: int, fixed: str) -> None:
    counts_before = Counter(d.code for d in before)
    after = check_text(fixed)
    counts_after = Counter(d.code for d in after)
    assert counts_after[code] < counts_before[code], (code, fixed)
    if code == "S001":  # the line now parses: what is found on it is about that line
        counts_after = Counter(d.code for d in after if d.line != line)
    assert not counts_after - counts_before, (code, counts_after - counts_before, fixed)
    assert_diagnostics_inside(fixed, after)


@settings(max_examples=scaled(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_document())
def test_every_quick_fix_fixes_its_diagnostic(text: str) -> None:
    text = "\n".join(split_lines(text))  # fixes are worked out on LF text
    before = check_text(text)
    document = OpenDocument("file:///tmp/p.mtgr", text, 1, types.PositionEncodingKind.Utf32)
    for diagnostic in before[:6]:
        for fix in fixes(document, diagnostic.code, diagnostic.line, diagnostic.span):
            fixed = apply_edits(text, fix.edits)
            assert_fix_fixes(text, before, diagnostic.code, diagnostic.line, fixed)


# ---- quick fixes, through the real server ---------------------------------------------

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"])


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


def _apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    for edit in sorted(
        edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
    ):
        start, end = edit.range.start, edit.range.end
        text = apply_change(
            text, (start.line, start.character), (end.line, end.character), edit.new_text
        )
    return text


def _edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    edit = action.edit
    assert edit is not None, action
    if edit.document_changes:
        found: list[types.TextEdit] = []
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
        return found
    assert edit.changes is not None
    return list(edit.changes[uri])


FIX_DOCUMENTS = [
    TEXTS["mistakes.mtgr"],
    "mtgr 0.4\n"
    'player "Alice" deck 60\nplayer "Bob" deck 60\nperspective "Alice"\n'
    '"Alice" roll d20 17\n"Bob" roll d20 3\nstart "Alice" by "Alice"\n'
    '"Alice" draw #1 "Jötun Grunt"\n"Alice" draw #2 "Dandân"\n"Alice" draw #3 "Mountain"\n'
    '#2 "Jötun Grunt" cast\n#1 "Jötun Grunt" cast\n#4 "Æther Vial" move hand -> graveyard\n'
    '#1 damage 2 -> "Bob"\n#9 resolve\n',
]


async def test_quick_fixes_through_the_server(client: LanguageClient) -> None:
    checked = 0
    for number, text in enumerate(FIX_DOCUMENTS):
        uri = f"file:///tmp/fix{number}.mtgr"
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="mtgr", version=1, text=text
                )
            )
        )
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=30
        )
        published = client.diagnostics[uri]
        before = check_text(text)
        assert len(published) == len(before)
        lines = split_lines(text)
        for diagnostic in published[:25]:
            actions = await client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=diagnostic.range,
                    context=types.CodeActionContext(diagnostics=[diagnostic]),
                )
            )
            assert actions, diagnostic  # at least "silence on this line"
            for action in actions:
                assert isinstance(action, types.CodeAction)
                fixed = _apply_text_edits(text, _edits_of(action, uri))
                code, line = str(diagnostic.code), diagnostic.range.start.line
                assert_fix_fixes(text, before, code, line, fixed)
                checked += 1
        assert lines  # the document was not empty
    assert checked >= 10


def test_utf16_helper_agrees_with_the_server_encoding() -> None:
    line = '"Alice" draw #1 "Jötun Grunt 😀"'
    document = OpenDocument("file:///x.mtgr", line, 1, types.PositionEncodingKind.Utf16)
    for column in range(len(line) + 1):
        assert document.to_character(0, column) == utf16_character(line, column)
