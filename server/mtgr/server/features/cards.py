"""What the language server adds with a card index: a card's text on hover, and the quick
fix "use the name NAME" for a card name the index does not know (A101)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgr.cards.model import Card
from mtgr.rules.checks.a101_unknown_card_name import SUGGESTIONS
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.server.features.code_actions import Fix, _Doc


def card_markdown(card: Card) -> str:
    """Every face: name and mana cost, type line, Oracle text, P/T or loyalty; the link."""
    blocks = []
    for face in card.faces:
        rows = [f"**{face.name}** {_escaped(face.mana_cost)}".rstrip(), "", f"*{face.type_line}*"]
        if face.oracle_text:
            rows += ["", *(_escaped(line) + "  " for line in face.oracle_text.splitlines())]
        if face.power is not None:
            rows += ["", f"{_escaped(face.power)}/{_escaped(face.toughness or '')}"]
        if face.loyalty is not None:
            rows += ["", f"Loyalty {face.loyalty}"]
        blocks.append("\n".join(rows))
    if card.scryfall_uri:
        blocks.append(f"[{card.name} on Scryfall]({card.scryfall_uri})")
    return "\n\n".join(blocks)


def _escaped(text: str) -> str:
    """Card text as Markdown shows it literally (`*` of a P/T, `{T}`, `[-2]`)."""
    return "".join("\\" + ch if ch in "\\`*_[]<>#|" else ch for ch in text)


def fix_unknown_card_name(doc: _Doc, line: int, span: t.Span) -> list[Fix]:
    """One fix a close name: the written name replaced by it, quotes and all."""
    from mtgr.server.features.code_actions import Edit, Fix, quote

    cards = doc.document.cards
    written = doc.texts[line][span.start : span.end]
    if cards is None or not (written.startswith('"') and written.endswith('"')):
        return []
    return [
        Fix(
            f'Use the card name "{name}"',
            "A101",
            (Edit(line, span.start, line, span.end, quote(name)),),
            preferred=i == 0,
        )
        for i, name in enumerate(cards.close_names(written[1:-1], SUGGESTIONS))
    ]
