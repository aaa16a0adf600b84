"""What the language server adds with a card index: a card's text on hover (the quick fix
for an unknown card name, A101, is with the other fixes in mtgr/fixes.py)."""

from __future__ import annotations

from mtgr.cards.model import Card


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
