"""Card names the way players write them: any case, with or without accents and ligatures,
a whole two-faced card or either face alone."""

from __future__ import annotations

import unicodedata

# Letters NFKD does not take apart but players spell out (Æther Vial, Aether Vial).
_SPELLED_OUT = str.maketrans(
    {"æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "\u2019": "'", "\u2018": "'"}
)


def name_key(name: str) -> str:
    """The form two spellings of one name share: casefolded, accents and ligatures spelled
    out, curly apostrophes straightened, runs of spaces made one."""
    text = unicodedata.normalize("NFKD", name.translate(_SPELLED_OUT))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


def face_names(name: str) -> list[str]:
    """The names of a card's faces, from its full name (`Fire // Ice`: Fire, Ice)."""
    parts = [part.strip() for part in name.split("//")]
    return [part for part in parts if part] if len(parts) > 1 else []
