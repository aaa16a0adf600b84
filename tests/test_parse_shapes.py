"""Lines of one shape share one compiled plan, and no line gets another line's values.

The parser parses a line's shape (digits and string contents masked) once, compiles the
statement it describes into a function of the line, and makes the parts without a value
of their own (spans, words without digits) once for each starting column. Here real lines
get new numbers, names, escapes, indentation and comments, many of them of one shape, and
each one's parse must equal a parse of that line alone (its own text parsed and compiled,
nothing shared), and every value must be what the line says at the value's columns.
"""

from __future__ import annotations

import dataclasses
import gc
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsimonious.exceptions import ParseError

from mtgr.syntax import tree as t
from mtgr.syntax.document import Document, clear_parse_caches, parse_line
from mtgr.syntax.parser import (
    _ALLOW,
    _ALLOW_CODE,
    _STATEMENT,
    BROAD_SHAPES,
    MAX_NUMBER_DIGITS,
    SHAPES,
    _Plan,
    _shape,
    _Tree,
    direct_constructor,
    split_comment,
)

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted(
    {
        line
        for folder in ("examples", "tests/cases/valid")
        for path in (ROOT / folder).rglob("*.mtgr")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("//")
    }
)
# a number, or a string with its escapes
_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|[0-9]+')
_ESCAPED = re.compile(r"\\(.)")

# a string's contents as written: characters and escapes, never a bare quote; some longer
# than the 64 characters up to which the parser shares strings
names = st.lists(
    st.sampled_from([*"ab Z9é-'", '\\"', "\\\\", "\\x", "Lightning Bolt "]), max_size=12
).map("".join)
digits = st.integers(0, MAX_NUMBER_DIGITS + 2).flatmap(
    lambda count: st.text("0123456789", min_size=max(count, 1), max_size=max(count, 1))
)


@st.composite
def variants(draw: st.DrawFn) -> str:
    """A real line with new values, indentation and perhaps a comment."""
    line = draw(st.sampled_from(SEEDS))

    def new_value(match: re.Match[str]) -> str:
        if match.group().startswith('"'):
            return '"' + draw(names) + '"'
        return draw(digits)

    body = _VALUE.sub(new_value, line.strip())
    indent = draw(st.sampled_from(["", "", "  ", "\t", " \t  "]))
    comment = draw(st.sampled_from(["", "", " // allow K330, T405", "  // a note 12"]))
    return indent + body + comment


def alone(line: str) -> t.ParsedLine | None:
    """The parse of a line from its own text, sharing nothing; None when it does not parse."""
    start, end, comment = split_comment(line)
    text = line[start:end]
    try:
        node = _STATEMENT.match(text) if start < end else None
    except ParseError:  # a variant whose new values the grammar refuses (`rules 0-0-0`)
        return None
    plan = _Plan(_Tree(node, text)) if node is not None and node.end == len(text) else None
    if plan is None or plan.too_large is not None:
        return None
    return t.ParsedLine(
        plan.build(line, start), None, comment, parse_line(line).allowed, plan.tokens, start
    )


def values(part: object) -> list[object]:
    """Every value with columns in a statement (words, numbers, references, texts)."""
    if isinstance(part, tuple):
        return [found for item in part for found in values(item)]
    if not dataclasses.is_dataclass(part) or isinstance(part, t.Span):
        return []
    own = [part] if isinstance(part, (t.Word, t.Number, t.ObjectRef, t.PlayerRef, t.Text)) else []
    return own + [
        found
        for field in dataclasses.fields(part)
        if field.name != "_references"
        for found in values(getattr(part, field.name))
    ]


def assert_values_are_the_lines(line: str, statement: t.Statement) -> None:
    start, end, _comment = split_comment(line)
    assert statement.span == t.Span(start, end)
    for value in values(statement):
        written = line[value.span.start : value.span.end]  # type: ignore[attr-defined]
        if isinstance(value, t.ObjectRef):
            assert written[0] == "#" and int(written[1:]) == value.number
        elif isinstance(value, t.Number):
            assert int(written) == value.value
        elif isinstance(value, t.PlayerRef):
            assert _ESCAPED.sub(r"\1", written[1:-1]) == value.name
        elif isinstance(value, t.Text) and written.startswith('"'):
            assert _ESCAPED.sub(r"\1", written[1:-1]) == value.value
        else:  # a word, or mana as written
            assert written == value.value  # type: ignore[attr-defined]


def assert_references_are_the_statements(statement: t.Statement) -> None:
    """What a statement names, whether the compiled parser gave it or it was computed,
    equals what a search of the statement's fields finds."""
    found = t._collect_references(statement)
    assert statement.references == found
    assert statement.players == tuple(r for r in found if isinstance(r, t.PlayerRef))
    assert statement.objects == tuple(r for r in found if isinstance(r, t.ObjectRef))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variants(), min_size=1, max_size=40))
def test_each_line_parses_as_it_would_alone_with_its_own_values(lines: list[str]) -> None:
    clear_parse_caches()
    for line in lines:
        parsed = parse_line(line)
        if parsed.statement is None:
            assert alone(line) is None
            continue
        assert parsed == alone(line)
        assert_values_are_the_lines(line, parsed.statement)
        assert_references_are_the_statements(parsed.statement)


def test_compiled_statements_name_what_their_fields_hold() -> None:
    """Every real line, parsed again and again with new numbers so that its shape is
    compiled, names the objects and players its fields hold, in the order written."""
    clear_parse_caches()
    for line in SEEDS:
        for number in range(1, 6):
            variant = _VALUE.sub(
                lambda match, n=number: match.group() if match.group().startswith('"') else str(n),
                line,
            )
            parsed = parse_line(variant)
            if parsed.statement is not None:
                assert_references_are_the_statements(parsed.statement)


# Forms whose words hold digits (counters, dice, mana, versions, dates, scores): such a word
# is a value of its line, not a part of the shape.
FORMS_WITH_DIGITS = (
    '#{a} move library "P{a}" top {b} -> hand tapped by #{c}',
    "#{a} counters +{b} +{b}/-{b} by #{c}",
    '"Alice" roll d{b}{b} {a}',
    '"Alice" mana {{{b}}}{{G}} by #{a}',
    '#{a} pay {{{b}}}{{U}} life {b} by "Alice"',
    "mtgr {b}.{b}",
    "rules 20{b}{b}-0{b}-1{b}",
    'match "Alice" {b}-{b}',
)


def test_lines_of_one_shape_at_different_columns_keep_their_own_values() -> None:
    """One shape, many values and starting columns: each line's own, in a document too."""
    clear_parse_caches()
    lines = [
        " " * (n % 3) + form.format(a=n, b=n % 9 + 1, c=n + 1)
        for n in range(1, 120)
        for form in FORMS_WITH_DIGITS
    ]
    assert len({_shape(line.strip()) for line in lines}) < 4 * len(FORMS_WITH_DIGITS)
    document = Document("\n".join(lines))
    for line, parsed in zip(lines, (line.parsed for line in document.lines), strict=True):
        assert parsed.statement is not None, line
        assert parsed == alone(line)
        assert_values_are_the_lines(line, parsed.statement)


def test_shapes_that_differ_in_digit_counts_and_string_lengths_share_one_parse() -> None:
    """Lines whose numbers have more digits or whose strings are longer have shapes of their
    own but one broad shape, parsed once; each keeps its own values and columns."""
    clear_parse_caches()
    lines = [
        f'#{10**n} new card "{"x" * n}" battlefield "{"Bob" * n}" owner "A" by #{n}'
        for n in range(1, 9)
    ]
    for line in lines:
        parsed = parse_line("  " + line)
        assert parsed.statement is not None
        assert parsed == alone("  " + line)
        assert_values_are_the_lines("  " + line, parsed.statement)
    assert len(BROAD_SHAPES) == 1 and len(SHAPES) == len(lines)


def test_a_date_parses_though_its_broad_shape_does_not() -> None:
    """A date is the one token whose digits are counted: its broad shape never parses."""
    clear_parse_caches()
    for line in ("rules 2026-09-25", "rules 2026-9-25", "rules 20260-09-25"):
        parsed = parse_line(line)
        if line == "rules 2026-09-25":
            assert parsed == alone(line) and parsed.statement is not None
        else:  # the date's digits miscounted: the error is at the date, as the grammar says
            assert parsed.error is not None and parsed.error.code == "S001"
            assert parsed.error.span == t.Span(6, len(line))


def test_compiling_and_dropping_shapes_leaves_no_cyclic_garbage() -> None:
    """The server collects cycles only when idle: shapes compiled, used and dropped from
    the caches must be freed by reference counting alone."""
    lines = [
        form.format(a=n, b=n % 9 + 1, c=n + 1) for n in range(1, 12) for form in FORMS_WITH_DIGITS
    ]
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        clear_parse_caches()
        Document("\n".join(lines))
        clear_parse_caches()
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_lines_with_hundreds_of_parts_keep_their_own_values() -> None:
    """A shape with more parts than are compiled is made from its template every time."""
    clear_parse_caches()
    lines = [
        f"#{n} target " + " ".join(f"#{n * 1000 + k}" for k in range(300)) for n in (1, 2, 3, 4)
    ]
    for line in lines:
        parsed = parse_line(line)
        assert parsed.statement is not None and len(parsed.statement.targets) == 300
        assert parsed == alone(line)
        assert_values_are_the_lines(line, parsed.statement)


def scanned_comment(line: str) -> int | None:
    """Where the comment starts, found by reading the line a character at a time: a `//`
    outside strings, where a backslash in a string escapes the next character."""
    in_string = False
    i = 0
    while i < len(line):
        if in_string and line[i] == "\\":
            i += 1
        elif line[i] == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return i
        i += 1
    return None


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(['"', "\\", "/", "//", " ", "\t", "#1", "a", "allow K1"])).map("".join)
)
def test_the_comment_starts_where_a_scan_of_the_line_finds_it(line: str) -> None:
    """Lines with a `//` take a shortcut when no string before it is open; with quotes and
    escapes anywhere, the comment and the statement's columns are what a scan finds."""
    start, end, comment = split_comment(line)
    at = scanned_comment(line)
    assert (comment.start if comment else None) == at
    code = line if at is None else line[:at]
    assert (start, end) == (
        len(code) - len(code.lstrip(" \t\ufeff")),
        max(len(code.rstrip()), len(code) - len(code.lstrip(" \t\ufeff"))),
    )
    parsed = parse_line(line)
    assert parsed.comment == comment
    listed = _ALLOW.search(line, at) if at is not None else None
    assert parsed.allowed == frozenset(_ALLOW_CODE.findall(listed.group(1)) if listed else ())


def test_a_number_too_large_is_reported_where_the_lines_own_parse_finds_it() -> None:
    """A shape of a broad shape with numbers too large takes its own parse, which names the
    first one the statement reads (not the first in the line): whether the broad shape has
    served one shape before or enough shapes to be compiled."""
    big = "1" * (MAX_NUMBER_DIGITS + 1)
    lines = [
        f'#1 damage {big} -> #{big} by "Al"',
        f"#{big} damage 3 -> #{big}",
        f"#{big} damage {big} -> #12",
    ]
    # shapes of the same broad shape, parsed first
    served = ["#12 damage 3 -> #45", "#123 damage 3 -> #45", "#1234 damage 33 -> #45"]
    for before in (served[:1], served):
        clear_parse_caches()
        for line in before:
            parse_line(line)
        for line in lines:
            parsed = parse_line(line)
            own = _Plan(_Tree(_STATEMENT.match(line), line))
            assert own.too_large is not None and parsed.error is not None
            assert parsed.error.code == "S002"
            assert parsed.error.span == t.Span(*own.too_large)


def test_direct_constructors_that_share_code_make_their_own_class_with_every_field_set() -> None:
    """Classes with one pattern of fields share one compiled constructor code; each must still
    make its own class, with each field holding what that class's dataclass would hold."""
    classes = [
        cls
        for cls in vars(t).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == t.__name__
    ]
    assert len(classes) > 40
    for cls in classes:
        every = dataclasses.fields(cls)
        given = [f"{cls.__name__}.{f.name}" for f in every if f.init]  # a value no other has
        made = direct_constructor(cls)(*given)
        expected = iter(given)
        assert type(made) is cls
        assert made.__class__.__name__ == direct_constructor(cls).__name__
        for f in every:
            assert getattr(made, f.name) == (next(expected) if f.init else f.default), (cls, f)
