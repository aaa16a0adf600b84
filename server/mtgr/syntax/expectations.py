"""Turns a failed parse into one message a person can act on: what was expected, where.

Parsimonious reports a failure as the last named rule that failed at the furthest
position. We record every named rule that failed at each position instead, then describe
the rules that matter to a reader (a zone, a verb, a cause...) at the furthest one.
"""

from __future__ import annotations

import re
from collections import defaultdict

from parsimonious.exceptions import ParseError
from parsimonious.expressions import Expression

ZONES = "library, hand, graveyard, battlefield, stack, exile, command"
OBJECT_VERBS = (
    "new, move, identify, reveal, cast, play, activate, trigger, target, choose, pay, resolve, "
    "fizzle, countered, tap, untap, attack, block, damage, counters, effect, control"
)
PLAYER_VERBS = (
    "draw, life, counters, search, shuffle, roll, mulligan, keep, concede, lose, win"
)
KEYWORDS = "mtgr, title, rules, player, perspective, start, game, turn, phase, step, incomplete, keyframe, end"

# Rule name -> what a reader is told was expected. Rules left out are too small to name.
DESCRIPTIONS: dict[str, str] = {
    "statement": f'an object "#N", a player "Name" or a keyword ({KEYWORDS})',
    "object_phrase": f"a verb ({OBJECT_VERBS})",
    "player_phrase": f"a verb ({PLAYER_VERBS})",
    "new_what": "card, hidden, token or copy",
    "zone": f"a zone ({ZONES})",
    "arrow": '"->"',
    "object_ref": "an object number such as #12",
    "quoted": 'a name in double quotes such as "Alice"',
    "number": "a number",
    "signed": "a signed amount such as -3 or +1",
    "counter_kind": "a kind of counter such as +1/+1 or loyalty",
    "kind": "discard, sacrifice, destroy or mill",
    "cast_mode": "a casting mode such as flashback or dash",
    "position": "top or bottom",
    "position_end": "top or bottom",
    "cause": '"by" and a cause (#N, "Player" or sba)',
    "agent": 'a cause: an object #N, a player "Name" or sba',
    "replacements": '"replacement" and the objects whose replacement effects applied',
    "replacing": "an object number such as #12",
    "move_kind": '"as" and discard, sacrifice, destroy or mill',
    "entered_tapped": "tapped",
    "cast_from": '"from" and a zone',
    "k_of": '"of"',
    "k_library": "library",
    "leave_to": '"->" and a zone',
    "cost": 'a cost such as {1}{G}, life 2 or "text"',
    "die": "a die such as d20",
    "duration": "end-of-turn, end-of-combat, next-turn or leaves",
    "effect_on": '"on" and an object',
    "effect_until": '"until" and a duration',
    "phase_name": "a phase (beginning, main, combat, ending)",
    "step_name": (
        "a step (untap, upkeep, draw, beginning-of-combat, declare-attackers, "
        "declare-blockers, combat-damage, end-of-combat, end, cleanup)"
    ),
    "version": "a version such as 0.4",
    "date": "a date such as 2026-09-25",
    "viewer": 'a player "Name" or all',
    "mana": "mana symbols such as {1}{G}",
    "snapshot_counters": '"counters", a number and a kind',
    "snapshot_tapped": "tapped",
    "place_player": 'a player "Name"',
    "deck_size": '"deck" and a number',
    "attack_untapped": "untapped",
}

_PREVIOUS_TOKEN = re.compile(r"(\"(?:[^\"\\]|\\.)*\"|\S+)\s*$")


class _Recorder:
    """Stands in for ParseError inside parsimonious: keeps every named failure by position."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._pos = -1
        self._expr: Expression | None = None
        self.failures: dict[int, list[str]] = {}

    @property
    def expr(self) -> Expression | None:
        return self._expr

    @expr.setter
    def expr(self, value: Expression) -> None:
        self._expr = value

    @property
    def pos(self) -> int:
        return self._pos

    @pos.setter
    def pos(self, value: int) -> None:
        self._pos = value
        if self._expr is not None and self._expr.name:
            self.failures.setdefault(value, []).append(self._expr.name)


def describe_failure(expression: Expression, text: str) -> tuple[int, int, str]:
    """(start, end, message) for a line that `expression` does not match in full."""
    if text.count('"') % 2 == 1 and not _balanced(text):
        start = _unterminated_string_start(text)
        return start, len(text), 'unterminated string: add the closing "'
    recorder = _Recorder(text)
    node = None
    try:
        node = expression.match_core(text, 0, defaultdict(dict), recorder)
    except ParseError:  # pragma: no cover - match_core reports through the recorder
        node = None
    matched_end = node.end if node is not None else 0
    position, expected = _furthest_expectation(recorder.failures, matched_end, text)
    token_end = _token_end(text, position)
    previous = _previous_token(text, position)
    after = f" after {_quote(previous)}" if previous else ""
    if expected:
        what = _join(expected)
        if position >= len(text):
            return position, position, f"expected {what}{after}"
        found = text[position:token_end]
        return position, token_end, f"unexpected {_quote(found)}: expected {what}{after}"
    found = text[position:token_end] or text[position:]
    return position, max(token_end, position + 1), f"unexpected {_quote(found)}{after}"


def _furthest_expectation(
    failures: dict[int, list[str]], matched_end: int, text: str
) -> tuple[int, list[str]]:
    """The furthest position where something failed, and what was expected there.

    A token that failed partway (the "ment" of "movement") is reported from its start.
    """
    furthest = max([matched_end, *failures])
    for position in (furthest, _word_start(text, furthest)):
        described = [DESCRIPTIONS[n] for n in failures.get(position, ()) if n in DESCRIPTIONS]
        if described:
            return position, list(dict.fromkeys(described))
    return _word_start(text, furthest), []


def _word_start(text: str, position: int) -> int:
    start = min(position, len(text))
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return start


def _token_end(text: str, position: int) -> int:
    end = position
    while end < len(text) and not text[end].isspace():
        end += 1
    return end


def _previous_token(text: str, position: int) -> str:
    match = _PREVIOUS_TOKEN.search(text[:position])
    return match.group(1) if match else ""


def _quote(token: str) -> str:
    if len(token) > 40:
        token = token[:37] + "..."
    if token.startswith('"'):
        return token
    return f'"{token}"'


def _join(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


def _balanced(text: str) -> bool:
    return re.fullmatch(r'(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*\\?', text) is not None


def _unterminated_string_start(text: str) -> int:
    in_string = False
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if in_string and ch == "\\":
            i += 2
            continue
        if ch == '"':
            in_string = not in_string
            start = i
        i += 1
    return start
