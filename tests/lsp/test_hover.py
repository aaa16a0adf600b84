"""Hover end to end: keywords with their decisions and CR quotations, objects with their
history, players, structure lines, diagnostics and CR numbers in comments, in the encodings
VS Code (UTF-16) and Neovim (UTF-8) negotiate."""

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from records import OPENING, capabilities
from refreshes import answer_refreshes

pytestmark = pytest.mark.asyncio(loop_scope="module")

CR_FILE = Path(__file__).resolve().parents[3] / "shared" / "cr" / "MagicCompRules-20260925.txt"
URI = "file:///tmp/hover-game.mtgr"
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
#10 effect "Jötun Grunt\u2019s upkeep: two cards from a graveyard" on #10 until leaves
#10 control "Bob" until end-of-turn by #10
#12 new token "Soldier" battlefield "Bob" owner "Alice" tapped by #10
#13 new token "Monster Role" battlefield "Bob" attached #12 by #10
#10 damage 2 -> #12
#12 phase out by #10
"Alice" monarch by #10
#11 move hand -> battlefield face-down by #10
#10 transform by #10
#15 trigger of monarch
#16 new emblem "The Ring" command "Alice" by #10
"Alice" ring-bearer #9 by #10
"Alice" choose #9 by sba
#17 new card "Undercity" command "Alice" by #10
"Alice" venture "Secret Entrance" by #10
#9 flip by #10
#8 meld #11 by #10
game drawn
game 2
"Alice" sideboard in 2 "Duress"
#90 new commander "Tymna the Weaver" command "Alice"
#90 cast from command tax 2
judge penalty "Bob" warning "Game Rule Violation" allow D804
#91 cast from graveyard jump-start convoke
"""
)
LINES = GAME.splitlines()


ENCODINGS: dict[int, str] = {}


def encoding_of(client: LanguageClient) -> str:
    return ENCODINGS[id(client)]


def character(client: LanguageClient, line: int, column: int) -> int:
    """A code-point column as the client counts it."""
    text = LINES[line][:column]
    if encoding_of(client) == "utf-8":
        return len(text.encode("utf-8"))
    if encoding_of(client) == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim", "utf-8 only"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    answer_refreshes(lsp_client)
    settings = {"rulesFile": str(CR_FILE)}
    lsp_client.set_configuration(settings, section="mtgr")
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(request.param),
            initialization_options={"mtgr": settings},
        )
    )
    assert result.capabilities.hover_provider
    ENCODINGS[id(lsp_client)] = result.capabilities.position_encoding or "utf-16"
    lsp_client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="mtgr", version=1, text=GAME)
        )
    )
    yield
    await lsp_client.shutdown_session()


def needs_the_cr_text() -> None:
    """Rule texts in hovers come from the CR file in ../shared: without it, skip saying so;
    under CI, which provides ../shared, fail."""
    if CR_FILE.exists():
        return
    message = f"the CR text is not at {CR_FILE} (expected ../shared beside the repository)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


async def hover(client: LanguageClient, line: int, needle: str, offset: int = 0) -> str:
    column = LINES[line].index(needle) + offset
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=line, character=character(client, line, column)),
        )
    )
    assert result is not None, f"no hover on {needle!r} at line {line + 1}"
    assert isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.Markdown
    return result.contents.value


async def test_negotiated_encoding(client: LanguageClient) -> None:
    expected = {"utf-16", "utf-8"}
    assert encoding_of(client) in expected


async def test_replacement_shows_decision_0018_item_5_with_quotations(
    client: LanguageClient,
) -> None:
    text = await hover(client, 23, "replacement", 3)
    assert "0018" in text
    assert "item 5" in text
    for rule in ("614.1a", "614.6", "616.1"):
        assert rule in text
    assert "If an event is replaced, it never happens" in text


async def test_object_shows_card_owner_place_and_history(client: LanguageClient) -> None:
    text = await hover(client, 24, "#1", 1)
    assert "Thoughtseize" in text
    assert "Bob" in text
    assert "graveyard" in text
    assert "drawn at line 8" in text
    assert "cast -> stack at line 21" in text
    assert "resolved -> graveyard at line 23" in text


async def test_object_after_accented_text(client: LanguageClient) -> None:
    # `on #10` stands after ö and a curly apostrophe: 3 bytes more in UTF-8 than in UTF-16
    column = LINES[32].index("on #10") + len("on #10")
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=types.Position(line=32, character=character(client, 32, column)),
        )
    )
    assert result is not None
    assert "Jötun Grunt" in result.contents.value
    assert "battlefield" in result.contents.value
    assert result.range is not None
    assert result.range.start.character == character(client, 32, column - 3)
    assert result.range.end.character == character(client, 32, column)


async def test_player_shows_life_and_zone_sizes(client: LanguageClient) -> None:
    text = await hover(client, 24, '"Bob"', 1)
    assert "life 18" in text
    assert "hand 2" in text
    assert "library 57" in text


async def test_step_line_shows_the_state(client: LanguageClient) -> None:
    text = await hover(client, 16, "step")
    assert "turn 1 (Bob), upkeep" in text
    assert "Leyline of the Void" in text


async def test_cr_number_in_comment_after_accents(client: LanguageClient) -> None:
    needs_the_cr_text()
    # the cursor at the end of "121.1": one column off and it would miss the number
    text = await hover(client, 28, "121.1", len("121.1"))
    assert "CR 121.1" in text
    assert "A player draws a card by putting the top card of their library" in text
    text = await hover(client, 23, "614.6", 2)
    assert "If an event is replaced, it never happens" in text


async def test_diagnostic_range_shows_its_explanation(client: LanguageClient) -> None:
    uri = "file:///tmp/hover-k301.mtgr"
    text = (
        'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\nperspective "Alice"\n'
        '"Alice" draw #1 "Shock"\n"Alice" draw #2 "Opt"\n#1 cast\n#2 cast\n#1 resolve\n'
    )
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=8, character=4),
        )
    )
    assert result is not None
    assert "K301" in result.contents.value
    assert "What it flags" in result.contents.value
    assert "Use instead" in result.contents.value


async def test_no_cr_text_without_a_rules_file(client: LanguageClient) -> None:
    needs_the_cr_text()  # else the hover is empty before the setting changes too
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"rulesFile": ""}})
    )
    column = LINES[28].index("121.1") + 1
    for _ in range(50):  # the notification is handled before a later request's answer
        result = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=URI),
                position=types.Position(line=28, character=character(client, 28, column)),
            )
        )
        if result is None:
            break
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"mtgr": {"rulesFile": str(CR_FILE)}})
    )
    assert result is None


async def test_card_name_string_shows_its_object(client: LanguageClient) -> None:
    text = await hover(client, 28, '"Dandân"', len('"Dandân'))
    assert "**#11** Dandân (Alice's)" in text
    assert "drawn at line 29" in text


async def test_match_words_show_decision_0030_and_the_cr(client: LanguageClient) -> None:
    drawn_line = LINES.index("game drawn")
    text = await hover(client, drawn_line, "game")
    assert "0030" in text and "104.4a" in text
    assert "If all the players remaining in a game lose simultaneously" in text
    assert "0030" in await hover(client, drawn_line, "drawn")
    sideboard_line = LINES.index('"Alice" sideboard in 2 "Duress"')
    text = await hover(client, sideboard_line, "sideboard")
    assert "0030" in text and "item 3" in text
    assert "K copies" in await hover(client, sideboard_line, "in ")


async def test_commander_words_show_decision_0031(client: LanguageClient) -> None:
    line = LINES.index('#90 new commander "Tymna the Weaver" command "Alice"')
    text = await hover(client, line, "commander")
    assert "0031" in text and "903.6" in text
    cast = LINES.index("#90 cast from command tax 2")
    text = await hover(client, cast, "tax")
    assert "0031" in text and "additional {2} for each previous time" in text


async def test_judge_lines_show_decision_0033(client: LanguageClient) -> None:
    line = LINES.index('judge penalty "Bob" warning "Game Rule Violation" allow D804')
    text = await hover(client, line, "judge")
    assert "0033" in text and "item 3" in text
    assert "0033" in await hover(client, line, "penalty")
    assert "silenced" in await hover(client, line, "allow")


async def test_control_until_and_owner_show_their_decisions_and_state(
    client: LanguageClient,
) -> None:
    """Decision 0021: the control effect that will end, the owner of another's permanent."""
    control = LINES.index('#10 control "Bob" until end-of-turn by #10')
    text = await hover(client, control, "#10", 1)
    assert "controller: Bob" in text
    assert "until end-of-turn, then Alice" in text
    token = control + 1
    owner = await hover(client, token, "owner", 1)
    assert "0021" in owner and "item 4" in owner and "110.2" in owner
    soldier = await hover(client, token, "#12", 1)
    assert "owner: Alice, controller: Bob" in soldier


async def test_attachments_show_on_both_permanents(client: LanguageClient) -> None:
    """Decision 0023 item 6: what is attached to a permanent, and to what it is attached."""
    role = LINES.index('#13 new token "Monster Role" battlefield "Bob" attached #12 by #10')
    assert "attached to #12" in await hover(client, role, "#13", 1)
    assert "with #13 (Monster Role) attached" in await hover(client, role, "#12", 1)
    assert "0023" in await hover(client, role, "attached", 1)


async def test_damage_marked_shows_on_the_creature(client: LanguageClient) -> None:
    """Decision 0024 item 3: damage stays marked until the cleanup step."""
    line = LINES.index("#10 damage 2 -> #12")
    assert "2 damage marked" in await hover(client, line, "#12", 1)


async def test_phasing_shows_its_form_and_the_state(client: LanguageClient) -> None:
    """Decision 0025: `phase` on an object line is phasing, not a phase of the turn."""
    line = LINES.index("#12 phase out by #10")
    verb = await hover(client, line, "phase", 1)
    assert "0025" in verb and "702.26b" in verb
    assert "phased out" in await hover(client, line, "#12", 1)


async def test_designation_shows_on_the_player(client: LanguageClient) -> None:
    """Decision 0026 item 5: hover on a player shows the designations they have."""
    line = LINES.index('"Alice" monarch by #10')
    assert "the monarch" in await hover(client, line, '"Alice"', 1)
    assert "0026" in await hover(client, line, "monarch", 1)


async def test_ring_and_legend_choice_show_on_the_player_and_permanent(
    client: LanguageClient,
) -> None:
    """Decisions 0061 to 0063: the Ring's temptations, the Ring-bearer, the kept legend, the room."""
    ring = LINES.index('"Alice" ring-bearer #9 by #10')
    assert "tempted by the Ring once, Ring-bearer #9" in await hover(client, ring, '"Alice"', 1)
    assert "Ring-bearer" in await hover(client, ring, "#9", 1)
    assert "0062" in await hover(client, ring, "ring-bearer", 1)
    kept = LINES.index('"Alice" choose #9 by sba')
    assert "legend rule" in await hover(client, kept, "#9", 1)
    assert "0061" in await hover(client, kept, "choose", 1)
    venture = LINES.index('"Alice" venture "Secret Entrance" by #10')
    assert 'venture marker in "Secret Entrance"' in await hover(client, venture, '"Alice"', 1)
    assert "0063" in await hover(client, venture, "venture", 1)
    flip = LINES.index("#9 flip by #10")
    assert "0064" in await hover(client, flip, "flip", 1)
    meld = LINES.index("#8 meld #11 by #10")
    assert "melded: one permanent, cards #8 and #11" in await hover(client, meld, "#8", 1)
    assert "0065" in await hover(client, meld, "meld", 1)
    assert "one of the two cards of the melded permanent #8" in await hover(client, meld, "#11", 1)


async def test_face_down_shows_on_the_permanent(client: LanguageClient) -> None:
    """Decision 0028: a face-down permanent, and the keyword's decision."""
    line = LINES.index("#11 move hand -> battlefield face-down by #10")
    assert "face down" in await hover(client, line, "#11", 1)
    assert "0028" in await hover(client, line, "face-down", 1)


async def test_transform_shows_the_face(client: LanguageClient) -> None:
    """Decision 0029: the face that is up, and the form's decision."""
    line = LINES.index("#10 transform by #10")
    assert "back face up" in await hover(client, line, "#10", 1)
    assert "0029" in await hover(client, line, "transform", 1)


async def test_designation_trigger_shows_its_history(client: LanguageClient) -> None:
    """Decision 0026 item 3: an inherent ability has no source object."""
    line = LINES.index("#15 trigger of monarch")
    text = await hover(client, line, "#15", 1)
    assert "triggered ability of the monarch" in text
    assert "controller: Alice" in text


async def test_cast_modes_show_their_cr_rule_and_decision_0081(client: LanguageClient) -> None:
    line = LINES.index("#91 cast from graveyard jump-start convoke")
    text = await hover(client, line, "jump-start")
    assert "702.133a" in text and "0081" in text and "item 1" in text
    convoke = await hover(client, line, "convoke")
    assert "702.51b" in convoke
    assert "isn\u2019t an additional or alternative cost" in convoke  # quoted from the CR
