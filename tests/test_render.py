"""`mtgr render`: the board after a line in HTML, SVG and text, the replay page, and the
errors for bad input (exit 2, nothing written)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from benchmarks.generate import generate

from mtgr.cli.main import main
from mtgr.render.record import Record
from mtgr.render.text import WIDTH, render_text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.mtgr"))
RAGAVAN = ROOT / "examples" / "ragavan-dash.mtgr"
SVG = "{http://www.w3.org/2000/svg}"


def render(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["render", *argv]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def line_70() -> int:
    """The position of the issue's example: Expressive Iteration just cast (line 70)."""
    lines = RAGAVAN.read_text(encoding="utf-8").splitlines()
    assert lines[69] == "#7 cast"
    assert any(line.startswith('"Alice" draw #7 "Expressive Iteration"') for line in lines[:69])
    return 70


class Elements(HTMLParser):
    """Each element's attributes and the text inside it, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str], list[str]]] = []
        self.open: list[tuple[str, dict[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = (tag, {k: v or "" for k, v in attrs}, [])
        self.found.append(element)
        if tag not in ("meta", "input", "br", "img"):
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element[2].append(data)

    def select(self, cls: str, **attrs: str) -> list[tuple[dict[str, str], str]]:
        return [
            (a, "".join(text))
            for _, a, text in self.found
            if cls in a.get("class", "").split() and all(a.get(k) == v for k, v in attrs.items())
        ]


def parse_html(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    parser.close()
    return parser


def test_html_board_at_line_70(capsys: pytest.CaptureFixture[str], line_70: int) -> None:
    page = render(capsys, f"{RAGAVAN}:{line_70}", "--format", "html")
    assert "http://" not in page and "https://" not in page  # self-contained
    assert "prefers-color-scheme: dark" in page
    html = parse_html(page)
    [(_, alice)] = html.select("player", **{"data-player": "Alice"})
    [(_, bob)] = html.select("player", **{"data-player": "Bob"})
    tapped = [text for a, text in html.select("tapped") if "card" in a["class"]]
    assert any("Dragon's Rage Channeler" in text for text in tapped)
    assert "Dragon's Rage Channeler" in alice and "Steam Vents" in alice
    assert "Steam Vents" not in "".join(tapped)
    [(_, life)] = [e for e in html.select("life") if e[1] in alice]
    assert life == "17"
    [(_, stack)] = html.select("stack")
    assert "Expressive Iteration" in stack
    backs = [a for a, text in html.select("back") if text in bob]
    assert len(backs) == 7
    assert "7 hidden" in bob


def test_svg_board_at_line_70(capsys: pytest.CaptureFixture[str], line_70: int) -> None:
    picture = ET.fromstring(render(capsys, f"{RAGAVAN}:{line_70}", "--format", "svg"))
    players = {g.get("data-player"): g for g in picture.iter(f"{SVG}g") if g.get("data-player")}

    def cards(group: ET.Element) -> dict[str, ET.Element]:
        return {
            "".join(card.find(f"{SVG}title").itertext()): card  # type: ignore[union-attr]
            for card in group.iter(f"{SVG}g")
            if "card" in (card.get("class") or "").split()
        }

    alice, bob = cards(players["Alice"]), cards(players["Bob"])
    channeler = alice["#3 Dragon's Rage Channeler, tapped"]
    assert "tapped" in (channeler.get("class") or "").split()
    assert "rotate(90" in (channeler.get("transform") or "")
    assert "#16 Steam Vents" in alice
    texts = ["".join(t.itertext()) for t in players["Alice"].iter(f"{SVG}text")]
    assert texts[:2] == ["Alice", "17"]
    backs = [c for c in bob.values() if "back" in (c.get("class") or "").split()]
    assert len(backs) == 7
    [stack] = [g for g in picture.iter(f"{SVG}g") if g.get("class") == "stack"]
    assert "#7 Expressive Iteration" in cards(stack)


def test_text_board_at_line_70(capsys: pytest.CaptureFixture[str], line_70: int) -> None:
    text = render(capsys, f"{RAGAVAN}:{line_70}", "--format", "text")
    sections = text.split("-" * WIDTH)
    bob, stack, alice = sections[0], sections[1], sections[2]
    assert re.search(r"^Alice \(.*\)  life 17 ", alice, re.MULTILINE)
    assert "[#3 Dragon's Rage Channeler, tapped]" in alice
    assert "[#16 Steam Vents]" in alice
    assert "Stack (top first):\n  1. [#7 Expressive Iteration]" in stack
    assert "Hand: 7 hidden (#9 #10 #11 #12 #13 #14 #17)" in bob


def test_the_default_is_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    count = len(RAGAVAN.read_text(encoding="utf-8").split("\n"))
    text = render(capsys, str(RAGAVAN), "--format", "text")
    assert f"After line {count} of {count}" in text


def test_text_fits_80_columns_at_every_line_of_every_example() -> None:
    for path in EXAMPLES:
        record = Record.check(path.read_text(encoding="utf-8"))
        for board in record.boards():
            for row in render_text(board).splitlines():
                assert len(row) <= WIDTH, (path.name, board.line.number, row)


def test_the_stack_shows_targets(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "planeswalkers-and-tokens.mtgr"
    lines = path.read_text(encoding="utf-8").splitlines()
    target = lines.index("#12 target #2") + 1
    text = render(capsys, f"{path}:{target}", "--format", "text")
    assert "1. [#12 Lightning Bolt, targets #2 Noble Hierarch]" in text


def test_a_line_with_a_diagnostic_shows_it(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "mistakes.mtgr"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("#17 resolve"))
    html = parse_html(render(capsys, f"{path}:{number}", "--format", "html"))
    [(attrs, text)] = html.select("diagnostic")
    assert "error" in attrs["class"].split()
    assert text.startswith("K301")


def test_the_replay_page_has_every_line(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert main(["render", str(RAGAVAN), "--replay", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    count = len(RAGAVAN.read_text(encoding="utf-8").split("\n"))
    data = re.search(r'<script type="application/json" id="mtgr-replay-data">(.*?)</script>', page)
    assert data is not None
    replay = json.loads(data.group(1))
    assert len(replay["boards"]) == count
    board_70 = "".join(replay["fragments"][i] for i in replay["boards"][69])
    assert "Expressive Iteration" in board_70 and 'class="card tapped"' in board_70
    html = parse_html(page)
    assert html.select("tick") == []  # the example has no diagnostics to mark
    options = {
        "".join(text): attrs["value"]
        for tag, attrs, text in html.found
        if tag == "option" and attrs.get("value")
    }
    lines = RAGAVAN.read_text(encoding="utf-8").splitlines()
    assert options["turn 3 (Alice)"] == str(lines.index('turn 3 "Alice"') + 1)


def test_a_500_line_replay_is_under_2_mb(tmp_path: Path) -> None:
    record = tmp_path / "long.mtgr"
    text = generate(500, seed=3)
    assert text.count("\n") >= 500
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "long.html"
    assert main(["render", str(record), "--replay", "-o", str(out)]) == 0
    assert out.stat().st_size < 2_000_000


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["{record}:999"], "past its end"),
        (["{record}:0"], "line numbers start at 1"),
        (["{other}"], "S001"),
        (["{record}:5", "-o", "{missing}/board.html"], "cannot write"),
        (["{record}:5", "--replay"], "--replay"),
    ],
)
def test_bad_input_is_a_clear_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    record = tmp_path / "game.mtgr"
    record.write_text(RAGAVAN.read_text(encoding="utf-8"), encoding="utf-8")
    other = tmp_path / "notes.txt"
    other.write_text("shopping list\neggs\n", encoding="utf-8")
    places = {"record": record, "other": other, "missing": tmp_path / "missing"}
    argv = [a.format(**places) for a in argv]
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["render", *argv]) == 2
    assert expected in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_failed_render_leaves_an_existing_output_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.html"
    out.write_text("the previous board", encoding="utf-8")
    assert main(["render", f"{RAGAVAN}:9999", "-o", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "the previous board"
    assert main(["render", f"{RAGAVAN}:70", "-o", str(out)]) == 0
    assert "Expressive Iteration" in out.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["board.html"]  # no temporary left


def test_an_unwritable_folder_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    assert main(["render", f"{RAGAVAN}:70", "-o", str(folder)]) == 2
    assert "it is a folder" in capsys.readouterr().err


def test_every_board_of_the_replay_is_the_board_at_that_line() -> None:
    """The replay steps through the record once; a single board starts from the walk's
    nearest checkpoint: both give the same board at every line."""
    for path in EXAMPLES:
        record = Record.check(path.read_text(encoding="utf-8"))
        stepped = list(record.boards())
        assert len(stepped) == len(record.lines)
        for number, board in enumerate(stepped, 1):
            assert board == record.board(number), (path.name, number)


ROWS_RECORD = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective ""
start "Alice" by "Alice"
"Alice" draw #1 "Forest"
"Alice" draw #2 "Llanowar Elves"
"Alice" draw #3 "Grizzly Bears"
"Bob" draw #4 "Island"
"Alice" keep
"Bob" keep
turn 1 "Alice"
phase main
#1 play
#1 tap by #1
#2 cast
#2 pay {G}
#2 resolve -> battlefield
#5 new card "Treasure Vault" battlefield "Alice" by "Alice"
#5 tap by #5
turn 2 "Bob"
turn 3 "Alice"
step untap
#1 untap
#2 untap
#5 untap
phase main
#2 tap by #2
#1 tap by #1
#3 cast
#3 pay {1}{G}
#3 resolve -> battlefield
phase combat
step declare-attackers
#3 attack "Bob"
"""


def test_battlefield_rows_come_from_what_the_record_shows() -> None:
    record = Record.check(ROWS_RECORD)
    lines = ROWS_RECORD.splitlines()

    def rows(line: str) -> dict[str, list[str]]:
        board = record.board(lines.index(line) + 1)
        alice = board.player("Alice")
        assert alice is not None
        return {row.name: [c.label() for c in row.cards] for row in alice.battlefield}

    # played: a land; never cast and tapped by itself: a land; cast and tapping itself
    # for mana is no proof of a land; attacking makes a creature, from that line on
    assert rows("#5 tap by #5") == {
        "lands": ["Forest", "Treasure Vault"],
        "creatures": [],
        "other permanents": ["Llanowar Elves"],
    }
    assert rows("#3 resolve -> battlefield")["other permanents"] == [
        "Llanowar Elves",
        "Grizzly Bears",
    ]
    assert rows('#3 attack "Bob"')["creatures"] == ["Grizzly Bears"]


def test_designations_and_card_halves_reach_the_board() -> None:
    """Decisions 0062 to 0065: a player's designations and an object's halves, flips and
    melds are badges of the board, as every picture draws them."""
    path = ROOT / "examples" / "ring-dungeon-meld-and-card-halves.mtgr"
    lines = path.read_text(encoding="utf-8").splitlines()
    record = Record.check(path.read_text(encoding="utf-8"))
    stomp = record.board(lines.index("#24 cast adventure // Stomp (decision 0064)") + 1)
    [adventure] = [c for c in stomp.stack if c.number == 24]
    assert "Adventure" in adventure.marks
    board = record.board(len(lines))
    alice = board.player("Alice")
    assert alice is not None
    assert {"initiative", "tempted 1", "in Secret Entrance"} <= set(alice.marks)
    permanents = {c.number: c for row in alice.battlefield for c in row.cards}
    assert "melded with #22" in permanents[21].marks
    assert 22 not in permanents


BADGES_RECORD = """mtgr 0.4
player "Alice" deck 40
player "Bob" deck 40
perspective all

incomplete
turn 5 "Alice"
phase main
#1 new card "Hystrodon" battlefield "Alice" face-down
#2 new card "Pacifism" battlefield "Alice" attached #3
#3 new card "Grizzly Bears" battlefield "Bob"
#4 new card "Llanowar Elves" battlefield "Bob"
keyframe
#1 battlefield "Alice" face-down
#2 battlefield "Alice" attached #3
#3 battlefield "Bob"
#4 battlefield "Bob"
end
phase combat
step declare-attackers
#1 attack "Bob"
step declare-blockers
#4 block #1
"""


def test_faces_attachments_and_blocks_are_badges() -> None:
    """A face-down permanent is a 2/2 creature (CR 708.2a) and says so; an Aura names what
    it enchants, a blocker what it blocks."""
    record = Record.check(BADGES_RECORD)
    board = record.board(len(BADGES_RECORD.splitlines()))
    alice, bob = board.player("Alice"), board.player("Bob")
    assert alice is not None and bob is not None
    rows = {row.name: {c.number: c for c in row.cards} for row in alice.battlefield}
    assert "face down" in rows["creatures"][1].marks
    assert "attached to #3 Grizzly Bears" in rows["other permanents"][2].marks
    blockers = {c.number: c for row in bob.battlefield for c in row.cards}
    assert "blocking #1 Hystrodon" in blockers[4].marks
