"""The formatter: one canonical layout, idempotent, and never a change of meaning."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mtgr.syntax.document import LINE_BREAK, parse_line, split_lines
from mtgr.syntax.format import first_line_break, format_line, format_lines, format_text, meaning

ROOT = Path(__file__).resolve().parents[1]


def test_single_spaces_no_indentation_and_comment_spacing() -> None:
    line = '   #1   move hand  ->\tbattlefield "Alice"   by #1   //moved   '
    assert format_line(line) == '#1 move hand -> battlefield "Alice" by #1 // moved'


def test_strings_keep_their_inner_spaces_and_escapes() -> None:
    line = '"Alice"  draw  #8 "Æther  \\"Vial\\""'
    assert format_line(line) == '"Alice" draw #8 "Æther  \\"Vial\\""'


def test_comment_only_lines_and_slash_runs() -> None:
    assert format_line("    //   a note  ") == "// a note"
    assert format_line("//") == "//"
    assert format_line("  ////section") == "//// section"


def test_allow_comment_keeps_its_codes() -> None:
    line = "#3 tap//allow V701, N105"
    formatted = format_line(line)
    assert formatted == "#3 tap // allow V701, N105"
    assert parse_line(formatted).allowed == frozenset({"V701", "N105"})


def test_a_line_that_does_not_parse_is_kept_exactly() -> None:
    for line in ("  #1 frobnicate   ", '"Alice" draw #1 "unterminated', "#1234567890 tap  "):
        assert parse_line(line).error is not None
        assert format_line(line) == line


def test_line_ends_trailing_blank_lines_and_final_newline() -> None:
    text = 'mtgr 0.4\nplayer  "Alice"\rplayer "Bob"   \r\n\n\n\n'
    assert format_text(text) == 'mtgr 0.4\nplayer "Alice"\nplayer "Bob"\n'
    # every line break becomes the first one, so a CRLF file stays CRLF
    text = 'mtgr 0.4\r\nplayer  "Alice"\rplayer "Bob"   \n\n'
    assert format_text(text) == 'mtgr 0.4\r\nplayer "Alice"\r\nplayer "Bob"\r\n'
    assert format_text("") == ""
    assert format_text("\n\n  \n") == ""
    assert format_text('turn 1 "Bob"') == 'turn 1 "Bob"\n'


def test_blank_lines_inside_are_kept() -> None:
    assert format_text("mtgr 0.4\n\n\nkeyframe\n") == "mtgr 0.4\n\n\nkeyframe\n"


def test_range_formatting_keeps_the_line_count() -> None:
    assert format_lines(["  keyframe ", "", "end  "]) == ["keyframe", "", "end"]


def test_the_examples_are_stable_and_keep_their_meaning() -> None:
    for path in sorted((ROOT / "examples").glob("*.mtgr")) + sorted(
        (ROOT / "tests" / "cases").rglob("*.mtgr")
    ):
        text = path.read_text(encoding="utf-8")
        formatted = format_text(text)
        assert format_text(formatted) == formatted, path
        _assert_same_meaning(text, formatted)


def _assert_same_meaning(original: str, formatted: str) -> None:
    before = split_lines(original)
    after = split_lines(formatted)
    for i, line in enumerate(before):
        if i < len(after) - 1:
            assert meaning(parse_line(after[i])) == meaning(parse_line(line)), (line, after[i])
        else:  # dropped trailing blank lines and the final newline's empty line
            assert parse_line(line).statement is None and parse_line(line).error is None


# ---- property tests: statements built from the grammar's forms -----------------------

BLANK = st.text(alphabet=" \t", min_size=1, max_size=3)
NAMES = st.sampled_from(
    ["Æther Vial", "Dandân", "Jötun Grunt", "Lightning Bolt", 'Say "Hi"', "a\\b", "  spaced  "]
)
PLAYERS = st.sampled_from(["Alice", "Bob", "Zoë"])
ZONES = st.sampled_from(["library", "hand", "graveyard", "battlefield", "stack", "exile"])
NUM = st.integers(min_value=0, max_value=999_999_999).map(str)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _obj(n: str) -> str:
    return "#" + n


@st.composite
def places(draw: st.DrawFn) -> list[str]:
    words = [draw(ZONES)]
    if draw(st.booleans()):
        words.append(_q(draw(PLAYERS)))
    if draw(st.booleans()):
        words.append(draw(st.sampled_from(["top", "bottom"])))
        if draw(st.booleans()):
            words.append(draw(NUM))
    return words


@st.composite
def causes(draw: st.DrawFn) -> list[str]:
    if not draw(st.booleans()):
        return []
    return ["by", draw(st.sampled_from([_obj(draw(NUM)), _q(draw(PLAYERS)), "sba"]))]


@st.composite
def statements(draw: st.DrawFn) -> list[str]:
    subject = _obj(draw(NUM))
    player = _q(draw(PLAYERS))
    form = draw(st.integers(min_value=0, max_value=24))
    if form == 0:
        return [subject, "new", "card", _q(draw(NAMES)), *draw(places()), *draw(causes())]
    if form == 1:
        return [subject, "new", "hidden", *draw(places())]
    if form == 2:
        kind = ["as", draw(st.sampled_from(["discard", "sacrifice", "destroy", "mill"]))]
        rest = kind if draw(st.booleans()) else []
        repl = ["replacement", _obj(draw(NUM))] if draw(st.booleans()) else []
        return [
            subject,
            "move",
            *draw(places()),
            "->",
            *draw(places()),
            *rest,
            *draw(causes()),
            *repl,
        ]
    if form == 3:
        return [subject, "identify", _q(draw(NAMES)), *draw(causes())]
    if form == 4:
        return [subject, _q(draw(NAMES)), "reveal", *draw(causes())]
    if form == 5:
        return [subject, "cast", *([player] if draw(st.booleans()) else []), *draw(causes())]
    if form == 6:
        return [subject, draw(st.sampled_from(["activate", "trigger"])), "of", _obj(draw(NUM))]
    if form == 7:
        return [subject, "target", _obj(draw(NUM)), player]
    if form == 8:
        return [subject, "pay", "{1}{G}", "life", draw(NUM), _q(draw(NAMES))]
    if form == 9:
        return [subject, draw(st.sampled_from(["resolve", "fizzle"])), "->", *draw(places())]
    if form == 10:
        return [subject, "damage", draw(NUM), "->", player]
    if form == 11:
        return [subject, "counters", "+" + draw(NUM), "+1/+1", *draw(causes())]
    if form == 12:
        return [subject, "effect", _q(draw(NAMES)), "on", _obj(draw(NUM)), "until", "end-of-turn"]
    if form == 13:
        return [player, "draw", subject, *([_q(draw(NAMES))] if draw(st.booleans()) else [])]
    if form == 14:
        return [player, "life", "-" + draw(NUM), *draw(causes())]
    if form == 15:
        return ["turn", draw(NUM), player, *draw(causes())]
    if form == 16:
        return ["step", draw(st.sampled_from(["untap", "draw", "combat-damage", "cleanup"]))]
    if form == 17:  # decision 0030: sideboarding, a drawn game, the match result
        way = draw(
            st.sampled_from([[], ["in", _q(draw(NAMES))], ["out", draw(NUM), _q(draw(NAMES))]])
        )
        return [player, "sideboard", *way]
    if form == 18:
        return ["game", "drawn", *draw(causes())]
    if form == 20:  # decision 0031: commanders and their tax
        return [subject, "new", "commander", _q(draw(NAMES)), "command", player]
    if form == 21:
        return [subject, "cast", "from", "command", "tax", draw(NUM), *draw(causes())]
    if form == 22:  # decision 0033: a judge's lines
        penalty = draw(st.sampled_from(["warning", "game-loss", "match-loss"]))
        return ["judge", "penalty", player, penalty, _q(draw(NAMES)), "allow", "D804", "K302"]
    if form == 23:
        return ["judge", "missed-trigger", subject, draw(st.sampled_from(["added", "skipped"]))]
    if form == 19:
        score = "-".join(draw(st.lists(NUM, min_size=2, max_size=3)))
        return ["match", draw(st.sampled_from([player, "drawn"])), score]
    return [draw(st.sampled_from(["keyframe", "end", "incomplete"]))]


COMMENTS = {
    "//": "//",
    "// note": "// note",
    "//allow V701": "// allow V701",
    "//  Æther // x": "// Æther // x",
}


@st.composite
def laid_out_lines(draw: st.DrawFn) -> tuple[str, str]:
    """A statement laid out with random blanks, and the canonical layout expected of it."""
    words = draw(statements())
    line = draw(st.sampled_from(["", " ", "\t ", "\ufeff", " \ufeff "]))
    for i, word in enumerate(words):
        line += (draw(BLANK) if i else "") + word
    expected = ("\ufeff" if "\ufeff" in line else "") + " ".join(words)
    if draw(st.booleans()):
        comment = draw(st.sampled_from(sorted(COMMENTS)))
        line += draw(st.sampled_from(["", " ", "\t  "])) + comment
        expected += " " + COMMENTS[comment]
    return line + draw(st.sampled_from(["", " ", "\t", "  \t "])), expected


@settings(max_examples=400, deadline=None)
@given(laid_out_lines())
def test_random_statements_format_to_single_spaces_with_the_same_meaning(
    case: tuple[str, str],
) -> None:
    line, expected = case
    parsed = parse_line(line)
    assert parsed.error is None, line
    formatted = format_line(line)
    assert formatted == expected
    assert meaning(parse_line(formatted)) == meaning(parsed)
    assert format_line(formatted) == formatted


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(laid_out_lines().map(lambda c: c[0]), st.text(max_size=40)), max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_any_text_formats_idempotently_without_losing_meaning(lines: list[str], end: str) -> None:
    text = end.join(lines)
    formatted = format_text(text)
    assert format_text(formatted) == formatted
    newline = first_line_break(text)
    assert set(LINE_BREAK.findall(formatted)) <= {newline}
    assert formatted == "" or formatted.endswith(newline)
    _assert_same_meaning(text, formatted)


def test_hostile_lines_are_kept_or_formatted_without_raising() -> None:
    hostile = [
        "\x00",
        "#1 tap\x00 by #1",
        "\ud800 keyframe",
        '"Alice" draw #1 "\ud83d"',
        "#" + "9" * 10_000 + " tap",
        "#1 damage " + "9" * 10_000 + ' -> "Bob"',
        "#1 move hand " + "-> " * 5_000 + "battlefield",
        '#1 new card "unterminated hand',
        "\t#1\ttap\tby\t#1\t",
        "keyframe \u00a0\u2003",
        "x" * 1_000_000,
        "//" * 1_000,
    ]
    for line in hostile:
        formatted = format_line(line)
        assert format_line(formatted) == formatted
        assert meaning(parse_line(formatted)) == meaning(parse_line(line))
    assert format_line("\t#1\ttap\tby\t#1\t") == "#1 tap by #1"


def test_meaning_ignores_what_statements_cache() -> None:
    indented = parse_line("  #1 tap by #2")
    assert indented.statement is not None
    _ = indented.statement.references  # fills a cache on the shared statement
    assert meaning(indented) == meaning(parse_line("#1 tap by #2"))


# Invisible or control characters an attack put at token edges (issue 18 item 10): none
# is layout, so formatting must keep every one of them where it was.
INVISIBLE = (
    "\u00a0\u1680\u180e\u2000\u2003\u200a\u200b\u200c\u200d\u2028\u2029\u202f\u205f\u2060"
    "\u3000\ufeff\x00\x01\x0b\x0c\x1c\x1d\x1e\x1f\x7f\x85"
)


def _without_blanks(line: str) -> str:
    return line.replace(" ", "").replace("\t", "")


@st.composite
def hostile_lines(draw: st.DrawFn) -> str:
    """A statement whose blanks between tokens sometimes hold an invisible character."""
    words = draw(statements())
    line = draw(st.sampled_from(["", " ", "\ufeff", *INVISIBLE]))
    for i, word in enumerate(words):
        gap = draw(BLANK) if i else ""
        if draw(st.integers(0, 3)) == 0:
            inserted = draw(st.sampled_from(INVISIBLE))
            gap = draw(st.sampled_from([inserted + gap, gap + inserted]))
        line += gap + word
    if draw(st.booleans()):
        line += draw(BLANK) + draw(st.sampled_from(sorted(COMMENTS)))
    return line + draw(st.sampled_from(["", " ", *INVISIBLE, " \u00a0 ", "\t\x0b"]))


@settings(max_examples=400, deadline=None)
@given(st.lists(hostile_lines(), min_size=1, max_size=4))
def test_formatting_changes_nothing_but_spaces_and_tabs(lines: list[str]) -> None:
    formatted = format_text("\n".join(lines)).split("\n")
    kept = [_without_blanks(line) for line in lines]
    while kept and kept[-1] == "":
        kept.pop()
    assert [_without_blanks(line) for line in formatted[:-1]] == kept
    assert formatted[-1] == ""
