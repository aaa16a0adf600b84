"""The meaning of each statement form and keyword, with the decision items and CR rules behind
it, read from forms.toml: data rather than code, so hover, the spec and the tests share one list.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

_DECISION_REF = re.compile(r"^\d{4}\.\d+$")
_RULE = re.compile(r"^\d{3}(?:\.\d+[a-z]?)?$")


@dataclass(frozen=True, slots=True)
class Form:
    """One statement form (keyed by its grammar rule) or keyword (keyed as written)."""

    name: str
    meaning: str
    decisions: tuple[str, ...]
    rules: tuple[str, ...]
    syntax: str = ""


def _strings(name: str, key: str, value: Any, pattern: re.Pattern[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"forms.toml [{name}]: {key} must be a list of strings")
    for v in value:
        if not pattern.match(v):
            raise ValueError(f"forms.toml [{name}]: {key} has a malformed entry {v!r}")
    return tuple(value)


def parse_forms(text: str) -> dict[str, Form]:
    """Parse forms.toml text; a malformed table raises ValueError rather than hover going blank."""
    data = tomllib.loads(text)
    forms: dict[str, Form] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ValueError(f"forms.toml: {name} is not a table")
        meaning = table.get("meaning")
        if not isinstance(meaning, str) or not meaning.strip():
            raise ValueError(f"forms.toml [{name}]: meaning must be a non-empty string")
        syntax = table.get("syntax", "")
        if not isinstance(syntax, str):
            raise ValueError(f"forms.toml [{name}]: syntax must be a string")
        unknown = set(table) - {"meaning", "syntax", "decisions", "rules"}
        if unknown:
            raise ValueError(f"forms.toml [{name}]: unknown keys {sorted(unknown)}")
        forms[name] = Form(
            name=name,
            meaning=meaning,
            decisions=_strings(name, "decisions", table.get("decisions", []), _DECISION_REF),
            rules=_strings(name, "rules", table.get("rules", []), _RULE),
            syntax=syntax,
        )
    return forms


@cache
def load_forms() -> dict[str, Form]:
    """Every form and keyword by name, read once from the package's forms.toml."""
    text = resources.files("mtgr.syntax").joinpath("forms.toml").read_text(encoding="utf-8")
    return parse_forms(text)
