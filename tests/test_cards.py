"""The card index: reading Scryfall bulk data and MTGJSON AtomicCards.json, names matched as
players write them, search, replacing the index atomically, `mtgr cards update` against a
local HTTP server (a complete and an interrupted download), and the command line."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mtgr.cards.download import update
from mtgr.cards.formats import CHUNK, CardFileError
from mtgr.cards.names import name_key
from mtgr.cards.store import build_index, default_index_path, open_index
from mtgr.cli.main import main

CARDS = Path(__file__).parent / "cards"
SCRYFALL = CARDS / "scryfall-oracle-cards.json"
ATOMIC = CARDS / "AtomicCards.json"
FIXTURE_COUNT = len(json.loads(SCRYFALL.read_text(encoding="utf-8")))


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder, where platformdirs puts the default index, made empty."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


# ---- names and lookups --------------------------------------------------------------------


def test_name_keys_ignore_case_accents_ligatures_and_curly_apostrophes() -> None:
    assert name_key("Æther Vial") == name_key("aether vial") == name_key("AETHER  VIAL")
    assert name_key("Dandân") == name_key("Dandan")
    assert name_key("Mishra\u2019s Bauble") == name_key("mishra's bauble")
    assert name_key("Lightning Bolt") != name_key("Lightning Helix")


@pytest.mark.parametrize("source", [SCRYFALL, ATOMIC], ids=["scryfall", "mtgjson"])
def test_both_formats_find_cards_by_any_spelling_and_either_face(source: Path) -> None:
    index = open_index(source)
    bolt = index.lookup("lightning bolt")
    assert bolt is not None and bolt.front.type_line == "Instant"
    assert index.lookup("Aether Vial") is index.lookup("Æther Vial") is not None
    for name in (
        "Delver of Secrets // Insectile Aberration",
        "Delver of Secrets",
        "insectile aberration",
    ):
        delver = index.lookup(name)
        assert delver is not None and delver.name == "Delver of Secrets // Insectile Aberration"
    assert [f.power for f in delver.faces] == ["1", "3"]
    fire = index.lookup("Ice")
    assert fire is not None and fire.layout == "split" and fire.every_face_has_type("Instant")
    liliana = index.lookup("Liliana of the Veil")
    assert liliana is not None and liliana.front.loyalty == "3"
    assert "Legendary" in liliana.front.types() and "Planeswalker" in liliana.front.types()
    guide = index.lookup("Goblin Guide")
    assert guide is not None and guide.has_keyword("haste")
    assert index.lookup("Lightnig Bolt") is None


def test_search_offers_prefixes_then_word_starts_then_misspelt_starts() -> None:
    index = open_index(SCRYFALL)
    assert index.search("Lightning", 10)[:3] == [
        "Lightning Bolt",
        "Lightning Greaves",
        "Lightning Helix",
    ]
    assert "Burst Lightning" in index.search("lightning", 10)
    assert "Lightning Bolt" in index.search("lig bo", 10)
    assert "Lightning Bolt" in index.search("Ligthning", 10)
    assert "Delver of Secrets" in index.search("delver", 10)
    assert len(index.search("", 5)) == 5
    assert index.close_names("Lightnig Bolt", 3) == ["Lightning Bolt"]
    assert index.close_names("Aether Vail", 3) == ["Æther Vial"]
    assert index.close_names("Qwxyz Zyxwq", 3) == []


def test_every_card_name_of_the_examples_and_cases_is_in_the_fixture() -> None:
    from mtgr.rules.checks.a101_unknown_card_name import card_names
    from mtgr.syntax.document import Document
    from mtgr.syntax.markdown import mtgr_blocks

    root = Path(__file__).parents[1]
    index = open_index(SCRYFALL)
    paths = [*(root / "examples").iterdir(), *(root / "tests" / "cases").rglob("*.mtgr")]
    unknown = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        text = mtgr_blocks(text) if path.suffix == ".md" else text
        for line in Document(text).lines:
            statement = line.parsed.statement
            for name in card_names(statement) if statement is not None else ():
                if index.lookup(name.value) is None:
                    unknown.add((path.name, name.value))
    # the one deliberate misspelling of the case corpus, and two cards of a set newer than
    # the index (the card-aware checks stay silent about what they may do)
    assert unknown == {
        ("a101-misspelt-card-names.mtgr", "Lightnig Bolt"),
        ("a101-misspelt-card-names.mtgr", "Aether Vail"),
        ("a104-a-permanent-the-index-does-not-know-may-give-haste.mtgr", "Fervor"),
        ("a108-a-permanent-the-index-does-not-know-may-raise-toughness.mtgr", "Gaea's Anthem"),
    }


# ---- building, and files that cannot be read --------------------------------------------


def test_an_index_file_is_built_and_read_back(tmp_path: Path) -> None:
    target = tmp_path / "cards.sqlite3"
    assert build_index(SCRYFALL, target) == FIXTURE_COUNT
    index = open_index(target)
    assert index.count == FIXTURE_COUNT
    assert index.lookup("Thoughtseize") is not None


def test_printings_of_one_card_count_once_and_a_long_file_is_read_in_pieces(tmp_path: Path) -> None:
    """default_cards and all_cards hold a card once a printing; the file is far larger than
    one read."""
    card = json.loads(SCRYFALL.read_text(encoding="utf-8"))[0]
    printings = [dict(card, collector_number=str(i), flavor_text="x" * 200) for i in range(12000)]
    source = tmp_path / "all-cards.json"
    source.write_text(json.dumps(printings), encoding="utf-8")
    assert source.stat().st_size > 2 * CHUNK
    assert build_index(source, tmp_path / "cards.sqlite3") == 1


BROKEN = {
    "truncated": lambda text: text[: len(text) // 2],
    "corrupt": lambda text: text.replace('"name"', '"name" "', 1),
    "empty": lambda text: "",
    "not json": lambda text: "name,mana_cost\nLightning Bolt,{R}\n",
    "no cards": lambda text: "[]",
    "a json object without data": lambda text: '{"meta": {}}',
    "an array of other things": lambda text: '[{"object": "set", "name": "Alpha"}]',
}


@pytest.mark.parametrize("breakage", BROKEN, ids=list(BROKEN))
def test_a_file_that_cannot_be_read_is_an_error_and_keeps_the_previous_index(
    tmp_path: Path, breakage: str
) -> None:
    target = tmp_path / "cards.sqlite3"
    build_index(ATOMIC, target)
    before = target.read_bytes()
    source = tmp_path / "broken.json"
    source.write_text(BROKEN[breakage](SCRYFALL.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(CardFileError) as raised:
        build_index(source, target)
    assert str(source) in str(raised.value)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.json", "cards.sqlite3"]
    assert open_index(target).lookup("Fire // Ice") is not None


def test_a_sqlite_file_that_is_not_a_card_index_is_refused(tmp_path: Path) -> None:
    import sqlite3

    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    with pytest.raises(CardFileError, match="not an mtgr card index"):
        open_index(other)


# ---- mtgr cards update against a local server -----------------------------------------------


class _Bulk(BaseHTTPRequestHandler):
    payload = SCRYFALL.read_bytes()
    cut_short = False

    def do_GET(self) -> None:
        host = f"http://{self.server.server_address[0]}:{self.server.server_address[1]}"
        if self.path == "/bulk-data/oracle-cards":
            body = json.dumps(
                {
                    "object": "bulk_data",
                    "type": "oracle_cards",
                    "download_uri": f"{host}/file/oracle-cards.json",
                    "content_type": "application/json",
                }
            ).encode()
            self._send(body, len(body))
        elif self.path == "/file/oracle-cards.json":
            body = self.payload[: len(self.payload) // 3] if self.cut_short else self.payload
            self._send(body, len(self.payload))
        else:
            self.send_error(404)

    def _send(self, body: bytes, length: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def bulk_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Bulk)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/bulk-data/oracle-cards"
    server.shutdown()
    server.server_close()
    _Bulk.cut_short = False


def test_update_downloads_the_file_the_bulk_data_api_names(
    tmp_path: Path, bulk_server: str
) -> None:
    target = tmp_path / "cards.sqlite3"
    progress: list[tuple[int, int | None]] = []
    assert update(target, api=bulk_server, progress=lambda *p: progress.append(p)) == FIXTURE_COUNT
    assert progress[-1] == (len(_Bulk.payload), len(_Bulk.payload))
    assert open_index(target).lookup("Goblin Guide") is not None
    assert [p.name for p in tmp_path.iterdir()] == ["cards.sqlite3"]


def test_an_interrupted_download_is_an_error_and_keeps_the_previous_index(
    tmp_path: Path, bulk_server: str
) -> None:
    target = tmp_path / "cards.sqlite3"
    build_index(ATOMIC, target)
    before = target.read_bytes()
    _Bulk.cut_short = True
    with pytest.raises(CardFileError, match="previous index is kept"):
        update(target, api=bulk_server)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.sqlite3"]


def test_cards_update_shows_progress_and_fills_the_default_index(
    bulk_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "update", "--api", bulk_server]) == 0
    captured = capsys.readouterr()
    assert f"{len(_Bulk.payload) / 1e6:.1f}/{len(_Bulk.payload) / 1e6:.1f} MB" in captured.err
    assert "100%" in captured.err
    assert str(default_index_path()) in captured.out
    assert open_index(default_index_path()).count == FIXTURE_COUNT
    _Bulk.cut_short = True
    assert main(["cards", "update", "--api", bulk_server]) == 2
    assert "previous index is kept" in capsys.readouterr().err
    assert open_index(default_index_path()).count == FIXTURE_COUNT


def test_an_api_that_names_no_file_is_an_error(tmp_path: Path, bulk_server: str) -> None:
    with pytest.raises(CardFileError, match="404"):
        update(tmp_path / "cards.sqlite3", api=bulk_server.replace("oracle-cards", "nothing"))


# ---- the command line ----------------------------------------------------------------------


MISSPELT = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"Alice" draw #1 "Lightnig Bolt"
"""


def test_check_warns_on_a_misspelt_name_with_an_index_and_says_nothing_without(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.mtgr"
    record.write_text(MISSPELT, encoding="utf-8")
    assert main(["check", str(record)]) == 0
    assert capsys.readouterr().out == ""
    for cards in (str(SCRYFALL), str(ATOMIC)):
        assert main(["check", "--cards", cards, "--format", "json", str(record)]) == 0
        [found] = json.loads(capsys.readouterr().out)
        assert (found["code"], found["line"], found["severity"]) == ("A101", 8, "warning")
        assert "Lightning Bolt" in found["message"]


def test_cards_import_where_show_and_the_default_index(
    tmp_path: Path, data_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "where"]) == 0
    assert str(data_folder) in capsys.readouterr().out
    assert not default_index_path().exists()
    assert main(["cards", "import", str(SCRYFALL)]) == 0
    assert default_index_path().is_relative_to(data_folder) and default_index_path().is_file()
    assert main(["cards", "show", "aether vial"]) == 0
    shown = capsys.readouterr().out
    assert "Æther Vial  {1}" in shown and "Artifact" in shown and "scryfall.com" in shown
    assert main(["cards", "show", "Lightnig Bolt"]) == 1
    assert "Lightning Bolt" in capsys.readouterr().err
    record = tmp_path / "game.mtgr"
    record.write_text(MISSPELT, encoding="utf-8")
    assert main(["check", str(record)]) == 0  # the default index, now that there is one
    assert "A101" in capsys.readouterr().out
    index = tmp_path / "elsewhere.sqlite3"
    build_index(ATOMIC, index)
    assert main(["check", "--cards", str(index), "--format", "json", str(record)]) == 0
    assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["A101"]


def test_a_broken_cards_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[{", encoding="utf-8")
    record = tmp_path / "game.mtgr"
    record.write_text(MISSPELT, encoding="utf-8")
    assert main(["check", "--cards", str(broken), str(record)]) == 2
    assert "ends early" in capsys.readouterr().err
    assert main(["cards", "import", str(broken)]) == 2
    assert not default_index_path().exists()


def test_without_sqlite_the_index_is_a_clear_error_and_the_checker_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "sqlite3", None)  # `import sqlite3` raises
    with pytest.raises(CardFileError, match="no sqlite3 module"):
        open_index(SCRYFALL)
    record = tmp_path / "game.mtgr"
    record.write_text(MISSPELT, encoding="utf-8")
    assert main(["check", str(record)]) == 0
    assert main(["check", "--cards", str(SCRYFALL), str(record)]) == 2
    assert "no sqlite3 module" in capsys.readouterr().err


def test_the_settings_file_names_the_cards_file_relative_to_itself(
    tmp_path: Path, data_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cards-file` in mtgr.toml, relative to its folder, for the files below it only;
    `--cards` overrides it."""
    project = tmp_path / "project"
    (project / "cards").mkdir(parents=True)
    (project / "cards" / "oracle.json").write_bytes(SCRYFALL.read_bytes())
    (project / "mtgr.toml").write_text('cards-file = "cards/oracle.json"\n', encoding="utf-8")
    (project / "games").mkdir()
    inside = project / "games" / "game.mtgr"
    outside = tmp_path / "game.mtgr"
    for record in (inside, outside):
        record.write_text(MISSPELT, encoding="utf-8")
    assert main(["check", "--format", "json", str(inside), str(outside)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(Path(d["path"]), d["code"], d["line"]) for d in found] == [(inside, "A101", 8)]
    broken = tmp_path / "broken.json"
    broken.write_text("[{", encoding="utf-8")
    assert main(["check", "--cards", str(broken), str(inside)]) == 2
    (project / "mtgr.toml").write_text('cards-file = "missing.json"\n', encoding="utf-8")
    assert main(["check", str(inside)]) == 2
    assert "missing.json" in capsys.readouterr().err
