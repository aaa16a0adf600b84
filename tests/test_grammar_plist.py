"""The TextMate grammar as a property list (syntaxes/mtgr.tmLanguage) for Sublime Text,
which does not read the JSON form: it parses as a plist and holds exactly the JSON
grammar (tests/test_textmate_grammar.py checks that both are up to date)."""

from __future__ import annotations

import json
import plistlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JSON_GRAMMAR = ROOT / "syntaxes" / "mtgr.tmLanguage.json"
PLIST_GRAMMAR = ROOT / "syntaxes" / "mtgr.tmLanguage"


def test_the_plist_is_the_json_grammar() -> None:
    with PLIST_GRAMMAR.open("rb") as file:
        grammar = plistlib.load(file, fmt=plistlib.FMT_XML)
    assert grammar == json.loads(JSON_GRAMMAR.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.mtgr"
    assert grammar["fileTypes"] == ["mtgr"]


def test_every_pattern_compiles_as_a_regular_expression() -> None:
    """Sublime runs the plist's patterns as they are; Python's re reads most of the
    Oniguruma syntax the grammar uses, so a pattern broken on its way into XML (an escape
    lost or doubled) shows up here."""
    with PLIST_GRAMMAR.open("rb") as file:
        grammar = plistlib.load(file)
    patterns: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            patterns.extend(node[key] for key in ("match", "begin", "end") if key in node)
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(grammar)
    assert len(patterns) > 20
    for pattern in patterns:
        re.compile(pattern.replace(r"\G", ""))
