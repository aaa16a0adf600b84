"""Navigation end to end: definition, references, highlight, rename, folding, selection ranges.

Run as VS Code (UTF-16) and as Neovim 0.11 (which offers UTF-8 first), with accented
names and an astral character before the cursor, so that a wrong position unit shows.
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
import records
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

URI = "file:///tmp/navigation.mtgr"
TEXT = """\
mtgr 0.4
title "Navigation — Æther Vial"
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"Alice" draw #1 "Æther Vial"
"Alice" draw #2 "Jötun Grunt"
"Bob" draw #3
"Alice" keep
"Bob" keep
turn 1 "Alice"
phase main
#1 cast
#1 resolve -> battlefield
#4 effect "Dandân's Æther 🜂 gift" on #1 until end-of-turn
#1 counters +1 charge by #1
phase ending
step end
// a note
// and another

turn 2 "Bob"
step draw
"Bob" draw #5
keyframe
#1 battlefield "Alice" counters 1 charge
"Alice" life 20
end
"""
LINES = TEXT.split("\n")


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim@0.11"],
    scope="module",  # one server a client: the tests only read
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param))
    )
    lsp_client.encoding = result.capabilities.position_encoding or "utf-16"  # type: ignore[attr-defined]
    lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=TEXT)
        )
    )
    yield
    await lsp_client.shutdown_session()


def units(client: LanguageClient, text: str) -> int:
    return records.units(text, client.encoding)  # type: ignore[attr-defined]


def at(client: LanguageClient, line: int, needle: str, occurrence: int = 1) -> types.Position:
    """The position of the `occurrence`-th `needle` on a line, in the client's units."""
    column = -1
    for _ in range(occurrence):
        column = LINES[line].index(needle, column + 1)
    return types.Position(line=line, character=units(client, LINES[line][:column]))


def span(client: LanguageClient, line: int, needle: str, occurrence: int = 1) -> types.Range:
    start = at(client, line, needle, occurrence)
    end = types.Position(line=line, character=start.character + units(client, needle))
    return types.Range(start=start, end=end)


def doc() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=URI)


@pytest.mark.asyncio(loop_scope="module")
async def test_negotiated_encoding_and_advertised_capabilities(client: LanguageClient) -> None:
    assert client.encoding in ("utf-8", "utf-16", "utf-32")  # type: ignore[attr-defined]
    capabilities: types.ServerCapabilities = client.server_capabilities  # type: ignore[attr-defined]
    assert capabilities.definition_provider
    assert capabilities.references_provider
    assert capabilities.document_highlight_provider
    assert capabilities.rename_provider == types.RenameOptions(prepare_provider=True)
    assert capabilities.folding_range_provider
    assert capabilities.selection_range_provider


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_after_accents_and_astral_characters(client: LanguageClient) -> None:
    # `on #1` stands after "Dandân's Æther 🜂": a wrong unit lands elsewhere
    position = at(client, 17, "#1")
    position.character += 1
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=position)
    )
    assert isinstance(result, types.Location)
    assert result.uri == URI
    assert result.range == span(client, 8, "#1")  # "Alice" draw #1 "Æther Vial"


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_an_unknown_number_is_empty(client: LanguageClient) -> None:
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=at(client, 17, "#4"))
    )
    assert result is None  # #4 is never introduced
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=at(client, 17, "effect"))
    )
    assert result is None


@pytest.mark.asyncio(loop_scope="module")
async def test_references_with_and_without_the_declaration(client: LanguageClient) -> None:
    params = types.ReferenceParams(
        text_document=doc(),
        position=at(client, 18, "#1", 2),  # the cause in `by #1`
        context=types.ReferenceContext(include_declaration=True),
    )
    found = await client.text_document_references_async(params)
    assert found is not None
    expected = [
        span(client, 8, "#1"),
        span(client, 15, "#1"),
        span(client, 16, "#1"),
        span(client, 17, "#1"),
        span(client, 18, "#1"),
        span(client, 18, "#1", 2),
        span(client, 28, "#1"),
    ]
    assert [r.range for r in found] == expected
    params.context.include_declaration = False
    found = await client.text_document_references_async(params)
    assert found is not None
    assert [r.range for r in found] == expected[1:]


@pytest.mark.asyncio(loop_scope="module")
async def test_highlight_marks_the_introduction_as_write(client: LanguageClient) -> None:
    found = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc(), position=at(client, 26, "#5"))
    )
    assert found is not None
    assert [(h.range, h.kind) for h in found] == [
        (span(client, 26, "#5"), types.DocumentHighlightKind.Write)
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_prepare_rename_and_rename(client: LanguageClient) -> None:
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(), position=at(client, 17, "#1"))
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "#1"
    assert prepared.range == span(client, 17, "#1")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(), position=at(client, 17, "#1"), new_name="#42")
    )
    assert edit is not None and edit.changes is not None
    edits = edit.changes[URI]
    assert {e.new_text for e in edits} == {"#42"}
    assert len(edits) == 7
    assert span(client, 17, "#1") in [e.range for e in edits]


@pytest.mark.asyncio(loop_scope="module")
async def test_prepare_rename_elsewhere_is_empty(client: LanguageClient) -> None:
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(), position=at(client, 13, "Alice"))
    )
    assert prepared is None


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_to_a_number_in_use_is_refused(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException) as refused:
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc(), position=at(client, 15, "#1"), new_name="#5")
        )
    assert "#5 is already used" in refused.value.message
    assert "#6" in refused.value.message  # a free number is suggested
    with pytest.raises(JsonRpcException) as refused:
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc(), position=at(client, 15, "#1"), new_name="one")
        )
    assert "not an object number" in refused.value.message


@pytest.mark.asyncio(loop_scope="module")
async def test_folding_turns_keyframes_and_comments(client: LanguageClient) -> None:
    found = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc())
    )
    assert found is not None
    folds = {(f.start_line, f.end_line, f.kind) for f in found}
    region, comment = types.FoldingRangeKind.Region, types.FoldingRangeKind.Comment
    assert (5, 12, region) in folds  # pregame
    assert (13, 22, region) not in folds  # comments after a turn's last line are not in it
    assert (13, 20, region) in folds  # turn 1
    assert (14, 18, region) in folds  # its main phase
    assert (24, 30, region) in folds  # turn 2, with the keyframe
    assert (27, 30, region) in folds  # the keyframe
    assert (21, 22, comment) in folds


@pytest.mark.asyncio(loop_scope="module")
async def test_selection_grows_token_statement_line_blocks(client: LanguageClient) -> None:
    position = at(client, 17, "#1")
    found = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc(), positions=[position])
    )
    assert found is not None and len(found) == 1
    chain = []
    item: types.SelectionRange | None = found[0]
    while item is not None:
        chain.append(item.range)
        item = item.parent
    line_end = units(client, LINES[17])
    whole_line = types.Range(
        start=types.Position(line=17, character=0),
        end=types.Position(line=17, character=line_end),
    )
    assert chain[0] == span(client, 17, "#1")
    assert chain[1] == whole_line  # the statement is the whole line here
    assert chain[2].start.line == 14 and chain[2].end.line == 18  # phase main
    assert chain[3].start.line == 13 and chain[3].end.line == 20  # turn 1
    assert len(chain) == 4


# ---- without a server: lines that do not parse, numbers in strings and comments -------


def test_rename_reaches_lines_that_do_not_parse_but_not_strings_or_comments() -> None:
    from mtgr.server.features.navigation import occurrences, rename_edits
    from mtgr.server.session import OpenDocument

    text = (
        '"Alice" draw #7 "Card #7"\n'
        "#7 frobnicate #7x #77 // #7 in a comment\n"
        '#1 effect "on #7" on #7\n'
    )
    document = OpenDocument("file:///tmp/x.mtgr", text, 1, types.PositionEncodingKind.Utf32)
    found = [(o.line, o.span.start) for o in occurrences(document, 7)]
    assert found == [(0, 13), (1, 0), (2, 21)]
    edits = rename_edits(document, 7, "8")
    assert {e.new_text for e in edits} == {"#8"}
    assert len(edits) == 3
