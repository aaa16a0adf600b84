"""Turns a failed parse into one message a person can act on: what was expected, where.

Parsimonious reports a failure as the last named rule that failed at the furthest
position. We record every named rule that failed at each position instead, then describe
the rules that matter to a reader (a zone, a verb, a cause...) at the furthest one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache

from parsimonious.exceptions import ParseError
from parsimonious.expressions import Expression, Literal, OneOf, Quantifier, Sequence

ZONES = "library, hand, graveyard, battlefield, stack, exile, command"
OBJECT_VERBS = (
    "new, move, identify, reveal, cast, play, activate, trigger, target, choose, pay, resolve, "
    "fizzle, countered, tap, untap, attack, block, damage, counters, effect, control, attach, "
    "unattach, phase, regenerate, turn, transform, convert, stays, leaves, complete, flip, meld"
)
PLAYER_VERBS = (
    "draw, life, counters, search, shuffle, roll, mulligan, keep, concede, lose, win, monarch, "
    "initiative, citys-blessing, sideboard, mana, choose, ring-bearer, venture"
)
KEYWORDS = (
    "mtgr, title, rules, player, perspective, start, game, turn, phase, step, incomplete, "
    "keyframe, end, day, night, match, variant, judge"
)

# Rule name -> what a reader is told was expected. Rules left out are too small to name.
DESCRIPTIONS: dict[str, str] = {
    "statement": f'an object "#N", a player "Name" or a keyword ({KEYWORDS})',
    "object_phrase": f"a verb ({OBJECT_VERBS})",
    "player_phrase": f"a verb ({PLAYER_VERBS})",
    "new_what": "card, hidden, token, copy, commander or emblem",
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
    "die": "a die such as d20, or 2d6 for two dice",
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
    "identify_name": "a card name in double quotes",
    "card": 'a card name in double quotes such as "Lightning Bolt"',
    "effect_text": "the effect's text in double quotes",
    "title_text": "a title in double quotes",
    "active_player": 'the active player\'s name in double quotes such as "Alice"',
    "starting_player": 'the starting player\'s name in double quotes such as "Alice"',
    "declared_player": 'a player\'s name in double quotes such as "Alice"',
    "player_subject": 'a player\'s name in double quotes such as "Alice"',
    "object_subject": "an object number such as #12",
    "caster": 'a player\'s name in double quotes such as "Alice"',
    "new_controller": 'a player\'s name in double quotes such as "Alice"',
    "searched_owner": 'a player\'s name in double quotes such as "Bob"',
    "searched_zone": "the zone searched (library, graveyard, hand)",
    "target": 'a target: an object #N or a player "Name"',
    "defender": 'what it attacks: a player "Name" or a planeswalker #N',
    "recipient": 'what is dealt damage: an object #N or a player "Name"',
    "blocked": "the attacking creature #N it blocks",
    "choice": 'a choice: an object #N, a "text" or a number',
    "ability_source": "the source object #N",
    "original": "the object #N it copies",
    "drawn": "the drawn object's number such as #12",
    "damage_commander": "the commander #N that dealt the damage",
    "match_winner": 'the match\'s winner in double quotes such as "Alice", or drawn',
    "score": "the games won, lost and drawn, such as 2-1 or 1-1-1",
    "sideboard_way": "in or out",
    "k_drawn": "drawn",
    "variant_name": "a variant: commander",
    "penalty": "a penalty: warning, game-loss or match-loss",
    "infraction": 'the infraction\'s name in double quotes such as "Game Rule Violation"',
    "remedy": "how it was handled: added or skipped",
    "trigger_source": "the object #N whose trigger was missed",
    "missed_designation": "monarch, initiative or speed, whose trigger was missed",
    "coin_result": "how the coin flip came out: won, lost, heads or tails",
    "judged_player": 'a player\'s name in double quotes such as "Alice"',
    "judge_allow": '"allow" and the codes the ruling silences, such as allow D804',
    "diagnostic_code": "a diagnostic code such as D804",
    "extra_turns": '"turns" and a number',
    "k_call": "call",
    "k_penalty": "penalty",
    "k_missed_trigger": "missed-trigger",
    "k_time": "time",
    "k_backup": "backup",
    "cast_tax": '"tax" and the commander tax, such as tax 2',
    "sideboard_detail": 'in or out and a card name, or "deck" and a number',
    # notation 0.5, decisions 0020 to 0025
    "entered_combat": 'attacking "Player" or #N, or blocking #N',
    "stated_owner": 'the owner\'s name in double quotes such as "Bob"',
    "owner_clause": '"owner" and a player "Name"',
    "entered_attached": '"attached" and an object #N or a player "Name"',
    "host": 'what it is attached to: an object #N or a player "Name"',
    "phasing": "out or in",
    "snapshot_phased": "phased-out",
    "designation_source": "monarch, initiative or speed",
    "damage_deathtouch": "deathtouch",
    "entered_face_down": "face-down",
    "k_face_up": "face-up",
    "entered_back": "back",
    # notation 0.5, part 2: decisions 0070 to 0075
    "produced": "the mana added, such as {G} or {B}{B}{B}",
    "cast_split_second": "split-second",
    "damage_double_strike": "double-strike",
    "damage_trample": "trample",
    "k_tapped": "tapped",
    "k_combat": "combat",
    # decisions 0060 to 0062
    "snapshot_damage": '"damage" and the damage marked, such as damage 2',
    "legend_kept": "the legendary permanent #N the player keeps",
    "ring_bearer": "the creature #N that becomes the Ring-bearer",
    "ring_tempted": '"tempted" and how often the Ring has tempted the player, such as tempted 2',
    "room": 'the room\'s name in double quotes such as "Secret Entrance"',
    "door": 'the door\'s name in double quotes such as "Locker Room"',
    "cast_half": '"half" and the half cast, such as half "Ice"',
    "snapshot_flipped": "flipped",
    "melded": "the other card #N of the meld pair",
    "snapshot_melded": '"melded" and the other card #N of the meld pair',
}

# Words of the game that are not verbs of the notation, and how the notation writes them:
# people write "discard" or "scry" first, and the error should lead them to the form.
GAME_WORDS: dict[str, str] = {
    "discard": "a discard is written `#N move hand -> graveyard as discard by C`",
    "sacrifice": "a sacrifice is written `#N move battlefield -> graveyard as sacrifice by C`",
    "destroy": "a destruction is written `#N move battlefield -> graveyard as destroy by C`",
    "mill": "milling is written `#N move library -> graveyard as mill by C`, a line a card",
    "exile": "exiling is written `#N move ZONE -> exile by C`",
    "die": "a creature dying is written `#N move battlefield -> graveyard by sba` (or `by C`)",
    "return": "a return is written `#N move ZONE -> ZONE by C`",
    "bounce": "a return to hand is written `#N move battlefield -> hand by C`",
    "scry": (
        'a scry is written as the cards seen, `#N new card "Name" library "P" top K`, '
        "then `#N move library -> library bottom by C` for each put on the bottom"
    ),
    "surveil": (
        'surveil is written as the cards seen, `#N new card "Name" library "P" top K`, '
        "then `#N move library -> graveyard by C` for each put into the graveyard"
    ),
    "gain": 'life gained is written `"P" life +K by C`',
    "lose": 'life lost is written `"P" life -K by C`; a lost game is `"P" lose`',
    "counter": "a countered spell is written `#N countered by C`",
    "create": 'a token is written `#N new token "Name" battlefield "P" by C`',
    "equip": "equipping is written `#A activate of #N`, then `#N attach #M by #A`",
    "enchant": "an Aura is written `#N resolve -> battlefield attached #M`",
    "fight": "a fight is written as the damage each deals, `#N damage K -> #M`",
    "look": 'cards looked at are written `#N new card "Name" ZONE "P"` by the one who saw them',
    "mulligans": '`"P" mulligan`',
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


@dataclass(frozen=True, slots=True)
class Failure:
    """Where a line stopped parsing and what was expected there; independent of the
    digits and string contents of the line, so lines of one shape share it."""

    position: int
    expected: tuple[str, ...]
    unterminated_string: bool = False
    # what the previous token could have been instead, when nothing may follow it
    instead_of_previous: tuple[str, ...] = ()
    # the words the grammar takes at the position, for "did you mean"
    words: tuple[str, ...] = ()


def find_failure(expression: Expression, text: str) -> Failure:
    if text.count('"') % 2 == 1 and not _balanced(text):
        return Failure(_unterminated_string_start(text), (), unterminated_string=True)
    recorder = _Recorder(text)
    try:
        node = expression.match_core(text, 0, defaultdict(dict), recorder)
    except ParseError:  # pragma: no cover - match_core reports through the recorder
        node = None
    matched_end = node.end if node is not None else 0
    position, expected = _furthest_expectation(recorder.failures, matched_end, text)
    instead: tuple[str, ...] = ()
    if not expected:
        previous_start = _word_start(text, len(text[:position].rstrip()))
        instead = tuple(_described(recorder.failures.get(previous_start, ())))
    words = sorted({w for name in recorder.failures.get(position, ()) for w in _words(name)})
    return Failure(position, tuple(expected), instead_of_previous=instead, words=tuple(words))


def format_failure(text: str, failure: Failure) -> tuple[int, int, str]:
    """(start, end, message) in the line's own text."""
    position = failure.position
    if failure.unterminated_string:
        return position, len(text), 'unterminated string: add the closing "'
    token_end = _token_end(text, position)
    previous = _previous_token(text, position)
    after = f" after {_quote(previous)}" if previous else ""
    if failure.expected:
        what = _join(list(failure.expected))
        if position >= len(text):
            return position, position, f"expected {what}{after}"
        found = text[position:token_end]
        message = f"unexpected {_quote(found)}: {_suggestion(found, failure.words)}"
        return position, token_end, f"{message}expected {what}{after}{_game_word(found)}"
    found = text[position:token_end] or text[position:]
    message = f"unexpected {_quote(found)}{after}"
    if failure.instead_of_previous and previous:
        message += f"; in place of {_quote(previous)}: {_join(list(failure.instead_of_previous))}"
    else:
        message += ": the statement ends there"
    return position, max(token_end, position + 1), message


def _suggestion(found: str, words: tuple[str, ...]) -> str:
    close = closest_word(found, words)
    return f"did you mean {_quote(close)}? " if close else ""


def closest_word(found: str, words: tuple[str, ...]) -> str | None:
    """The word the grammar takes that the one written most likely meant: a typo's fix."""
    close = get_close_matches(found.lower(), words, n=1, cutoff=0.75)
    return close[0] if close else None


def _game_word(found: str) -> str:
    word = found.lower()
    for form in (word, word.removesuffix("s"), word.removesuffix("es"), word.removesuffix("d")):
        if form in GAME_WORDS:
            return f"; {GAME_WORDS[form]}"
    return ""


@cache
def _words(name: str) -> frozenset[str]:
    """The words a named rule, or a rule it can start with, accepts as its first token."""
    from mtgr.syntax.parser import GRAMMAR

    return frozenset(w for rule in (name, *_first_rules(name)) for w in words_of(GRAMMAR[rule]))


def words_of(expression: Expression) -> tuple[str, ...]:
    """The words a token rule of the grammar matches (`cast`, or `(?:discard|mill)` and
    the like), none for any other rule."""
    regex = getattr(expression, "re", None)
    listed = _WORD_LIST.match(regex.pattern) if regex is not None else None
    return tuple(listed.group(1).split("|")) if listed else ()


_WORD_LIST = re.compile(r"^(?:\(\?:)?([a-z][a-z0-9|-]*)\)?\(\?!")


def _described(names: tuple[str, ...] | list[str]) -> list[str]:
    """Descriptions of the failed rules, leaving out those nested in another one listed."""
    named = [n for n in dict.fromkeys(names) if n in DESCRIPTIONS]
    outer = [n for n in named if not any(n != o and n in _first_rules(o) for o in named)]
    return list(dict.fromkeys(DESCRIPTIONS[n] for n in outer))


@cache
def _first_rules(name: str) -> frozenset[str]:
    """Every named rule that can start where rule `name` starts."""
    from mtgr.syntax.parser import GRAMMAR

    # a loop, not a nested function that calls itself: that is a reference cycle, garbage
    # only the cyclic collector frees (the server runs it only when idle)
    found: set[str] = set()
    seen: set[int] = set()
    pending = [GRAMMAR[name]]
    while pending:
        expression = pending.pop()
        if id(expression) in seen:
            continue
        seen.add(id(expression))
        if expression.name:
            found.add(expression.name)
        members = getattr(expression, "members", ())
        if isinstance(expression, Sequence):  # the members up to the first that takes text
            for member in members:
                pending.append(member)
                if not _nullable(member):
                    break
        else:
            pending.extend(members)
    found.discard(name)
    return frozenset(found)


def _nullable(expression: Expression) -> bool:
    if isinstance(expression, Quantifier):
        return expression.min == 0
    if isinstance(expression, Literal):
        return expression.literal == ""
    if isinstance(expression, Sequence):
        return all(_nullable(m) for m in expression.members)
    if isinstance(expression, OneOf):
        return any(_nullable(m) for m in expression.members)
    return False


def _furthest_expectation(
    failures: dict[int, list[str]], matched_end: int, text: str
) -> tuple[int, list[str]]:
    """The furthest position where something failed, and what was expected there.

    A token that failed partway (the "ment" of "movement") is reported from its start.
    """
    furthest = max([matched_end, *failures])
    for position in (furthest, _word_start(text, furthest)):
        described = _described(failures.get(position, []))
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
    token = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in token)
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
