"""Quick fixes: each removes the diagnostic it is for and adds none, checked by re-checking.

The first half works on the fixes as data (no server); the second asks a running server
as VS Code (push diagnostics, UTF-16) and as Neovim 0.11 (pull diagnostics, UTF-8).
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from records import apply_edits as apply_client_edits
from records import column as client_column

from mtgr.check import Diagnostic, check_text
from mtgr.server.features.code_actions import apply_edits, fixes
from mtgr.server.session import OpenDocument

ROOT = Path(__file__).resolve().parents[2]

BASE = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"Alice" draw #1 "Æther Vial"
"Alice" draw #2 "Jötun Grunt"
"Alice" draw #3 "Mountain"
"Alice" draw #4 "Dandân"
"Alice" draw #5 "Lightning Bolt"
"Alice" draw #6 "Shock"
"Alice" draw #7 "Gemstone Caverns"
"Bob" draw #8
"Bob" draw #9
"Bob" draw #10
"Bob" draw #11
"Bob" draw #12
"Bob" draw #13
"Bob" draw #14
"Alice" keep
"Bob" keep
turn 1 "Alice"
phase main
#3 play
#3 tap by #3
#5 cast
#5 target "Bob"
#5 resolve
#5 damage 3 -> "Bob"
"Bob" life -3 by #5
"""

# code -> (the faulty lines after BASE, the lines the preferred fix leaves)
CASES: dict[str, tuple[str, str]] = {
    "K333": (
        "#6 cast by #6\n",
        "#6 cast\n",
    ),
    "K332": (
        '#6 cast\n#6 target "Bob"\n#6 choose "2 damage"\n#6 pay {R}\n',
        '#6 cast\n#6 choose "2 damage"\n#6 target "Bob"\n#6 pay {R}\n',
    ),
    "V702": (
        '#20 new hidden library "Bob" top 1\n#20 identify "Lightning Bolt" by #5\n'
        "#20 move library -> exile by #5\n",
        '#20 new card "Lightning Bolt" library "Bob" top 1\n#20 move library -> exile by #5\n',
    ),
    "P505": (
        "#7 move hand -> battlefield by #7\n#2 cast\n#7 counters +1 luck by #7\n",
        "#7 move hand -> battlefield by #7\n#7 counters +1 luck by #7\n#2 cast\n",
    ),
    "D801": (
        '#6 cast\n#6 target "Bob"\n#6 resolve\n#6 damage 2 -> "Bob"\n#2 cast\n',
        '#6 cast\n#6 target "Bob"\n#6 resolve\n#6 damage 2 -> "Bob"\n'
        '"Bob" life -2 by #6\n#2 cast\n',
    ),
    "V701": ('#9 "Duress" cast\n#9 resolve\n', '#8 "Duress" cast\n#8 resolve\n'),
    "N105": ('#2 "Jötun Grunt" cast\n', "#2 cast\n"),
    "N107": (
        '#4 move hand -> graveyard "Alice" as discard by "Alice"\n',
        '#4 move hand -> graveyard as discard by "Alice"\n',
    ),
    "R601": (
        '#30 new card "Rest in Peace" battlefield "Alice"\n'
        '#30 effect "exile instead" until leaves\n'
        '#4 move hand -> exile as discard by "Alice"\n',
        '#30 new card "Rest in Peace" battlefield "Alice"\n'
        '#30 effect "exile instead" until leaves\n'
        '#4 move hand -> exile as discard by "Alice" replacement #30\n',
    ),
}
MORE = {
    "V702 name on the move": (
        '#20 new hidden library "Bob" top 1\n#20 "Lightning Bolt" move library -> exile by #5\n'
    ),
    "V702 name on a draw": '#20 new hidden library "Alice" top 1\n"Alice" draw #20 "Opt" by #5\n',
    "N105 identify": '#2 identify "Jötun Grunt" by #2\n',
    "N107 search": '"Alice" search library "Alice" by #1 // looking\n',
    "D801 planeswalker": (
        '#31 new card "Jace Beleren" battlefield "Bob"\n#31 counters +3 loyalty by #31\n'
        "#6 cast\n#6 target #31\n#6 resolve\n#6 damage 2 -> #31\n#2 cast\n"
    ),
    "P505 after other counters": (
        "#7 move hand -> battlefield by #7\n#7 counters +1 luck by #7\n#2 cast\n"
        "#7 counters +1 charge by #7  // allow N103\n"
    ),
}


def _document(text: str) -> OpenDocument:
    return OpenDocument("file:///tmp/fix.mtgr", text, 1, types.PositionEncodingKind.Utf32)


def _assert_fixed(text: str, diagnostic: Diagnostic, fixed: str) -> None:
    before = Counter(d.code for d in check_text(text))
    after = Counter(d.code for d in check_text(fixed))
    assert after[diagnostic.code] < before[diagnostic.code], (diagnostic, fixed)
    if diagnostic.code == "S001":
        # a line that did not parse was not checked: once it parses, the checker reads it,
        # and what it finds there is news about that line, not a fault of the fix
        elsewhere = [d for d in check_text(fixed) if d.line != diagnostic.line]
        after = Counter(d.code for d in elsewhere)
    assert not after - before, (diagnostic, fixed, after - before)


def _all_fixes_hold(text: str) -> int:
    count = 0
    for diagnostic in check_text(text):
        for fix in fixes(_document(text), diagnostic.code, diagnostic.line, diagnostic.span):
            _assert_fixed(text, diagnostic, apply_edits(text, fix.edits))
            count += 1
    return count


def test_the_base_game_is_clean() -> None:
    assert check_text(BASE) == []


@pytest.mark.parametrize("code", sorted(CASES))
def test_preferred_fix_gives_the_expected_lines(code: str) -> None:
    faulty, expected = CASES[code]
    text = BASE + faulty
    found = [d for d in check_text(text) if d.code == code]
    assert len(found) == 1, check_text(text)
    offered = fixes(_document(text), code, found[0].line, found[0].span)
    preferred = [f for f in offered if f.preferred]
    assert len(preferred) == 1, offered
    assert apply_edits(text, preferred[0].edits) == BASE + expected
    assert check_text(BASE + expected) == []
    assert offered[-1].title.startswith(f"Silence {code}")


@pytest.mark.parametrize("name", sorted(CASES) + sorted(MORE))
def test_every_fix_removes_its_diagnostic_and_adds_none(name: str) -> None:
    faulty = CASES[name][0] if name in CASES else MORE[name]
    assert name.split()[0] in {d.code for d in check_text(BASE + faulty)}
    assert _all_fixes_hold(BASE + faulty) >= 2


def test_d801_moves_a_result_written_too_late_rather_than_adding_another() -> None:
    late = (
        '#6 cast\n#6 target "Bob"\n#6 resolve\n#6 damage 2 -> "Bob"\n#2 cast\n"Bob" life -2 by #6\n'
    )
    text = BASE + late
    found = [d for d in check_text(text) if d.code == "D801"]
    assert len(found) == 1
    offered = fixes(_document(text), "D801", found[0].line, found[0].span)
    assert offered[0].title.startswith('Move `"Bob" life -2 by #6`')
    assert apply_edits(text, offered[0].edits) == BASE + CASES["D801"][1]
    _assert_fixed(text, found[0], apply_edits(text, offered[0].edits))


def test_a_misspelt_word_is_fixed_to_the_closest_word_the_grammar_takes() -> None:
    typos = {
        "#6 cats\n": "#6 cast\n",
        "#2 move hand -> graveyrd as discard by #1\n": "#2 move hand -> graveyard as discard by #1\n",
        "#1 cast from graveyard flashbak\n": "#1 cast from graveyard flashback\n",
        "step declare-atackers\n": "step declare-attackers\n",
    }
    for typo, expected in typos.items():
        text = BASE + typo
        (found,) = [d for d in check_text(text) if d.code == "S001"]
        offered = fixes(_document(text), "S001", found.line, found.span)
        assert [f.preferred for f in offered] == [True], offered
        assert apply_edits(text, offered[0].edits) == BASE + expected
    nothing_close = BASE + "#6 xyzzy\n"
    (found,) = [d for d in check_text(nothing_close) if d.code == "S001"]
    assert fixes(_document(nothing_close), "S001", found.line, found.span) == []


def test_allow_extends_an_existing_list_and_an_existing_comment() -> None:
    text = BASE + '#2 "Jötun Grunt" cast // allow D801\n#4 "Dandân" cast // mine\n'
    for diagnostic in check_text(text):
        offered = fixes(_document(text), diagnostic.code, diagnostic.line, diagnostic.span)
        fixed = apply_edits(text, offered[-1].edits)
        line = fixed.split("\n")[diagnostic.line]
        assert line.endswith(
            (f"// allow D801, {diagnostic.code}", f"// mine; allow {diagnostic.code}")
        )
        _assert_fixed(text, diagnostic, fixed)


def test_fixes_hold_on_the_examples_and_the_case_corpus() -> None:
    paths = sorted((ROOT / "examples").glob("*.mtgr")) + sorted(
        (ROOT / "tests" / "cases").rglob("*.mtgr")
    )
    for path in paths:
        _all_fixes_hold(path.read_text(encoding="utf-8"))


# ---- through the server ----------------------------------------------------------------

URI = "file:///tmp/actions.mtgr"
SERVED = BASE + (
    '#4 "Dandân" move hand -> graveyard "Alice" as discard by "Alice"\n'
    '#6 cast\n#6 target "Bob"\n#6 resolve\n#6 damage 2 -> "Bob"\n#2 cast\n'
)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
    params=["visual-studio-code", "neovim@0.11"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities(request.param))
    )
    lsp_client.encoding = result.capabilities.position_encoding or "utf-16"  # type: ignore[attr-defined]
    assert result.capabilities.code_action_provider is not None
    yield
    await lsp_client.shutdown_session()


def _edits(action: types.CodeAction) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        change = action.edit.document_changes[0]
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == URI and change.text_document.version == 1
        return list(change.edits)  # type: ignore[arg-type]
    assert action.edit.changes is not None
    return action.edit.changes[URI]


async def _diagnostics(client: LanguageClient) -> list[types.Diagnostic]:
    text_document = client.capabilities.text_document if client.capabilities else None
    if text_document and text_document.diagnostic:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return list(report.items)
    await asyncio.wait_for(
        client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=30
    )
    return list(client.diagnostics[URI])


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fixes_through_the_server(client: LanguageClient) -> None:
    encoding = client.encoding  # type: ignore[attr-defined]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="mtgr", version=1, text=SERVED
            )
        )
    )
    diagnostics = await _diagnostics(client)
    assert sorted(d.code for d in diagnostics) == ["D801", "N105", "N107"]  # type: ignore[type-var]
    line_of = {d.code: d.range.start.line for d in diagnostics}
    # N107's "Alice" stands after "Dandân": its range is in the client's units
    n107 = next(d for d in diagnostics if d.code == "N107")
    line = SERVED.split("\n")[n107.range.start.line]
    column = line.index('"Alice"')
    assert client_column(line, n107.range.start.character, encoding) == column
    expected = {
        "N105": '#4 move hand -> graveyard "Alice" as discard by "Alice"',
        "N107": '#4 "Dandân" move hand -> graveyard as discard by "Alice"',
        "D801": '#6 damage 2 -> "Bob"\n"Bob" life -2 by #6',
    }
    for diagnostic in diagnostics:
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=URI),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        )
        assert actions is not None
        assert all(isinstance(a, types.CodeAction) for a in actions)
        preferred = [a for a in actions if isinstance(a, types.CodeAction) and a.is_preferred]
        assert len(preferred) == 1
        assert preferred[0].kind == types.CodeActionKind.QuickFix
        fixed = apply_client_edits(SERVED, _edits(preferred[0]), encoding)
        assert expected[str(diagnostic.code)] in fixed
        assert str(diagnostic.code) not in {d.code for d in check_text(fixed)}
        silence = actions[-1]
        assert isinstance(silence, types.CodeAction)
        silenced = apply_client_edits(SERVED, _edits(silence), encoding).split("\n")[
            line_of[diagnostic.code]
        ]
        assert silenced.endswith(f" // allow {diagnostic.code}")


@pytest.mark.asyncio(loop_scope="module")
async def test_no_actions_for_stale_diagnostics_or_other_kinds(client: LanguageClient) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=URI, language_id="mtgr", version=1, text=SERVED
            )
        )
    )
    diagnostics = await _diagnostics(client)
    moved = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=4)
        ),
        message="gone",
        code=diagnostics[0].code,
        source="mtgr",
    )
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=moved.range,
            context=types.CodeActionContext(diagnostics=[moved]),
        )
    )
    assert actions is not None and list(actions) == []
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=diagnostics[0].range,
            context=types.CodeActionContext(
                diagnostics=diagnostics, only=[types.CodeActionKind.Refactor]
            ),
        )
    )
    assert actions is not None and list(actions) == []


# ---- property: any fix on any mutation of a game keeps the promise ----------------------

ALL_LINES = (BASE + "".join(faulty for faulty, _ in CASES.values())).splitlines()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["delete", "duplicate", "swap", "insert"]),
            st.integers(min_value=0, max_value=len(ALL_LINES) - 1),
            st.sampled_from(ALL_LINES),
        ),
        max_size=4,
    )
)
def test_fixes_on_mutated_games_remove_their_diagnostic_and_add_none(
    mutations: list[tuple[str, int, str]],
) -> None:
    lines = list(ALL_LINES)
    for action, index, other in mutations:
        index %= len(lines)
        if action == "delete" and len(lines) > 1:
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        elif action == "insert":
            lines.insert(index, other)
    _all_fixes_hold("\n".join(lines) + "\n")
