"""`mtgr cards import|update|show|where`, and the `--cards` option of `mtgr check`.

The card index is optional (docs/ARCHITECTURE.md): `mtgr check` uses the one given with
`--cards`, else the one `mtgr cards import` or `update` left in the user's data folder,
else none, and then the card-aware rules stay silent.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mtgr.cards.formats import CardFileError
from mtgr.cards.model import Card
from mtgr.cards.store import SqliteCardIndex, build_index, default_index_path, open_index
from mtgr.config import Config


def add_option(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--cards",
        metavar="PATH",
        help="a card index, or a Scryfall bulk JSON or MTGJSON AtomicCards.json file "
        "(default: the index `mtgr cards import` made, if any)",
    )


def index_for(path: str | None) -> SqliteCardIndex | None:
    """The index `--cards` names, else the default one when it exists, else None."""
    if path is not None:
        return open_index(Path(path))
    default = default_index_path()
    return open_index(default) if default.is_file() else None


class Indexes:
    """The card index for each checked file: `--cards`, else its settings file's
    `cards-file`, else the default index; each opened once a run."""

    def __init__(self, given: str | None) -> None:
        self.given = given
        self.opened: dict[Path | None, SqliteCardIndex | None] = {}

    def for_config(self, settings: Config) -> SqliteCardIndex | None:
        key = None if self.given is not None else settings.cards_file
        if key not in self.opened:
            self.opened[key] = index_for(self.given) if key is None else open_index(key)
        return self.opened[key]


def register(commands: argparse._SubParsersAction) -> None:
    cards = commands.add_parser("cards", help="the optional card index: import, update, show")
    actions = cards.add_subparsers(dest="action", required=True, metavar="ACTION")
    imported = actions.add_parser(
        "import", help="build the index from a Scryfall bulk file or MTGJSON AtomicCards.json"
    )
    imported.add_argument("path", metavar="PATH")
    imported.set_defaults(run=_import)
    updated = actions.add_parser(
        "update", help="download Scryfall's current oracle_cards file and import it"
    )
    updated.add_argument("--api", default=None, help=argparse.SUPPRESS)
    updated.set_defaults(run=_update)
    show = actions.add_parser("show", help="print a card from the index")
    show.add_argument("name", metavar="NAME")
    show.add_argument("--cards", metavar="PATH", help="another index or card file")
    show.set_defaults(run=_show)
    where = actions.add_parser("where", help="print where the index is")
    where.set_defaults(run=_where)


def _import(args: argparse.Namespace) -> int:
    target = default_index_path()
    source = Path(args.path)
    size = source.stat().st_size if source.is_file() else 0
    bar = _Bar("reading", size)
    count = build_index(source, target, progress=bar.add)
    bar.done()
    print(f"{count} cards from {source} in {target}")
    return 0


def _update(args: argparse.Namespace) -> int:
    # imported here: the downloader's HTTP modules cost every other command (and the
    # language server, which starts through this command line) 2.7 MB
    from mtgr.cards.download import BULK_DATA_API, update

    target = default_index_path()
    bar = _Bar("downloading", None)
    count = update(target, api=args.api or BULK_DATA_API, progress=bar.set)
    bar.done()
    print(f"{count} cards from Scryfall's oracle_cards in {target}")
    return 0


def _show(args: argparse.Namespace) -> int:
    index = index_for(args.cards)
    if index is None:
        raise CardFileError(
            f"no card index at {default_index_path()}: `mtgr cards import FILE` or "
            "`mtgr cards update` makes one"
        )
    card = index.lookup(args.name)
    if card is None:
        close = index.close_names(args.name, 3)
        hint = " (did you mean " + " or ".join(f'"{c}"' for c in close) + "?)" if close else ""
        print(f'mtgr: no card named "{args.name}" in {index.source}{hint}', file=sys.stderr)
        return 1
    print(describe(card))
    return 0


def _where(args: argparse.Namespace) -> int:
    target = default_index_path()
    state = "" if target.is_file() else " (not made yet: `mtgr cards import FILE` or `update`)"
    print(f"{target}{state}")
    return 0


def describe(card: Card) -> str:
    """A card as plain text, every face: name and cost, type line, text, P/T or loyalty."""
    blocks = []
    for face in card.faces:
        lines = [f"{face.name}  {face.mana_cost}".rstrip(), face.type_line]
        if face.oracle_text:
            lines.append(face.oracle_text)
        if face.power is not None:
            lines.append(f"{face.power}/{face.toughness}")
        if face.loyalty is not None:
            lines.append(f"Loyalty {face.loyalty}")
        blocks.append("\n".join(lines))
    link = f"\n{card.scryfall_uri}" if card.scryfall_uri else ""
    return "\n\n".join(blocks) + link


class _Bar:
    """A progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, label: str, total: int | None) -> None:
        self.label, self.total, self.so_far, self.drawn = label, total, 0, 0.0

    def add(self, amount: int) -> None:
        self.set(self.so_far + amount, self.total)

    def set(self, so_far: int, total: int | None) -> None:
        self.so_far, self.total = so_far, total
        now = time.monotonic()
        if now - self.drawn >= 0.1:
            self.drawn = now
            self._draw()

    def _draw(self) -> None:
        mb = self.so_far / 1e6
        if self.total:
            share = min(self.so_far / self.total, 1.0)
            filled = int(share * 30)
            line = f"{self.label} [{'#' * filled}{'.' * (30 - filled)}] {share:4.0%} {mb:.1f}/{self.total / 1e6:.1f} MB"
        else:
            line = f"{self.label} {mb:.1f} MB"
        print(f"\r{line}", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        self._draw()
        print(file=sys.stderr)
