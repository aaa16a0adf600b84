"""Completion end to end: what is offered depends on the game state at the cursor, and the
edit ranges are right in the encoding the client negotiated (accented names before them)."""

import itertools
import sys

import pytest
import pytest_lsp
import records
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from records import OPENING, capabilities

from mtgr.syntax.parser import grammar_words

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAME = (
    OPENING
    + """\
#8 move hand -> exile as discard by #1 replacement #9
"Bob" life -2 by #1
turn 2 "Alice"
step upkeep
step draw
"Alice" draw #11 "Dandân"
phase main
"""
)
LINES = GAME.splitlines()
AFTER_CAST = 21  # lines up to `#1 "Thoughtseize" cast`: #1 is on the stack
_uris = itertools.count()


ENCODINGS: dict[int, str] = {}


def units(client: LanguageClient, text: str) -> int:
    return records.units(text, ENCODINGS[id(client)])


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim", "utf-8 only"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(request.param))
    )
    provider = result.capabilities.completion_provider
    assert provider is not None
    assert {" ", "#", '"'} <= set(provider.trigger_characters or [])
    ENCODINGS[id(lsp_client)] = result.capabilities.position_encoding or "utf-16"
    yield
    await lsp_client.shutdown_session()


async def complete_at(
    client: LanguageClient,
    upto: int,
    typed: str,
    after: str = "",
    before: tuple[str, ...] = (),
) -> list[types.CompletionItem]:
    """Completion at the end of `typed`, on a new line after the first `upto` lines of the
    game and the lines `before`."""
    uri = f"file:///tmp/completion-{next(_uris)}.mtgr"
    text = "\n".join([*LINES[:upto], *before, typed + after]) + "\n"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mtgr", version=1, text=text)
        )
    )
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=upto + len(before), character=units(client, typed)),
        )
    )
    assert result is not None
    return result.items if isinstance(result, types.CompletionList) else result


def labels(items: list[types.CompletionItem]) -> list[str]:
    return [item.label for item in sorted(items, key=lambda i: i.sort_text or i.label)]


async def test_object_on_the_stack_offers_resolve_and_not_play(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, AFTER_CAST, "#1 "))
    for verb in ("resolve", "fizzle", "countered", "target", "choose", "pay"):
        assert verb in offered
    assert "play" not in offered
    assert "cast" not in offered


async def test_object_in_hand_offers_cast_and_play(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, AFTER_CAST, "#10 "))
    for verb in ("cast", "play", "move", "reveal", "identify"):
        assert verb in offered
    assert "resolve" not in offered
    assert "tap" not in offered


async def test_permanent_offers_tap_and_attack(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, AFTER_CAST, "#9 "))
    for verb in ("tap", "untap", "attack", "block", "move", "counters", "damage"):
        assert verb in offered
    assert "cast" not in offered


async def test_unknown_number_offers_new(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, AFTER_CAST, "#40 "))
    assert offered[0] == "new"
    assert "resolve" not in offered


async def test_line_start_offers_next_number_objects_players_and_next_step(
    client: LanguageClient,
) -> None:
    items = await complete_at(client, 17, "")  # after `step upkeep`
    offered = labels(items)
    assert offered[0] == "#11"  # the next free object number
    assert '"Alice"' in offered and '"Bob"' in offered
    structure = [label for label in offered if label.split(" ")[0] in ("step", "phase", "turn")]
    assert structure[0] == "step draw"
    leyline = next(item for item in items if item.label == "#9")
    assert "Leyline of the Void" in (leyline.detail or "")


async def test_step_offers_the_next_steps_in_order(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, 17, "step "))
    assert offered[:2] == ["draw", "beginning-of-combat"]


async def test_move_offers_current_zone_then_arrow_then_zones(client: LanguageClient) -> None:
    assert labels(await complete_at(client, AFTER_CAST, "#10 move "))[0] == "hand"
    assert labels(await complete_at(client, AFTER_CAST, "#10 move hand ")) == ["->"]
    zones = labels(await complete_at(client, AFTER_CAST, "#10 move hand -> "))
    assert "graveyard" in zones and "exile" in zones and "hand" not in zones


async def test_as_offers_the_kinds(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, AFTER_CAST, "#10 move hand -> graveyard as "))
    assert offered == ["discard", "sacrifice", "destroy", "mill"]


async def test_by_offers_the_stack_top_first(client: LanguageClient) -> None:
    items = await complete_at(client, AFTER_CAST, '"Alice" life -2 by ')
    offered = labels(items)
    assert offered[0] == "#1"
    assert "#9" in offered and '"Alice"' in offered and "sba" in offered
    assert "#10" not in offered  # a card in a hand causes nothing


async def test_replacement_offers_permanents(client: LanguageClient) -> None:
    typed = "#8 move hand -> exile as discard by #1 replacement "
    items = await complete_at(client, AFTER_CAST + 2, typed)
    assert labels(items) == ["#9"]
    assert "Leyline of the Void" in (items[0].detail or "")


async def test_card_names_after_a_subject(client: LanguageClient) -> None:
    offered = labels(await complete_at(client, len(LINES), '#2 "'))
    assert '"Æther Vial"' in offered and '"Dandân"' in offered and '"Thoughtseize"' in offered


async def test_edit_range_after_accented_names(client: LanguageClient) -> None:
    typed = '"Alice" draw #12 "Dandân" by #'
    items = await complete_at(client, len(LINES), typed)
    assert labels(items) == ["#9"]  # only objects after `#`; a card in a hand causes nothing
    edit = items[0].text_edit
    assert isinstance(edit, types.TextEdit)
    assert edit.range.start.character == units(client, typed[:-1])
    assert edit.range.end.character == units(client, typed)


async def test_auto_closed_quote_is_replaced(client: LanguageClient) -> None:
    typed = '#12 "Jötun Grunt" move hand -> exile by "Al'
    items = await complete_at(client, len(LINES), typed, after='"')
    alice = next(item for item in items if item.label == '"Alice"')
    edit = alice.text_edit
    assert isinstance(edit, types.TextEdit)
    assert edit.range.start.character == units(client, typed[: typed.rindex('"')])
    assert edit.range.end.character == units(client, typed + '"')


async def test_draw_offers_the_tracked_top_card_first(client: LanguageClient) -> None:
    top = ('#12 new card "Æther Vial" library "Alice" top 1',)
    items = await complete_at(client, len(LINES), '"Alice" draw ', before=top)
    assert labels(items) == ["#12", "#13"]
    assert "Æther Vial" in (items[0].detail or "")


async def test_keyframe_entries_offer_zones_and_player_values(client: LanguageClient) -> None:
    zones = labels(await complete_at(client, len(LINES), "#9 ", before=("keyframe",)))
    assert "battlefield" in zones and "tap" not in zones
    values = labels(await complete_at(client, len(LINES), '"Bob" ', before=("keyframe",)))
    designations = ["monarch", "initiative", "citys-blessing", "venture"]  # 0060, 0063
    assert values == ["life", "library", "counters", *designations]


async def test_after_a_game_ends_the_next_game_and_the_match_are_offered(
    client: LanguageClient,
) -> None:
    start = labels(await complete_at(client, len(LINES), "", before=('"Bob" concede',)))
    assert "game 2" in start and "match" in start
    assert labels(await complete_at(client, len(LINES), "game ")) == ["drawn", "2"]
    winners = labels(await complete_at(client, len(LINES), "match "))
    assert winners == ['"Alice"', '"Bob"', "drawn"]


async def test_sideboard_offers_in_out_deck_then_card_names(client: LanguageClient) -> None:
    assert "sideboard" in labels(await complete_at(client, len(LINES), '"Alice" '))
    ways = labels(await complete_at(client, len(LINES), '"Alice" sideboard '))
    assert ways == ["in", "out", "deck"]
    names = labels(await complete_at(client, len(LINES), '"Alice" sideboard in 2 "'))
    assert '"Dandân"' in names


async def test_commander_words_and_the_tax_due(client: LanguageClient) -> None:
    assert labels(await complete_at(client, 0, "variant ")) == ["commander", "brawl"]
    assert "commander" in labels(await complete_at(client, len(LINES), "#90 new "))
    cast_once = (
        '#90 new commander "Tymna the Weaver" command "Alice"',
        "#90 cast from command",
        "#90 resolve -> battlefield",
        "#90 move battlefield -> graveyard as destroy by #1",
        "#90 move graveyard -> command by sba",
    )
    offered = labels(await complete_at(client, len(LINES), "#90 cast ", before=cast_once))
    assert offered[0] == "tax 2"
    first = labels(await complete_at(client, len(LINES), "#90 cast ", before=cast_once[:1]))
    assert not any(label.startswith("tax") for label in first)


async def test_judge_lines_offer_their_events_penalties_and_remedies(
    client: LanguageClient,
) -> None:
    assert "judge" in labels(await complete_at(client, len(LINES), ""))
    events = labels(await complete_at(client, len(LINES), "judge "))
    assert events == ["call", "penalty", "missed-trigger", "time", "backup"]
    assert labels(await complete_at(client, len(LINES), 'judge penalty "Bob" ')) == [
        "warning",
        "game-loss",
        "match-loss",
    ]
    remedies = labels(await complete_at(client, len(LINES), "judge missed-trigger #1 "))
    assert remedies == ["added", "skipped"]
    assert "#1" in labels(await complete_at(client, AFTER_CAST, "judge missed-trigger "))


async def test_entering_offers_tapped_attacking_and_the_attacked(client: LanguageClient) -> None:
    """Decisions 0020 and 0021: how a permanent enters, what it attacks, its owner."""
    onto = labels(await complete_at(client, AFTER_CAST, "#10 move hand -> battlefield "))
    assert {"tapped", "attacking", "blocking"} <= set(onto)
    attacked = labels(
        await complete_at(client, AFTER_CAST, "#10 move hand -> battlefield tapped attacking ")
    )
    assert '"Bob"' in attacked and "#9" in attacked
    token = labels(
        await complete_at(client, AFTER_CAST, '#20 new token "Soldier" battlefield "Alice" ')
    )
    assert {"owner", "tapped", "attacking", "by"} <= set(token)
    control = labels(await complete_at(client, AFTER_CAST, '#9 control "Bob" '))
    assert control == ["until", "by"]
    durations = labels(await complete_at(client, AFTER_CAST, '#9 control "Bob" until '))
    assert durations == ["end-of-turn", "end-of-combat", "next-turn", "leaves"]


async def test_attach_offers_permanents_and_players(client: LanguageClient) -> None:
    """Decision 0023: attach and unattach for a permanent; what it may be attached to."""
    verbs = labels(await complete_at(client, AFTER_CAST, "#9 "))
    assert "attach" in verbs and "unattach" in verbs
    hosts = labels(await complete_at(client, AFTER_CAST, "#9 attach "))
    assert '"Bob"' in hosts and "#9" not in hosts


async def test_phase_offers_out_and_in(client: LanguageClient) -> None:
    """Decision 0025: a permanent phases out or in; a phased-out one offers only that."""
    assert labels(await complete_at(client, AFTER_CAST, "#9 phase ")) == ["out", "in"]
    before = ("#9 phase out by #1",)
    assert labels(await complete_at(client, AFTER_CAST, "#9 ", before=before)) == ["phase"]


async def test_designations_emblems_and_day_night_are_offered(client: LanguageClient) -> None:
    """Decision 0026: player designations, `new emblem`, `trigger of monarch`, day and night."""
    player = labels(await complete_at(client, AFTER_CAST, '"Alice" '))
    assert {"monarch", "initiative", "citys-blessing"} <= set(player)
    assert "emblem" in labels(await complete_at(client, AFTER_CAST, "#40 new "))
    assert "monarch" in labels(await complete_at(client, AFTER_CAST, "#40 trigger of "))
    assert {"day", "night"} <= set(labels(await complete_at(client, AFTER_CAST, "")))


async def test_legend_choice_ring_bearer_and_keyframe_entries_are_offered(
    client: LanguageClient,
) -> None:
    """Decisions 0060 to 0062: `choose` and `ring-bearer` offer the player's own permanents;
    a keyframe offers designations and, after a permanent's zone, `damage`."""
    player = labels(await complete_at(client, AFTER_CAST, '"Alice" '))
    assert {"choose", "ring-bearer"} <= set(player)
    assert labels(await complete_at(client, AFTER_CAST, '"Alice" choose ')) == ["#9"]
    assert labels(await complete_at(client, AFTER_CAST, '"Bob" choose ')) == []
    assert labels(await complete_at(client, AFTER_CAST, '"Alice" ring-bearer ')) == ["#9", "by"]
    in_keyframe = ("keyframe",)
    entries = labels(await complete_at(client, AFTER_CAST, '"Alice" ', before=in_keyframe))
    assert {"life", "monarch", "initiative", "citys-blessing"} <= set(entries)
    parts = labels(
        await complete_at(client, AFTER_CAST, '#9 battlefield "Alice" ', before=in_keyframe)
    )
    assert "damage" in parts and "phased-out" in parts
    assert "venture" in player and "venture" in entries
    assert "flipped" in parts and "melded" in parts  # decisions 0064, 0065
    ring = '"Alice" ring-bearer #9 '
    assert "tempted" in labels(await complete_at(client, AFTER_CAST, ring, before=in_keyframe))
    cast = labels(await complete_at(client, AFTER_CAST, "#10 cast "))
    assert {"half", "fuse"} <= set(cast)
    # decision 0081: every way to cast the grammar knows, no fewer
    assert set(grammar_words("cast_mode")) <= set(cast)
    assert {"jump-start", "web-slinging", "omen"} <= set(cast)


async def test_damage_offers_deathtouch_and_permanents_regenerate(client: LanguageClient) -> None:
    """Decisions 0027 and 0073: `double-strike`, `trample` and `deathtouch` after what is
    damaged; `regenerate` for a permanent; `split-second` after a cast; `mana` for a player."""
    damaged = labels(await complete_at(client, AFTER_CAST, "#9 damage 1 -> #9 "))
    assert damaged == ["double-strike", "trample", "deathtouch", "replacement"]
    assert "split-second" in labels(await complete_at(client, AFTER_CAST, "#9 cast "))
    assert "mana" in labels(await complete_at(client, AFTER_CAST, '"Alice" '))
    assert "regenerate" in labels(await complete_at(client, AFTER_CAST, "#9 "))


async def test_replacement_after_every_event_and_searches_of_any_zone(
    client: LanguageClient,
) -> None:
    """Decisions 0040 and 0042: `replacement` after resolve, a draw or a win; `search` offers
    the library, the graveyard and the hand, `shuffle` only the library."""
    assert "replacement" in labels(await complete_at(client, AFTER_CAST, "#1 resolve "))
    assert "replacement" in labels(await complete_at(client, AFTER_CAST, '"Alice" win '))
    searched = labels(await complete_at(client, AFTER_CAST, '"Alice" search '))
    assert set(searched) == {"library", "graveyard", "hand"}
    assert labels(await complete_at(client, AFTER_CAST, '"Alice" shuffle ')) == ["library"]


async def test_face_down_and_turn_face_up_are_offered(client: LanguageClient) -> None:
    """Decision 0028: `face-down` as a card enters; `turn face-up` for a permanent."""
    onto = labels(await complete_at(client, AFTER_CAST, "#10 move hand -> exile "))
    assert "face-down" in onto
    assert labels(await complete_at(client, AFTER_CAST, "#9 turn ")) == ["face-up"]


async def test_transform_and_back_are_offered(client: LanguageClient) -> None:
    """Decision 0029: a permanent transforms; a card is cast or played back face up."""
    assert {"transform", "convert"} <= set(labels(await complete_at(client, AFTER_CAST, "#9 ")))
    assert "back" in labels(await complete_at(client, AFTER_CAST, "#10 cast "))
    assert "back" in labels(await complete_at(client, AFTER_CAST, "#10 play "))


async def test_a_known_card_in_another_players_hand_offers_hidden(client: LanguageClient) -> None:
    """Decision 0100: only a card the perspective player knows in another player's hand."""
    shown = ['#2 identify "Brainstorm" by #1']
    assert "hidden" in labels(await complete_at(client, len(LINES), "#2 ", before=tuple(shown)))
    assert "hidden" not in labels(await complete_at(client, len(LINES), "#3 "))  # unseen
    assert "hidden" not in labels(await complete_at(client, len(LINES), "#10 "))  # Alice's own
