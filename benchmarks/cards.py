"""The card index on a generated Scryfall-format file of 35,000 cards (about the number of
Magic cards there are): import, opening (what it adds to server start), memory, lookup,
and card-name completion as the server computes it. Writes the "Card index" section of
docs/benchmarks.md (the rest of the page is benchmarks/run.py's).

    python -m benchmarks.cards [--cards 35000] [--out docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mtgr.cards.store import build_index, open_index
from mtgr.server.features.completion import complete
from mtgr.server.session import OpenDocument

ROOT = Path(__file__).resolve().parents[1]
HEADING = "## Card index"
SEED = 11

_FIRST = [
    "Aether",
    "Blood",
    "Bone",
    "Dusk",
    "Ember",
    "Frost",
    "Gilded",
    "Grim",
    "Hollow",
    "Iron",
    "Jade",
    "Kindled",
    "Lunar",
    "Mire",
    "Night",
    "Onyx",
    "Pale",
    "Quiet",
    "Rune",
    "Storm",
    "Thorn",
    "Umbral",
    "Vast",
    "Wild",
    "Ashen",
    "Brazen",
    "Crimson",
]
_SECOND = [
    "Angel",
    "Bolt",
    "Charm",
    "Drake",
    "Elemental",
    "Familiar",
    "Golem",
    "Herald",
    "Imp",
    "Jackal",
    "Knight",
    "Lancer",
    "Mage",
    "Nomad",
    "Oracle",
    "Pilgrim",
    "Quester",
    "Raptor",
    "Sphinx",
    "Titan",
    "Urchin",
    "Vanguard",
    "Warden",
    "Wurm",
    "Zealot",
]
_THIRD = [
    "of the Vale",
    "of Ruin",
    "of Embers",
    "of the Deep",
    "of Whispers",
    "of Tides",
    "Reborn",
    "Ascendant",
    "Unbound",
    "of the Wilds",
    "of Thorns",
    "Eternal",
]
_TYPES = [
    "Creature — Human Wizard",
    "Instant",
    "Sorcery",
    "Artifact",
    "Enchantment",
    "Land",
    "Legendary Creature — Dragon",
    "Legendary Planeswalker — Nissa",
]


def generated_cards(count: int, seed: int = SEED) -> list[dict[str, object]]:
    """Scryfall oracle_cards objects with made-up unique names; one in twenty has two faces."""
    rng = random.Random(seed)
    names: set[str] = set()
    cards: list[dict[str, object]] = []
    while len(cards) < count:
        name = f"{rng.choice(_FIRST)} {rng.choice(_SECOND)}"
        if rng.random() < 0.8:
            name += f" {rng.choice(_THIRD)}"
        if rng.random() < 0.5:
            name += f" {rng.randint(1, 999)}"
        if name in names:
            continue
        names.add(name)
        type_line = rng.choice(_TYPES)
        card: dict[str, object] = {
            "object": "card",
            "name": name,
            "layout": "normal",
            "mana_cost": "{" + str(rng.randint(1, 6)) + "}{G}",
            "type_line": type_line,
            "oracle_text": f"When {name} enters, draw a card.\nFlying, vigilance",
            "keywords": ["Flying", "Vigilance"],
            "scryfall_uri": f"https://scryfall.com/search?q=%21%22{name.replace(' ', '%20')}%22",
        }
        card.update(_scryfall_fields(rng, len(cards)))
        if "Creature" in type_line:
            card["power"], card["toughness"] = "2", "3"
        if "Planeswalker" in type_line:
            card["loyalty"] = "4"
        if rng.random() < 0.05:
            back = f"{name} Transformed"
            card["name"] = f"{name} // {back}"
            card["layout"] = "transform"
            card["card_faces"] = [
                {
                    "object": "card_face",
                    "name": name,
                    "mana_cost": "{1}{U}",
                    "type_line": type_line,
                    "oracle_text": "Transform at dawn.",
                },
                {
                    "object": "card_face",
                    "name": back,
                    "mana_cost": "",
                    "type_line": type_line,
                    "oracle_text": "Flying",
                },
            ]
        cards.append(card)
    return cards


_FORMATS = [
    "standard",
    "future",
    "historic",
    "timeless",
    "gladiator",
    "pioneer",
    "explorer",
    "modern",
    "legacy",
    "pauper",
    "vintage",
    "penny",
    "commander",
    "oathbreaker",
    "standardbrawl",
    "brawl",
    "alchemy",
    "paupercommander",
    "duel",
    "oldschool",
    "premodern",
    "predh",
]


def _scryfall_fields(rng: random.Random, number: int) -> dict[str, object]:
    """The other fields of a Scryfall card object (ids, images, legalities, prices, links),
    which an import reads and leaves out."""
    uid = f"{number:08x}-{rng.getrandbits(16):04x}-4000-8000-{rng.getrandbits(48):012x}"
    image = f"https://cards.scryfall.io/normal/front/{uid[0]}/{uid[1]}/{uid}.jpg?1700000000"
    return {
        "id": uid,
        "oracle_id": uid[::-1],
        "multiverse_ids": [rng.randint(1, 600000)],
        "uri": f"https://api.scryfall.com/cards/{uid}",
        "image_uris": {
            size: image.replace("normal", size)
            for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
        },
        "legalities": {name: rng.choice(("legal", "not_legal", "banned")) for name in _FORMATS},
        "games": ["paper", "mtgo", "arena"],
        "set": "abc",
        "set_name": "A Generated Set",
        "collector_number": str(number),
        "rarity": rng.choice(("common", "uncommon", "rare", "mythic")),
        "artist": "A. N. Artist",
        "prices": {
            "usd": f"{rng.random() * 20:.2f}",
            "usd_foil": None,
            "eur": f"{rng.random() * 20:.2f}",
            "tix": "0.03",
        },
        "related_uris": {
            "gatherer": f"https://gatherer.wizards.com/Pages/Card/Details.aspx?multiverseid={number}",
            "edhrec": f"https://edhrec.com/route/?cc={uid}",
        },
        "purchase_uris": {
            shop: f"https://{shop}.example/{uid}"
            for shop in ("tcgplayer", "cardmarket", "cardhoarder")
        },
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def typed_texts(names: list[str], rng: random.Random, count: int) -> list[str]:
    """What a user has typed of a name: 1 to 12 characters, one in five with a typo."""
    texts = []
    for _ in range(count):
        name = rng.choice(names)
        typed = name[: rng.randint(1, min(12, len(name)))]
        if len(typed) > 4 and rng.random() < 0.2:
            i = rng.randint(1, len(typed) - 2)
            typed = typed[:i] + typed[i + 1] + typed[i] + typed[i + 2 :]
        texts.append(typed)
    return texts


RECORD = """\
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
perspective "Alice"
"Alice" roll d20 17
"Bob" roll d20 3
start "Alice" by "Alice"
"""


def memory_after_open(index: Path) -> tuple[float, float]:
    """In a fresh process with the server's modules loaded: MB of resident memory that
    opening the index adds, and that everything its searches build adds."""
    script = f"""
import mtgr.server.app, mtgr.server.features
from mtgr.rules.registry import all_rules
from mtgr.cards.store import open_index
from pathlib import Path
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
all_rules()
before = rss()
index = open_index(Path({str(index)!r}))
index.lookup('x')
opened = rss()
index.search('a', 50)
index.search('zq xv', 50)  # word starts, then one typo away
index.close_names('Qwertz Uiop', 3)  # the letter pairs of "did you mean"
print(opened - before, rss() - before)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    opened, searched = (float(x) for x in out.stdout.split())
    return opened, searched


def run(count: int, out: Path) -> list[tuple[str, str, str, str]]:
    rng = random.Random(SEED)
    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "oracle-cards.json", Path(folder) / "cards.sqlite3"
        cards = generated_cards(count)
        source.write_text(json.dumps(cards), encoding="utf-8")
        started = time.perf_counter()
        build_index(source, target)
        took = time.perf_counter() - started
        size = f"{source.stat().st_size / 1e6:.0f} MB of JSON → {target.stat().st_size / 1e6:.0f} MB index"
        rows.append((f"import, {count:,} cards", f"{took:.1f} s", "", size))
        opens = []
        for _ in range(20):
            started = time.perf_counter()
            index = open_index(target)
            index.lookup("Lightning Bolt")
            opens.append(time.perf_counter() - started)
            index.close()
        rows.append(
            (
                "open the index (added to server start), median",
                ms(statistics.median(opens)),
                "≤ 100 ms",
                "open and a first lookup, 20 runs",
            )
        )
        index = open_index(target)
        started = time.perf_counter()
        index.search("a", 50)
        rows.append(
            (
                "first completion (reads the names)",
                ms(time.perf_counter() - started),
                "",
                "once a server",
            )
        )
        opened, searched = memory_after_open(target)
        rows.append(
            (
                "memory, index open and every search table built",
                f"{searched:.0f} MB",
                "≤ 50 MB",
                f"{opened:.0f} MB open; VmRSS in a fresh process",
            )
        )
        names = [str(card["name"]) for card in cards]
        lookups = []
        for name in rng.sample(names, 2000):
            spelled = name.lower() if rng.random() < 0.5 else name
            started = time.perf_counter()
            index.lookup(spelled)
            lookups.append(time.perf_counter() - started)
        rows.append(
            (
                "lookup by name, p95",
                us(percentile(lookups, 0.95)),
                "",
                f"median {us(statistics.median(lookups))}; 2,000 names, first lookup of each",
            )
        )
        document = OpenDocument("file:///bench.mtgr", RECORD, 1, "utf-16", True, index)
        completions, cpu = [], []
        for typed in typed_texts(names, rng, 1000):
            line_text = f'"Alice" draw #1 "{typed}'
            document.change([_whole(RECORD + line_text)], None)
            started, started_cpu = time.perf_counter(), time.process_time()
            complete(document, 7, len(line_text))
            completions.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        rows.append(
            (
                "card-name completion, p95",
                ms(percentile(completions, 0.95)),
                "≤ 20 ms",
                f"median {ms(statistics.median(completions))}; CPU time p95 {ms(percentile(cpu, 0.95))}; "
                "1,000 typed starts of names, one in five misspelt; the server's `complete`",
            )
        )
    write_section(out, rows, count)
    return rows


def _whole(text: str):
    from lsprotocol import types

    return types.TextDocumentContentChangeWholeDocument(text=text)


def section(rows: list[tuple[str, str, str, str]], count: int) -> str:
    lines = [
        HEADING,
        "",
        "Written by `python -m benchmarks.cards` (also run by `scripts/benchmark`): a generated",
        f"Scryfall-format file of {count:,} cards (seed {SEED}; with the other fields of a Scryfall",
        "card: ids, images, legalities, prices), imported, opened and searched in process; memory in a fresh process that has loaded the server. Run on",
        f"{time.strftime('%Y-%m-%d')} with load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:",
        "wall-clock figures include waiting for a core, CPU time does not.",
        "",
        "| measure | result | target | notes |",
        "| --- | --- | --- | --- |",
        *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows),
    ]
    return "\n".join(lines) + "\n"


def kept_section(out: Path) -> str:
    """This section as the page has it, for benchmarks/run.py to keep when it rewrites the rest."""
    text = out.read_text(encoding="utf-8") if out.is_file() else ""
    start = text.find(f"\n{HEADING}\n")
    return text[start:] if start >= 0 else ""


def write_section(out: Path, rows: list[tuple[str, str, str, str]], count: int) -> None:
    text = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n"
    start = text.find(f"\n{HEADING}\n")
    head = text[:start] if start >= 0 else text
    following = text.find("\n## ", start + len(HEADING) + 2) if start >= 0 else -1
    rest = text[following:] if following >= 0 else ""  # later sections (benchmarks/memory.py)
    out.write_text(head.rstrip("\n") + "\n\n" + section(rows, count) + rest, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=35_000)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()
    for row in run(args.cards, args.out):
        print(" | ".join(row))


if __name__ == "__main__":
    main()
