"""Every statement form of the spec parses into its typed statement, with exact columns;
lines outside the spec do not parse, each with one precise error; no input raises."""

from __future__ import annotations

import pytest

from mtgr.syntax import tree as t
from mtgr.syntax.parser import GRAMMAR, grammar_words, parse_line

# One example a form: grammar rule -> (line, statement type)
FORMS: dict[str, tuple[str, type]] = {
    "new_phrase": ('#41 new card "Mycospawn" library "Alice" top 1', t.New),
    "move_phrase": ("#21 move hand -> exile as discard by #18 replacement #15", t.Move),
    "identify_phrase": ('#2 identify "Lightning Bolt" by #22', t.Identify),
    "reveal_phrase": ('#1 "Chancellor of the Annex" reveal by #1', t.Reveal),
    "cast_phrase": ('#30 cast "Alice" from exile dash by #31', t.Cast),
    "play_phrase": ("#9 play tapped replacement #9", t.Play),
    "activate_phrase": ("#50 activate of #40", t.AbilityOf),
    "trigger_phrase": ("#23 trigger of #1", t.AbilityOf),
    "target_phrase": ('#22 target "Bob" #7', t.Target),
    "choose_phrase": ('#22 choose #2 "mode one" 3 by "Alice"', t.Choose),
    "pay_phrase": ('#23 pay {1}{G/U} life 2 "discard a card" by "Alice"', t.Pay),
    "resolve_phrase": ("#30 resolve -> battlefield", t.Leave),
    "fizzle_phrase": ("#22 fizzle", t.Leave),
    "countered_phrase": ("#22 countered by #25 -> exile", t.Leave),
    "tap_phrase": ('#5 tap by "Alice"', t.TapChange),
    "untap_phrase": ("#5 untap", t.TapChange),
    "attack_phrase": ('#30 attack "Bob" untapped', t.Attack),
    "block_phrase": ("#12 block #30", t.Block),
    "damage_phrase": ("#30 damage 2 -> #7 deathtouch", t.Damage),
    "regenerate_phrase": ("#7 regenerate by sba replacement #50", t.Regenerate),
    "turn_face_phrase": ('#7 "Den Protector" turn face-up', t.TurnFaceUp),
    "transform_phrase": ("#7 transform by #8", t.Transform),
    "counters_phrase": ("#16 counters +1 luck by #16", t.ObjectCounters),
    "effect_phrase": ('#60 effect "+3/+3" on #12 until end-of-turn', t.Effect),
    "control_phrase": ('#12 control "Bob" until end-of-turn by #61', t.Control),
    "attach_phrase": ("#40 attach #12 by #41", t.Attach),
    "unattach_phrase": ("#40 unattach by sba", t.Attach),
    "phasing_phrase": ("#40 phase out by #41", t.Phasing),
    "designation_trigger_phrase": ("#60 trigger of monarch", t.AbilityOf),
    "designation_phrase": ('"Alice" monarch by #40', t.Designation),
    "day_night_statement": ("night", t.DayNight),
    "legend_choice_phrase": ('"Alice" choose #8 by sba', t.LegendChoice),
    "ring_phrase": ('"Alice" ring-bearer #30 by #29', t.RingTempts),
    "venture_phrase": ('"Alice" venture "Secret Entrance" by #40', t.Venture),
    "speed_phrase": ('"Alice" speed 2 by #3', t.Speed),
    "complete_phrase": ("#41 complete by sba", t.Complete),
    "flip_phrase": ("#7 flip by #8", t.Flip),
    "unlock_phrase": ('#7 unlock "Locker Room" by #8', t.Unlock),
    "class_level_phrase": ("#7 level 2 by #8", t.ClassLevel),
    "hidden_phrase": ("#11 hidden by #8", t.Hidden),
    "meld_phrase": ("#30 meld #31 by #32", t.Meld),
    "snapshot_object_phrase": (
        '#41 battlefield "Alice" tapped attached #7 phased-out damage 2 counters 3 loyalty',
        t.SnapshotObject,
    ),
    "draw_phrase": ('"Alice" draw #15 "Leyline of the Void" by #8', t.Draw),
    "life_phrase": ('"Bob" life -2 by #30', t.Life),
    "mana_phrase": ('"Alice" mana {G} by #5', t.ManaAdded),
    "stays_tapped_phrase": ("#12 stays tapped by #40", t.StaysTapped),
    "leaves_combat_phrase": ("#7 leaves combat by #20", t.LeavesCombat),
    "player_counters_phrase": ('"Bob" counters +1 poison by #30', t.PlayerCounters),
    "search_phrase": ('"Alice" search library "Bob" by #50', t.LibraryAction),
    "shuffle_phrase": ('"Alice" shuffle library by #50', t.LibraryAction),
    "roll_phrase": ('"Alice" roll d20 6', t.Roll),
    "coin_phrase": ('"Alice" flip won by #4', t.CoinFlip),
    "mulligan_phrase": ('"Alice" mulligan', t.PlayerAction),
    "keep_phrase": ('"Bob" keep', t.PlayerAction),
    "concede_phrase": ('"Bob" concede', t.PlayerAction),
    "lose_phrase": ('"Bob" lose by sba', t.PlayerAction),
    "win_phrase": ('"Alice" win by #70', t.PlayerAction),
    "snapshot_life_phrase": ('"Alice" life 14', t.SnapshotPlayer),
    "snapshot_library_phrase": ('"Alice" library 33', t.SnapshotPlayer),
    "snapshot_player_counters_phrase": ('"Bob" counters 2 poison', t.SnapshotPlayer),
    "snapshot_commander_damage_phrase": ('"Alice" damage 14 from #1', t.SnapshotPlayer),
    "mtgr_header": ("mtgr 0.4", t.Header),
    "title_header": ('title "Modern league, round 2, game 1"', t.Header),
    "rules_header": ("rules 2026-09-25", t.Header),
    "player_header": ('player "Alice" deck 60', t.PlayerDeclaration),
    "perspective_header": ("perspective all", t.Header),
    "start_statement": ('start "Bob" by "Bob"', t.Start),
    "game_statement": ("game 2", t.GameStart),
    "turn_statement": ('turn 3 "Alice" by #70', t.Turn),
    "phase_statement": ("phase combat by #55", t.PhaseOrStep),
    "step_statement": ("step declare-attackers", t.PhaseOrStep),
    "incomplete_statement": ("incomplete", t.Marker),
    "keyframe_statement": ("keyframe", t.Marker),
    "end_statement": ("end", t.Marker),
    "sideboard_phrase": ('"Alice" sideboard in 2 "Flusterstorm"', t.Sideboard),
    "game_drawn_statement": ("game drawn by sba", t.GameDrawn),
    "match_statement": ('match "Alice" 2-1', t.MatchResult),
    "variant_header": ("variant commander", t.Header),
    "judge_call_statement": ('judge call "Bob"', t.JudgeEvent),
    "judge_penalty_statement": (
        'judge penalty "Alice" warning "Game Rule Violation" allow D804',
        t.JudgeEvent,
    ),
    "judge_missed_statement": ("judge missed-trigger #12 added", t.JudgeEvent),
    "judge_time_statement": ("judge time turns 5", t.JudgeEvent),
    "judge_backup_statement": ("judge backup", t.JudgeEvent),
}


def form_rules() -> set[str]:
    dispatchers = {
        "object_statement",
        "player_statement",
        "keyword_statement",
        "object_phrase",
        "player_phrase",
    }
    return {
        name
        for name in GRAMMAR
        if name.endswith(("_phrase", "_header", "_statement")) and name not in dispatchers
    }


def test_every_form_of_the_grammar_has_an_example_here() -> None:
    assert form_rules() == set(FORMS)


@pytest.mark.parametrize("rule", sorted(FORMS))
def test_form_parses_to_its_statement(rule: str) -> None:
    line, statement_type = FORMS[rule]
    parsed = parse_line(line)
    assert parsed.error is None, parsed.error
    assert type(parsed.statement) is statement_type
    assert parsed.statement.span == t.Span(0, len(line))


def text(line: str, span: t.Span) -> str:
    return line[span.start : span.end]


def test_move_parts_carry_their_exact_columns() -> None:
    line = "  #21 move hand -> exile as discard by #18 replacement #15 #16  // Leyline"
    move = parse_line(line).statement
    assert isinstance(move, t.Move)
    assert text(line, move.subject.span) == "#21"
    assert move.subject.number == 21
    assert text(line, move.verb.span) == "move"
    assert text(line, move.source.zone.span) == "hand"
    assert text(line, move.destination.zone.span) == "exile"
    assert move.kind is not None and text(line, move.kind.span) == "discard"
    assert move.cause is not None and text(line, move.cause.keyword) == "by"
    assert isinstance(move.cause.agent, t.ObjectRef) and move.cause.agent.number == 18
    assert [r.number for r in move.replacements] == [15, 16]
    assert move.replacement_keyword is not None
    assert text(line, move.replacement_keyword) == "replacement"
    assert text(line, move.span) == "#21 move hand -> exile as discard by #18 replacement #15 #16"


def test_names_players_numbers_and_positions() -> None:
    line = '#41 "Dandân" move library "Bob" -> library "Bob" bottom 2 by "Bob"'
    move = parse_line(line).statement
    assert isinstance(move, t.Move)
    assert move.name is not None and move.name.value == "Dandân"
    assert move.source.player is not None and move.source.player.name == "Bob"
    position = move.destination.position
    assert position is not None and position.end.value == "bottom" and position.index == 2
    assert isinstance(move.cause.agent, t.PlayerRef) and move.cause.agent.name == "Bob"


def test_escapes_in_strings() -> None:
    line = r'#5 effect "says \"hi\" \\ bye" on #4'
    effect = parse_line(line).statement
    assert isinstance(effect, t.Effect)
    assert effect.text.value == 'says "hi" \\ bye'


def test_comments_blank_lines_tabs_and_trailing_spaces() -> None:
    assert parse_line("").statement is None and parse_line("").error is None
    only_comment = parse_line('   // a note with "quotes"')
    assert only_comment.statement is None and only_comment.comment == t.Span(3, 26)
    tabbed = parse_line('\t#5\ttap\tby\t"Alice"   ')
    assert isinstance(tabbed.statement, t.TapChange) and tabbed.statement.span == t.Span(1, 18)
    slash_in_string = parse_line('#5 effect "a // b" // real comment')
    assert isinstance(slash_in_string.statement, t.Effect)
    assert slash_in_string.statement.text.value == "a // b"


def test_allow_comment_lists_codes() -> None:
    assert parse_line("#5 tap // allow D804, N103").allowed == {"D804", "N103"}
    assert parse_line("#5 tap // allowed by the judge").allowed == frozenset()


def test_signed_and_unsigned_life_are_different_forms() -> None:
    assert isinstance(parse_line('"Bob" life -3 by #2').statement, t.Life)
    assert isinstance(parse_line('"Bob" life 17').statement, t.SnapshotPlayer)


def test_commander_forms_carry_their_parts() -> None:
    line = '#1 new commander "Atraxa, Praetors\' Voice" command "Alice"'
    new = parse_line(line).statement
    assert isinstance(new, t.New) and new.what.value == "commander"
    assert new.place.player is not None and new.place.player.name == "Alice"
    line = '#1 cast "Alice" from command tax 4 by #3'
    cast = parse_line(line).statement
    assert isinstance(cast, t.Cast) and cast.tax is not None
    assert (cast.tax.value, text(line, cast.tax.span)) == (4, "4")


def test_judge_events_carry_their_parts() -> None:
    line = 'judge penalty "Alice" game-loss "Deck Problem" allow D804 K302'
    judge = parse_line(line).statement
    assert isinstance(judge, t.JudgeEvent) and judge.event.value == "penalty"
    assert judge.player is not None and judge.player.name == "Alice"
    assert judge.penalty is not None and judge.penalty.value == "game-loss"
    assert judge.infraction is not None and judge.infraction.value == "Deck Problem"
    assert [text(line, code.span) for code in judge.allow] == ["D804", "K302"]
    missed = parse_line("judge missed-trigger #7 skipped").statement
    assert isinstance(missed, t.JudgeEvent) and missed.objects[0].number == 7
    assert missed.remedy is not None and missed.remedy.value == "skipped"
    monarch = parse_line("judge missed-trigger monarch added").statement  # decision 0106
    assert isinstance(monarch, t.JudgeEvent) and monarch.trigger_source is None
    assert monarch.trigger_designation is not None
    assert monarch.trigger_designation.value == "monarch"
    time = parse_line("judge time turns 5").statement
    assert isinstance(time, t.JudgeEvent) and time.turns is not None and time.turns.value == 5


def test_match_statements_carry_their_parts() -> None:
    line = '"Alice" sideboard out 3 "Lightning Bolt"'
    sideboard = parse_line(line).statement
    assert isinstance(sideboard, t.Sideboard)
    assert sideboard.way is not None and text(line, sideboard.way.span) == "out"
    assert sideboard.card is not None and sideboard.card.value == "Lightning Bolt"
    assert sideboard.cards == -3
    unseen = parse_line('"Bob" sideboard deck 61').statement
    assert isinstance(unseen, t.Sideboard)
    assert unseen.cards == 0 and unseen.deck is not None and unseen.deck.value == 61
    result = parse_line("match drawn 1-1-1").statement
    assert isinstance(result, t.MatchResult)
    assert result.winner is None and result.games == (1, 1, 1)
    drawn = parse_line("game drawn by #12").statement
    assert isinstance(drawn, t.GameDrawn) and drawn.objects[0].number == 12


@pytest.mark.parametrize(
    "line",
    [
        "#5 movement",
        "#5move hand -> exile",
        "#5 move hand exile",
        "#5 move hand -> exile by",
        "#5 cast from",
        '"Alice" draw',
        '"Alice" draw 5',
        "turn three",
        "step main",
        "phase upkeep",
        "#5 damage -2 -> #3",
        "#5 counters 1 luck by #5",
        "#5 tap by #",
        "mtgr",
        "perspective",
        "#5 attack",
        "#5 move hand -> exile as banish by #3",
        "#5 cast overdrive",
        '#5 effect "x" until tomorrow',
        "end end",
        "match Alice 2-1",
        'match "Alice" 2-1-1-1',
        '"Alice" sideboard in 2',
        "game drawn 3",
        "judge penalty warning",
        'judge penalty "Alice" caution "x"',
        "judge missed-trigger #1",
        "judge backup allow",
    ],
)
def test_lines_outside_the_spec_do_not_parse(line: str) -> None:
    parsed = parse_line(line)
    assert parsed.statement is None
    assert parsed.error is not None and parsed.error.code == "S001"


# line, start, end, a part of the message that must be there
ERRORS = [
    ("#5 move hand ->", 15, 15, "expected a zone (library, hand, graveyard, battlefield"),
    ("#5 move hand -> exlie", 16, 21, 'unexpected "exlie": did you mean "exile"? expected a zone'),
    ("#5 movement", 3, 11, "a verb (new, move"),
    ("#5 move hand -> exile by", 24, 24, 'expected a cause: an object #N, a player "Name" or sba'),
    ('"Bob" life 3 by #2', 13, 15, 'in place of "3": a signed amount'),
    ("foo", 0, 3, 'expected an object "#N", a player "Name" or a keyword'),
    ('#5 "Bolt cast', 3, 13, "unterminated string"),
    ("turn 3", 6, 6, "active player"),
    ("step upkep", 5, 10, "expected a step (untap, upkeep"),
    ("phase upkeep", 6, 12, "expected a phase (beginning, main, combat, ending)"),
    ('#5 cast dash by "Alice" zz', 24, 26, '"replacement"'),
    ('"Alice" roll 20', 13, 15, "a die such as d20, or 2d6 for two dice"),
    ("#5 new thing", 7, 12, "card, hidden, token, copy, commander or emblem"),
    ("#5 move hand -> library top x", 28, 29, 'unexpected "x"'),
    ('#5 effect "x" until tomorrow', 20, 28, "end-of-turn"),
    ("rules 26-9-25", 6, 13, "a date such as 2026-09-25"),
    ("#5 move hand -> exile as banish", 25, 31, "discard, sacrifice, destroy or mill"),
    ('"Alice" search exile', 15, 20, "graveyard, hand"),
    ("#5 activate #4", 12, 14, '"of"'),
    ('match "Alice" 2', 14, 15, "the games won, lost and drawn"),
    ("game x", 5, 6, "a number or drawn"),
    ('"Alice" sideboard in', 20, 20, "a card name"),
    # a typo names the word meant; a word of the game names the form that records it
    ("step upkep", 5, 10, 'did you mean "upkeep"?'),
    ("#5 move hand -> exlie", 16, 21, 'did you mean "exile"?'),
    ("#5 cast from graveyard jump-strat", 23, 33, 'did you mean "jump-start"?'),
    ('"Alice" discards #5', 8, 16, "`#N move hand -> graveyard as discard by C`"),
    ('"Alice" scry 2', 8, 12, "then `#N move library -> library bottom by C`"),
    ("#5 sacrifice", 3, 12, "`#N move battlefield -> graveyard as sacrifice by C`"),
]


@pytest.mark.parametrize(("line", "start", "end", "message"), ERRORS)
def test_error_says_what_was_expected_at_the_exact_columns(
    line: str, start: int, end: int, message: str
) -> None:
    error = parse_line(line).error
    assert error is not None
    assert (error.span.start, error.span.end) == (start, end), error
    assert message in error.message, error.message


def test_every_cast_mode_of_decision_0081_parses() -> None:
    for mode in grammar_words("cast_mode"):
        parsed = parse_line(f"#5 cast from graveyard {mode} kicker by #4")
        assert parsed.error is None, (mode, parsed.error)
        statement = parsed.statement
        assert isinstance(statement, t.Cast)
        assert [m.value for m in statement.modes] == [mode, "kicker"]


def test_error_names_the_users_own_text_not_a_masked_shape() -> None:
    error = parse_line('#512 "Jötun Grunt" move hand -> exlie').error
    assert error is not None and 'after "->"' in error.message
    error = parse_line('turn 12 "Alice" by #70 extra').error
    assert error is not None and '"#70"' in error.message


def test_too_large_numbers() -> None:
    error = parse_line("#" + "9" * 10_000 + " tap").error
    assert error is not None and error.code == "S002"
    assert parse_line("#999999999 tap").error is None


@pytest.mark.parametrize(
    "line",
    [
        "\x00",
        "#5 \x00 tap",
        '"' * 1001,
        "->" * 5000,
        "#1 move " + "-> " * 3000,
        "x" * 1_000_000,
        "\ud800 lone surrogate",
        "#5 tap\r",
        "{" * 100,
        '"\\',
    ],
)
def test_nothing_raises(line: str) -> None:
    parsed = parse_line(line)
    assert (parsed.statement is None) or (parsed.error is None)
    if parsed.error:
        assert 0 <= parsed.error.span.start <= parsed.error.span.end <= len(line)


def test_entering_tapped_attached_attacking_and_owner_are_parts_with_columns() -> None:
    """Decisions 0020, 0021 and 0023: how a permanent enters, and whose it is."""
    line = '#23 new token "Role" battlefield "Alice" owner "Bob" tapped attached #12 by #22'
    statement = parse_line(line).statement
    assert isinstance(statement, t.New)
    assert statement.owner is not None and statement.owner.name == "Bob"
    assert statement.tapped is not None and statement.tapped.value == "tapped"
    assert isinstance(statement.attached, t.ObjectRef) and statement.attached.number == 12
    assert line[statement.attached.span.start : statement.attached.span.end] == "#12"
    move = parse_line('#5 move hand -> battlefield tapped attacking "Bob" by #60').statement
    assert isinstance(move, t.Move) and move.combat is not None
    assert move.combat.keyword.value == "attacking"
    assert isinstance(move.combat.target, t.PlayerRef) and move.combat.target.name == "Bob"
    assert [r.span.start for r in move.references] == sorted(r.span.start for r in move.references)
    assert "Bob" in [r.name for r in move.players]
    play = parse_line('#5 play "Alice" from exile by #57').statement
    assert isinstance(play, t.Play) and play.player is not None and play.player.name == "Alice"
    control = parse_line('#7 control "Alice" until end-of-turn by #55').statement
    assert isinstance(control, t.Control) and control.until is not None
    assert control.until.value == "end-of-turn"
    # the cause stands last: `until` after it does not parse
    assert parse_line('#7 control "Alice" by #55 until end-of-turn').error is not None


def test_replacement_on_every_event_and_searches_of_any_zone() -> None:
    """Decisions 0040 and 0042: `replacement` after resolve, fizzle, countered, tap, damage, a
    new token, a win; `search` of a graveyard or a hand with the zone's owner."""
    lines = {
        "#9 resolve -> exile replacement #1": len("#9 resolve -> exile "),
        "#9 fizzle replacement #1": len("#9 fizzle "),
        "#9 countered by #16 -> exile replacement #1": len("#9 countered by #16 -> exile "),
        "#5 tap by #20 replacement #3": len("#5 tap by #20 "),
        '#7 damage 0 -> "Alice" replacement #11 #12': len('#7 damage 0 -> "Alice" '),
        '#24 new token "Scute Swarm" battlefield "Alice" by #23 replacement #23 #2': len(
            '#24 new token "Scute Swarm" battlefield "Alice" by #23 '
        ),
        '"Alice" win replacement #13': len('"Alice" win '),
    }
    for line, keyword in lines.items():
        statement = parse_line(line).statement
        assert statement is not None, line
        assert statement.replacement_keyword is not None
        assert statement.replacement_keyword.start == keyword, line
        assert statement.replacements
    search = parse_line('"Alice" search hand "Bob" by #1').statement
    assert isinstance(search, t.LibraryAction)
    assert search.zone is not None and search.zone.value == "hand"
    assert (search.zone.span.start, search.zone.span.end) == (15, 19)
    assert search.owner is not None and search.owner.name == "Bob"
    shuffle = parse_line('"Bob" shuffle library by #1').statement
    assert isinstance(shuffle, t.LibraryAction) and shuffle.zone is None


def test_the_forms_of_decisions_0060_to_0065_carry_their_parts() -> None:
    """Decisions 0060 to 0065: damage, the legend kept, the Ring-bearer, rooms, halves, meld."""
    entry = parse_line('#41 battlefield "Alice" damage 2').statement
    assert isinstance(entry, t.SnapshotObject)
    assert entry.damage == t.Number(2, t.Span(31, 32))
    choice = parse_line('"Alice" choose #8 by sba').statement
    assert isinstance(choice, t.LegendChoice)
    assert choice.kept == t.ObjectRef(8, t.Span(15, 17))
    assert isinstance(choice.cause, t.Cause) and isinstance(choice.cause.agent, t.Sba)
    ring = parse_line('"Alice" ring-bearer by #29').statement
    assert isinstance(ring, t.RingTempts) and ring.bearer is None
    assert [r.span.start for r in ring.references] == [0, 23]
    unkept = parse_line('"Alice" choose #8')
    assert unkept.error is not None and unkept.error.span == t.Span(17, 17)
    venture = parse_line('"Alice" venture "Trapped Entry" by #40').statement
    assert isinstance(venture, t.Venture)
    assert venture.room == t.Text("Trapped Entry", t.Span(16, 31))
    roomless = parse_line('"Alice" venture by #40')
    assert roomless.error is not None and roomless.error.span == t.Span(16, 18)
    split = parse_line('#5 "Fire // Ice" cast from graveyard half "Ice" flashback').statement
    assert isinstance(split, t.Cast)
    assert split.half == t.Text("Ice", t.Span(42, 47))
    assert [m.value for m in split.modes] == ["flashback"]
    flipped = parse_line('#7 battlefield "Alice" flipped tapped').statement
    assert isinstance(flipped, t.SnapshotObject)
    assert flipped.flipped == t.Word("flipped", t.Span(23, 30))
    melded = parse_line('#30 battlefield "Alice" back melded #31').statement
    assert isinstance(melded, t.SnapshotObject)
    assert melded.melded == t.ObjectRef(31, t.Span(36, 39))
    assert [r.span.start for r in melded.references] == [0, 16, 36]
    entry = parse_line('"Bob" ring-bearer #7 tempted 2').statement
    assert isinstance(entry, t.RingTempts)
    assert entry.tempted == t.Number(2, t.Span(29, 30))
    assert entry.cause is None
