"""Writes `syntaxes/mtgr.tmLanguage.json`, the TextMate grammar of `.mtgr` files, and the
same grammar as a property list, `syntaxes/mtgr.tmLanguage` (Sublime Text and TextMate
read that form, not the JSON).

The word lists (zones, steps, cast modes, ...) come from the line grammar
`server/mtgr/syntax/mtgr.peg`, the source of truth for the syntax; what each word means
where, and so its scope, is written here. Run it after changing either:

    python syntaxes/build_grammar.py          # rewrite the JSON and the plist
    python syntaxes/build_grammar.py --check  # exit 1 if either is out of date

TextMate matches one regular expression at a time and remembers nothing between two
matches on a line, so a token whose meaning depends on the one before it (a player after
`by`, a card name after `new card`, a counter kind after `counters +1`) is matched
together with that token, each part named by its own capture group. `Cap` builds such
expressions and numbers their groups.

Every token ends where the PEG's tokens end: before white space, a `//` comment or the
end of the line. A token that fits nowhere in its kind of line is `invalid.illegal.mtgr`.
"""

from __future__ import annotations

import argparse
import json
import plistlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEG = ROOT / "server" / "mtgr" / "syntax" / "mtgr.peg"
OUTPUT = ROOT / "syntaxes" / "mtgr.tmLanguage.json"
PLIST_OUTPUT = ROOT / "syntaxes" / "mtgr.tmLanguage"

S = ".mtgr"


def enum(kind: str) -> str:
    """A word of a fixed set (zones, steps, ...): `support.constant` for themes that colour it,
    then `variable.other.enummember`, which VS Code's default themes colour and others lack
    (a scope a theme does not colour shows its parent's colour)."""
    return f"support.constant.{kind}{S} variable.other.enummember.{kind}{S}"


START = r"(?<![^ \t])"  # a token starts after white space or at the start of the line
END = r"(?=[ \t]|//|$)"  # ... and ends before white space, a comment or the line end
WS = r"[ \t]+"
STRING = r'"(?:[^"\\]|\\.)*"'
OBJECT = r"#[0-9]{1,9}"  # at most 9 digits (E002)
NUMBER = r"[0-9]{1,9}"
SIGNED = r"[+-][0-9]{1,9}"
# Anything up to the next white space or comment, a string (even an unterminated one,
# which runs to the end of the line as in the parser's comment splitting) taken whole.
ANY_TOKEN = r'(?:"(?:[^"\\]|\\.)*(?:"|\\?$)|[^ \t/"]|/(?!/))+'

Json = dict[str, Any]


@dataclass(frozen=True)
class Cap:
    """A capture group: its scope (may be empty), its parts, patterns run inside it."""

    scope: str
    parts: tuple[str | Cap, ...]
    patterns: tuple[str, ...] = field(default=())


Part = str | Cap


def cap(scope: str, *parts: Part, patterns: tuple[str, ...] = ()) -> Cap:
    return Cap(scope, parts, patterns)


_CAPTURING_GROUP = re.compile(r"(?<!\\)\((?!\?)")


def compile_parts(parts: tuple[Part, ...]) -> tuple[str, Json]:
    """The regular expression of `parts` and its captures table, groups numbered in order."""
    captures: Json = {}
    count = 0

    def walk(part: Part) -> str:
        nonlocal count
        if isinstance(part, str):
            if _CAPTURING_GROUP.search(part):
                raise ValueError(f"raw regex with a capturing group: {part!r}")
            return part
        count += 1
        entry: Json = {}
        if part.scope:
            entry["name"] = part.scope
        if part.patterns:
            entry["patterns"] = [{"include": f"#{name}"} for name in part.patterns]
        if entry:
            captures[str(count)] = entry
        return "(" + "".join(walk(p) for p in part.parts) + ")"

    regex = "".join(walk(p) for p in parts)
    return regex, captures


def match(*parts: Part, name: str = "") -> Json:
    regex, captures = compile_parts(parts)
    rule: Json = {"match": regex}
    if name:
        rule["name"] = name
    if captures:
        rule["captures"] = captures
    return rule


def region(begin: tuple[Part, ...], end: str, name: str, patterns: list[Json | str]) -> Json:
    """A begin/end region; a string in `patterns` includes that repository entry."""
    regex, captures = compile_parts(begin)
    rule: Json = {"begin": regex}
    if captures:
        rule["beginCaptures"] = captures
    rule["end"] = end
    if name:
        rule["name"] = name
    rule["patterns"] = [{"include": f"#{p}"} if isinstance(p, str) else p for p in patterns]
    return rule


def line(begin: tuple[Part, ...], name: str, patterns: list[Json | str]) -> Json:
    """A region from the line's first token to the end of the line."""
    return region(begin, "$", name, patterns)


def alternation(words: list[str] | tuple[str, ...]) -> str:
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))) + ")"


# ---- the word lists of the PEG ---------------------------------------------------------

_TOKEN_RULE = re.compile(r'^(\w+)\s*=\s*~r"(.*)"\s*$')
_TOKEN_TAIL = "(?![^ \\t])[ \\t]*"


def peg_tokens(text: str) -> dict[str, str]:
    """rule name -> the token's regex without the shared tail."""
    tokens: dict[str, str] = {}
    for raw in text.splitlines():
        found = _TOKEN_RULE.match(raw.strip())
        if not found:
            continue
        name, regex = found.groups()
        if not regex.endswith(_TOKEN_TAIL):
            raise ValueError(f"token {name} does not end with {_TOKEN_TAIL}")
        tokens[name] = regex[: -len(_TOKEN_TAIL)].replace('\\"', '"')
    return tokens


def peg_words(tokens: dict[str, str], name: str) -> list[str]:
    """The words of a token that is a plain alternation of words, as `(?:a|b|c)`."""
    regex = tokens[name]
    found = re.fullmatch(r"\(\?:([a-z0-9|-]+)\)|([a-z0-9-]+)", regex)
    if not found:
        raise ValueError(f"token {name} is not a list of words: {regex}")
    return (found.group(1) or found.group(2)).split("|")


# What each keyword token of the PEG is here. Every v_ and k_ token must be listed, so a
# new word in the PEG stops this script until it has a scope.
OBJECT_VERBS = [
    "new",
    "move",
    "identify",
    "reveal",
    "cast",
    "play",
    "activate",
    "trigger",
    "target",
    "choose",
    "pay",
    "resolve",
    "fizzle",
    "countered",
    "tap",
    "untap",
    "attack",
    "block",
    "damage",
    "counters",
    "effect",
    "control",
    "attach",
    "unattach",
    "regenerate",
    "transform",
    "convert",
    "stays",
    "leaves",
    "complete",  # a dungeon completed (decision 0063)
    "flip",  # a flip card flips (decision 0064)
    "unlock",  # a Room's door (decision 0099)
    "lock",
    "level",  # a Class's level (decision 0108)
    "hidden",  # a known card in a hand mixed with unseen ones (decision 0100)
    "meld",  # a meld pair melds (decision 0065)
]
PLAYER_VERBS = [
    "draw",
    "life",
    "counters",
    "search",
    "shuffle",
    "roll",
    "mulligan",
    "keep",
    "concede",
    "lose",
    "win",
    "library",
    "monarch",
    "initiative",
    "citys-blessing",
    "sideboard",
    "mana",
    "choose",  # the legend rule's choice (decision 0061)
    "ring-bearer",  # the Ring tempts a player (decision 0062)
    "venture",  # venturing into the dungeon (decision 0063)
    "speed",  # a player's speed (decision 0098)
    "damage",  # a keyframe's commander damage entry (decision 0101)
    "flip",  # a coin flip (decision 0110)
]
STRUCTURE = [
    "mtgr",
    "title",
    "rules",
    "player",
    "perspective",
    "start",
    "game",
    "turn",
    "phase",
    "step",
    "incomplete",
    "keyframe",
    "end",
    "day",
    "night",
    "match",
    "variant",
    "judge",
]
OBJECT_KINDS = [
    "card",
    "hidden",
    "token",
    "copy",
    "commander",
    "emblem",
]  # after `new`: storage.type.object
MODIFIERS = [
    "tapped",
    "untapped",
    "attacking",
    "blocking",
    "attached",
    "phased-out",
    "deathtouch",
    "face-down",
    "face-up",
    "back",
    "split-second",
    "double-strike",
    "trample",
    "flipped",  # a keyframe entry's flipped permanent (decision 0064)
    "melded",  # a keyframe entry's melded permanent (decision 0065)
]  # storage.modifier.<word>
KEYWORDS = [
    "of",
    "as",
    "from",
    "on",
    "until",
    "by",
    "replacement",
    "deck",
    "life",
    "counters",
    "library",
    "drawn",
    "tax",
    "call",
    "penalty",
    "missed-trigger",
    "time",
    "turns",
    "backup",
    "allow",
    "owner",
    "combat",
    "damage",  # the damage marked, in a keyframe entry (decision 0060)
    "half",  # the half of a split card cast (decision 0064)
    "tempted",  # a keyframe entry's count of the Ring's temptations (decision 0062)
]
CONSTANTS = ["sba", "all"]  # constant.language.<word>


def check_coverage(tokens: dict[str, str]) -> None:
    known = {
        "v": set(OBJECT_VERBS) | set(PLAYER_VERBS) | set(STRUCTURE),
        "k": set(OBJECT_KINDS) | set(MODIFIERS) | set(KEYWORDS) | set(CONSTANTS),
    }
    for name, regex in tokens.items():
        prefix = name[:2]
        if prefix in ("v_", "k_") and regex not in known[prefix[0]]:
            raise SystemExit(f"mtgr.peg token {name} ({regex}) has no scope in {__file__}")
    for prefix, words in known.items():
        for word in words:
            if not any(n.startswith(prefix + "_") and r == word for n, r in tokens.items()):
                raise SystemExit(f"{word} is not a {prefix}_ token of mtgr.peg any more")


# ---- the grammar -----------------------------------------------------------------------


def build(peg_text: str) -> Json:
    tokens = peg_tokens(peg_text)
    check_coverage(tokens)

    def word(scope: str, words: list[str] | tuple[str, ...]) -> Cap:
        return cap(scope, alternation(words))

    def tok(scope: str, regex: str) -> Cap:
        return cap(scope, regex)

    def string(scope: str) -> Cap:
        return cap(
            scope,
            cap(f"punctuation.definition.string.begin{S}", '"'),
            # vscode-textmate drops the enclosing captures' scopes inside a capture that has
            # patterns of its own: the contents carry the string's scope again
            cap(scope, r'(?:[^"\\]|\\.)*', patterns=("escape",)),
            cap(f"punctuation.definition.string.end{S}", '"'),
        )

    def player() -> Cap:
        return string(f"string.quoted.double.player{S} entity.name.type.player{S}")

    def card() -> Cap:
        return string(f"string.quoted.double.card{S}")

    def text() -> Cap:
        return string(f"string.quoted.double{S}")

    def verb(words: list[str] | tuple[str, ...]) -> Cap:
        return word(f"support.function.verb{S}", words)

    def keyword(w: str) -> Cap:
        return tok(f"keyword.other.{w}{S}", re.escape(w))

    def structure(w: str) -> Cap:
        return tok(f"keyword.control.{w}{S}", re.escape(w))

    def obj() -> Cap:
        return tok(f"variable.other.object{S}", OBJECT)

    def number() -> Cap:
        return tok(f"constant.numeric.integer{S}", NUMBER)

    def signed() -> Cap:
        return tok(f"constant.numeric.integer.signed{S}", SIGNED)

    def counter_kind() -> Cap:
        return tok(f"support.type.counter{S}", tokens["counter_kind"])

    def zone() -> Cap:
        return word(enum("zone"), peg_words(tokens, "zone"))

    # a line's first token: indentation means nothing; \G where an embedding (a Markdown
    # list or quote around a fenced block) has taken the start of the line
    first = r"(?:^|\G)[ \t]*"
    repo: Json = {}

    # -- shared pieces
    repo["comment"] = match(
        cap(f"punctuation.definition.comment{S}", "//"),
        cap("", ".*", patterns=("allow",)),
        name=f"comment.line.double-slash{S}",
    )
    # the parser's `allow` regex (syntax/parser.py), codes silenced on the line
    repo["allow"] = match(
        r"\b",
        cap(f"keyword.control.directive.allow{S}", "allow"),
        r"\s*",
        cap(f"punctuation.separator.key-value{S}", ":?"),
        r"\s*",
        cap("", r"[A-Z]+[0-9]+(?:\s*,?\s*[A-Z]+[0-9]+)*", patterns=("diagnostic-code",)),
        name=f"meta.directive.allow{S}",
    )
    repo["diagnostic-code"] = {
        "patterns": [
            match(tok(f"constant.language.diagnostic-code{S}", "[A-Z]+[0-9]+")),
            match(tok(f"punctuation.separator.comma{S}", ",")),
        ]
    }
    repo["escape"] = match(tok(f"constant.character.escape{S}", r"\\."))
    repo["object"] = match(START, obj(), END)
    repo["number"] = match(START, number(), END)
    repo["signed"] = match(START, signed(), END)
    repo["mana"] = match(START, tok(f"constant.language.mana{S}", tokens["mana"]), END)
    repo["arrow"] = match(
        START,
        tok(f"keyword.operator.arrow{S}", "->"),
        END,
        f"(?:{WS}",
        player(),  # `damage K -> "P"`: a string after the arrow is the damaged player
        f"{END})?",
    )
    repo["player"] = match(START, player(), END)
    repo["text"] = match(START, text(), END)
    repo["misplaced-string"] = match(START, tok(f"invalid.illegal{S}", STRING), END)
    repo["invalid"] = match(tok(f"invalid.illegal{S}", ANY_TOKEN))
    repo["cause"] = match(
        START,
        keyword("by"),
        f"(?:{WS}(?:",
        obj(),
        "|",
        player(),
        "|",
        tok(f"constant.language.sba{S}", "sba"),
        f"){END})?",
        END,
    )
    repo["replacement"] = match(START, keyword("replacement"), END)
    position = word(enum("position"), peg_words(tokens, "position_end"))
    repo["place"] = match(
        START,
        zone(),
        END,
        f"(?:{WS}",
        player(),
        f"{END})?",
        f"(?:{WS}",
        position,
        END,
        f"(?:{WS}",
        number(),
        f"{END})?)?",
    )

    # -- statements about an object: "#N ..."
    repo["object-statement"] = line(
        (
            first,
            obj(),
            END,
            f"(?:{WS}",
            string(f"string.quoted.double.card.identify{S}"),
            f"{END})?",
        ),
        f"meta.statement.object{S}",
        ["comment", "object-phrase"],
    )
    repo["object-phrase"] = {
        "patterns": [
            {"include": "#cast"},
            {"include": "#new"},
            match(START, verb(["identify"]), WS, card(), END),
            match(
                START,
                verb(["target"]),
                END,
                cap("", f"(?:{WS}(?:{OBJECT}|{STRING}){END})*", patterns=("object", "player")),
            ),
            match(START, verb(["attack", "control", "play", "attach"]), WS, player(), END),
            match(START, tok(f"storage.modifier.attached{S}", "attached"), WS, player(), END),
            # `#N phase out | in` (decision 0025): on an object line `phase` is phasing
            match(START, verb(["phase", "turn"]), END),
            # `#N trigger of monarch | initiative | speed` (decisions 0026, 0098)
            match(
                START,
                keyword("of"),
                WS,
                word(f"constant.language.designation{S}", ["monarch", "initiative", "speed"]),
                END,
            ),
            match(START, word(f"storage.modifier.phasing{S}", peg_words(tokens, "phasing")), END),
            # `attacking "P"` as a permanent enters (decision 0020), `owner "Q"` (0021)
            match(START, tok(f"storage.modifier.attacking{S}", "attacking"), WS, player(), END),
            match(START, keyword("owner"), WS, player(), END),
            match(START, verb(["counters"]), WS, signed(), WS, counter_kind(), END),
            # a keyframe entry: `#N battlefield "P" counters 2 +1/+1`
            match(START, keyword("counters"), WS, number(), WS, counter_kind(), END),
            match(
                START,
                keyword("as"),
                WS,
                word(f"storage.type.kind{S}", peg_words(tokens, "kind")),
                END,
            ),
            match(
                START,
                keyword("until"),
                WS,
                word(enum("duration"), peg_words(tokens, "duration")),
                END,
            ),
            match(START, keyword("life"), WS, number(), END),
            match(START, keyword("tax"), WS, number(), END),  # a commander's tax (0031)
            # a keyframe entry's `damage K` (decision 0060), not a damage event's `damage K ->`
            match(START, keyword("damage"), WS, number(), END, f"(?!{WS}->)"),
            match(START, verb(OBJECT_VERBS), END),
            *(
                match(START, keyword(w), END)
                for w in (
                    "of",
                    "as",
                    "from",
                    "on",
                    "until",
                    "life",
                    "tax",
                    "owner",
                    "combat",
                    "half",
                )
            ),
            *(match(START, tok(f"storage.modifier.{w}{S}", w), END) for w in MODIFIERS),
            {"include": "#cause"},
            {"include": "#replacement"},
            {"include": "#place"},
            {"include": "#arrow"},
            {"include": "#object"},
            {"include": "#number"},
            {"include": "#signed"},
            {"include": "#mana"},
            {"include": "#text"},
            {"include": "#invalid"},
        ]
    }
    repo["new"] = match(
        START,
        verb(["new"]),
        END,
        f"(?:{WS}(?:",
        word(f"storage.type.object{S}", ["card", "token", "commander", "emblem"]),
        f"{END}(?:{WS}",
        card(),
        f"{END})?|",
        word(f"storage.type.object{S}", ["hidden", "copy"]),
        f"{END}))?",
    )
    # the cast modes are words only after `cast`: a region to the end of the phrase
    repo["cast"] = region(
        (START, verb(["cast"]), END, f"(?:{WS}", player(), f"{END})?"),
        r"(?=//|$)",
        "",
        [
            match(
                START,
                word(f"storage.modifier.cast-mode{S}", peg_words(tokens, "cast_mode")),
                END,
            ),
            match(START, keyword("half"), WS, card(), END),  # decision 0064
            "object-phrase",
        ],
    )

    # -- statements about a player: "\"P\" ..."
    repo["player-statement"] = line(
        (first, player(), END),
        f"meta.statement.player{S}",
        ["comment", "player-phrase"],
    )
    repo["player-phrase"] = {
        "patterns": [
            match(START, verb(["draw"]), WS, obj(), END, f"(?:{WS}", card(), f"{END})?"),
            match(
                START,
                verb(["search"]),
                WS,
                word(enum("zone"), peg_words(tokens, "searched_zone")),
                END,
                f"(?:{WS}",
                player(),
                f"{END})?",
            ),
            match(
                START,
                verb(["shuffle"]),
                WS,
                tok(enum("zone"), "library"),
                END,
                f"(?:{WS}",
                player(),
                f"{END})?",
            ),
            match(
                START,
                verb(["counters"]),
                WS,
                cap("", f"{SIGNED}|{NUMBER}", patterns=("signed", "number")),
                WS,
                counter_kind(),
                END,
            ),
            match(START, verb(["roll"]), WS, tok(f"support.type.die{S}", tokens["die"]), END),
            # a coin flip (decision 0110): `flip won`
            match(
                START,
                verb(["flip"]),
                WS,
                word(f"keyword.other.coin{S}", peg_words(tokens, "coin_result")),
                END,
            ),
            # sideboarding between games (decision 0030): `sideboard in 2 "Name"`
            match(
                START,
                verb(["sideboard"]),
                WS,
                word(f"keyword.other.sideboard{S}", peg_words(tokens, "sideboard_way")),
                END,
                f"(?:{WS}",
                number(),
                f"{END})?",
                f"(?:{WS}",
                card(),
                f"{END})?",
            ),
            {"include": "#deck"},
            # `venture "Room"` (decision 0063): the room's name
            match(START, verb(["venture"]), WS, text(), END),
            # `ring-bearer #M tempted K` in a keyframe (decision 0062)
            match(START, keyword("tempted"), f"(?:{WS}", number(), ")?", END),
            # `damage K from #M` in a keyframe: a commander's combat damage (decision 0101)
            match(START, verb(["damage"]), WS, number(), WS, keyword("from"), WS, obj(), END),
            match(START, keyword("from"), END),
            match(START, verb(PLAYER_VERBS), END),
            {"include": "#cause"},
            {"include": "#replacement"},
            {"include": "#object"},
            {"include": "#number"},
            {"include": "#signed"},
            {"include": "#mana"},  # `"P" mana {G}` (decision 0071)
            {"include": "#misplaced-string"},
            {"include": "#invalid"},
        ]
    }

    # -- structure and header: a keyword first
    def structure_line(w: str, after: tuple[Part, ...] = (), patterns: tuple[str, ...] = ()):
        begin: tuple[Part, ...] = (first, structure(w), END)
        if after:
            begin = (*begin, f"(?:{WS}", *after, f"{END})?")
        return line(begin, f"meta.statement.{w}{S}", ["comment", *patterns, "rest-invalid"])

    phase = word(enum("phase"), peg_words(tokens, "phase_name"))
    step = word(enum("step"), peg_words(tokens, "step_name"))
    repo["structure-statement"] = {
        "patterns": [
            structure_line("mtgr", (tok(f"constant.numeric.version{S}", tokens["version"]),)),
            structure_line("title", (text(),)),
            structure_line("rules", (tok(f"constant.numeric.date{S}", tokens["date"]),)),
            structure_line("variant", (word(enum("variant"), peg_words(tokens, "variant_name")),)),
            structure_line("player", (player(),), ("deck",)),
            # a judge's lines (decision 0033): tournament events, not the game's
            structure_line(
                "judge",
                (
                    word(
                        f"keyword.other.judge{S}",
                        ["call", "penalty", "missed-trigger", "time", "backup"],
                    ),
                ),
                ("judge-parts", "cause"),
            ),
            structure_line(
                "perspective", ("(?:", player(), "|", tok(f"constant.language.all{S}", "all"), ")")
            ),
            structure_line("start", (player(),), ("cause",)),
            structure_line("game", ("(?:", number(), "|", keyword("drawn"), ")"), ("cause",)),
            structure_line(
                "match",
                (
                    "(?:",
                    player(),
                    "|",
                    keyword("drawn"),
                    ")",
                    END,
                    f"(?:{WS}",
                    tok(f"constant.numeric.score{S}", tokens["score"]),
                    f"{END})?",
                ),
            ),
            structure_line("turn", (number(), f"(?:{WS}", player(), f"{END})?"), ("cause",)),
            structure_line("phase", (phase,), ("cause",)),
            structure_line("step", (step,), ("cause",)),
            structure_line("incomplete"),
            structure_line("keyframe"),
            structure_line("end"),
            structure_line("day", (), ("cause",)),  # decision 0026
            structure_line("night", (), ("cause",)),
        ]
    }
    repo["judge-parts"] = {
        "patterns": [
            match(START, word(enum("penalty"), peg_words(tokens, "penalty")), END),
            match(START, word(enum("remedy"), peg_words(tokens, "remedy")), END),
            match(START, word(enum("designation"), peg_words(tokens, "missed_designation")), END),
            match(START, keyword("turns"), WS, number(), END),
            match(
                START,
                keyword("allow"),
                END,
                cap(
                    "",
                    f"(?:{WS}{tokens['diagnostic_code']}{END})*",
                    patterns=("diagnostic-code",),
                ),
            ),
            *(match(START, keyword(w), END) for w in ("turns", "allow")),
            match(
                START, tok(f"constant.language.diagnostic-code{S}", tokens["diagnostic_code"]), END
            ),
            {"include": "#object"},
            {"include": "#player"},
            {"include": "#text"},
            {"include": "#number"},
        ]
    }
    repo["deck"] = match(START, keyword("deck"), END, f"(?:{WS}", number(), f"{END})?")
    repo["rest-invalid"] = {"patterns": [{"include": "#misplaced-string"}, {"include": "#invalid"}]}

    # -- a line that starts with anything else: its first token is wrong
    repo["unknown-statement"] = line(
        (first, tok(f"invalid.illegal{S}", ANY_TOKEN)),
        f"meta.statement.unknown{S}",
        ["comment", "object-phrase"],
    )

    return {
        "name": "mtgr",
        "scopeName": "source.mtgr",
        "fileTypes": ["mtgr"],
        "comment": (
            "Generated by syntaxes/build_grammar.py from server/mtgr/syntax/mtgr.peg: "
            "edit the script, not this file."
        ),
        "patterns": [
            {"include": "#comment"},
            {"include": "#object-statement"},
            {"include": "#player-statement"},
            {"include": "#structure-statement"},
            {"include": "#unknown-statement"},
        ],
        "repository": repo,
    }


def render(grammar: Json) -> str:
    return json.dumps(grammar, indent=2, ensure_ascii=False) + "\n"


def render_plist(grammar: Json) -> str:
    """The grammar as an XML property list, keys in the JSON's order."""
    return plistlib.dumps(grammar, sort_keys=False).decode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if an output is out of date")
    args = parser.parse_args(argv)
    grammar = build(PEG.read_text(encoding="utf-8"))
    outputs = {OUTPUT: render(grammar), PLIST_OUTPUT: render_plist(grammar)}
    if args.check:
        stale = [
            path
            for path, rendered in outputs.items()
            if (path.read_text(encoding="utf-8") if path.exists() else "") != rendered
        ]
        for path in stale:
            print(f"{path} is out of date: run python {Path(__file__).relative_to(ROOT)}")
        return 1 if stale else 0
    for path, rendered in outputs.items():
        path.write_text(rendered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
