"""Semantic tokens end to end: every token lands on its text in the negotiated encoding (UTF-16,
UTF-8, UTF-32; an astral character before the last tokens tells UTF-16 from UTF-32), and
objects carry whether their card is known or hidden at that line."""

import sys

import pytest
import pytest_lsp
import records
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from records import OPENING, capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "file:///tmp/semantic-tokens.mtgr"
GAME = (
    OPENING
    + """\
#8 move hand -> exile as discard by #1 replacement #9   // CR 614.6
"Bob" life -2 by #1
turn 2 "Alice"
step upkeep
step draw
"Alice" draw #11 "Dandân"   // CR 121.1
phase main
#10 cast
#10 resolve -> battlefield
#10 effect "Jötun Grunt\u2019s upkeep: \U0001d7d0 cards from a graveyard" on #10 until leaves
game drawn by sba
match drawn 0-0-1
game 2
"Alice" sideboard out 2 "Dandân"
#90 new commander "Tymna the Weaver" command "Alice"
#90 cast from command tax 2
judge missed-trigger #10 added allow K302
"""
)
LINES = GAME.splitlines()


STATE: dict[int, tuple[str, types.SemanticTokensLegend]] = {}


def column(encoding: str, text: str, character: int) -> int:
    """A client character offset back to a code-point column; fails inside a character."""
    units = 0
    for index, ch in enumerate(text):
        if units == character:
            return index
        assert units < character, f"offset {character} splits a character in {text!r}"
        units += records.units(ch, encoding)
    assert units == character
    return len(text)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim", "utf-8 only", "utf-32 only"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(request.param))
    )
    provider = result.capabilities.semantic_tokens_provider
    assert isinstance(provider, types.SemanticTokensOptions)
    assert provider.full == types.SemanticTokensFullDelta(delta=True) and provider.range
    STATE[id(lsp_client)] = (result.capabilities.position_encoding or "utf-16", provider.legend)
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=GAME)
        )
    )
    yield
    await lsp_client.shutdown_session()


async def decoded(
    client: LanguageClient, uri: str = URI, lines: list[str] = LINES
) -> list[tuple[int, str, str, set[str]]]:
    """(line, text, type, modifiers) for every token, read back through the encoding."""
    encoding, legend = STATE[id(client)]
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert result is not None
    data = result.data
    assert len(data) % 5 == 0
    out = []
    line = start = 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        text = lines[line]
        first = column(encoding, text, start)
        last = column(encoding, text, start + length)
        names = {m for bit, m in enumerate(legend.token_modifiers) if modifiers & (1 << bit)}
        out.append((line, text[first:last], legend.token_types[kind], names))
    return out


def find(tokens, line: int, text: str) -> tuple[str, set[str]]:
    for token_line, token_text, kind, modifiers in tokens:
        if token_line == line and token_text == text:
            return kind, modifiers
    raise AssertionError(f"no token {text!r} on line {line + 1}")


async def test_legend_has_objects_players_zones_verbs(client: LanguageClient) -> None:
    _encoding, legend = STATE[id(client)]
    for kind in ("variable", "class", "enumMember", "function", "keyword", "comment"):
        assert kind in legend.token_types
    assert {"known", "hidden", "cause"} <= set(legend.token_modifiers)


async def test_every_token_lands_on_its_text(client: LanguageClient) -> None:
    tokens = await decoded(client)
    for line, text, kind, _modifiers in tokens:
        if kind == "variable":
            assert text.startswith("#") and text[1:].isdigit(), (line, text)
        if kind == "class":
            assert text.startswith('"') and text.endswith('"'), (line, text)
        if kind == "comment":
            assert text.startswith("//"), (line, text)


async def test_objects_known_or_hidden_at_their_line(client: LanguageClient) -> None:
    tokens = await decoded(client)
    assert "hidden" in find(tokens, 7, "#1")[1]
    assert "known" in find(tokens, 9, "#8")[1]
    assert "known" in find(tokens, 20, "#1")[1]  # named on the line it is cast
    assert find(tokens, 9, '"Æther Vial"')[0] == "string"
    assert find(tokens, 7, '"Bob"')[0] == "class"


async def test_verbs_zones_causes_after_accents(client: LanguageClient) -> None:
    tokens = await decoded(client)
    assert find(tokens, 23, "move")[0] == "function"
    assert find(tokens, 23, "hand")[0] == "enumMember"
    assert find(tokens, 23, "->")[0] == "operator"
    assert "cause" in find(tokens, 23, "by")[1]
    assert "cause" in find(tokens, 23, "replacement")[1]
    assert {"cause", "known"} <= find(tokens, 23, "#9")[1]
    assert find(tokens, 28, "// CR 121.1")[0] == "comment"
    on_line = [t for t in tokens if t[0] == 32]
    assert [t[1] for t in on_line][-4:] == ["on", "#10", "until", "leaves"]


async def test_match_words(client: LanguageClient) -> None:
    tokens = await decoded(client)
    drawn, result = LINES.index("game drawn by sba"), LINES.index("match drawn 0-0-1")
    assert find(tokens, drawn, "game")[0] == "function"
    assert find(tokens, drawn, "drawn")[0] == "keyword"
    assert "cause" in find(tokens, drawn, "sba")[1]
    assert find(tokens, result, "match")[0] == "function"
    assert find(tokens, result, "0-0-1")[0] == "number"
    sideboard = LINES.index('"Alice" sideboard out 2 "Dandân"')
    assert find(tokens, sideboard, "sideboard")[0] == "function"
    assert find(tokens, sideboard, "out")[0] == "keyword"
    assert find(tokens, sideboard, '"Dandân"')[0] == "string"
    commander = LINES.index('#90 new commander "Tymna the Weaver" command "Alice"')
    assert find(tokens, commander, "commander")[0] == "keyword"
    assert find(tokens, commander, "command")[0] == "enumMember"
    cast = LINES.index("#90 cast from command tax 2")
    assert find(tokens, cast, "tax")[0] == "keyword"
    assert find(tokens, cast, "2")[0] == "number"
    judge = LINES.index("judge missed-trigger #10 added allow K302")
    assert find(tokens, judge, "judge")[0] == "function"
    assert find(tokens, judge, "missed-trigger")[0] == "keyword"
    assert find(tokens, judge, "#10")[0] == "variable"
    assert find(tokens, judge, "K302")[0] == "keyword"


async def test_a_line_being_typed_is_coloured_too(client: LanguageClient) -> None:
    uri = "file:///tmp/semantic-tokens-typing.mtgr"
    lines = [*LINES[:12], '#10 "Jötun Grunt" move hand -> ', '"Bob" draw #']
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="mtgr", version=1, text="\n".join(lines)
            )
        )
    )
    tokens = await decoded(client, uri, lines)
    assert "known" in find(tokens, 12, "#10")[1]  # as it stands before the unfinished line
    typed = [(text, kind) for line, text, kind, _ in tokens if line == 12]
    assert typed == [
        ("#10", "variable"),
        ('"Jötun Grunt"', "string"),
        ("move", "function"),
        ("hand", "enumMember"),
        ("->", "operator"),
    ]
    assert [(text, kind) for line, text, kind, _ in tokens if line == 13] == [
        ('"Bob"', "class"),
        ("draw", "function"),
    ]


def open_document(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )


async def full(client: LanguageClient, uri: str) -> types.SemanticTokens:
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert result is not None
    return result


async def test_delta_after_an_edit_is_the_difference_only(client: LanguageClient) -> None:
    uri = "file:///tmp/semantic-tokens-delta.mtgr"
    open_document(client, uri, GAME)
    before = await full(client, uri)
    assert before.result_id
    line = 23  # `#8 move hand -> exile as discard by #1 replacement #9`
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=line, character=0),
                        end=types.Position(line=line + 1, character=0),
                    ),
                    text='"Alice" draw #30\n',
                )
            ],
        )
    )
    delta = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=before.result_id,
        )
    )
    assert isinstance(delta, types.SemanticTokensDelta)
    assert delta.result_id and delta.result_id != before.result_id
    data = list(before.data)
    for edit in sorted(delta.edits, key=lambda e: e.start, reverse=True):
        data[edit.start : edit.start + edit.delete_count] = edit.data or []
    edited = [*LINES[:line], '"Alice" draw #30', *LINES[line + 1 :]]
    fresh = "file:///tmp/semantic-tokens-delta-fresh.mtgr"
    open_document(client, fresh, "\n".join(edited) + "\n")
    assert data == list((await full(client, fresh)).data)
    assert sum(edit.delete_count + len(edit.data or []) for edit in delta.edits) < len(data) // 4

    unchanged = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=delta.result_id
        )
    )
    assert isinstance(unchanged, types.SemanticTokensDelta) and list(unchanged.edits) == []
    stale = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id="no such id"
        )
    )
    assert isinstance(stale, types.SemanticTokens) and list(stale.data) == data


async def test_a_range_gives_the_tokens_of_its_lines(client: LanguageClient) -> None:
    whole = await decoded(client)
    result = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(
                start=types.Position(line=20, character=0), end=types.Position(line=25, character=0)
            ),
        )
    )
    assert result is not None
    encoding, legend = STATE[id(client)]
    ranged = []
    line = start = 0
    for i in range(0, len(result.data), 5):
        delta_line, delta_start, length, kind, modifiers = result.data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        text = LINES[line]
        first, last = column(encoding, text, start), column(encoding, text, start + length)
        names = {m for bit, m in enumerate(legend.token_modifiers) if modifiers & (1 << bit)}
        ranged.append((line, text[first:last], legend.token_types[kind], names))
    assert ranged == [token for token in whole if 20 <= token[0] <= 25]
    assert {token[0] for token in ranged} == set(range(20, 26))
