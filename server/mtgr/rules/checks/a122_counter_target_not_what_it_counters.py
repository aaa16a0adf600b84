"""A spell that counters "target [kind of] spell" or ability targets something else.

## What it flags
A `target` line of a spell whose text counters "target spell", "target noncreature
spell", "target creature spell", "target instant or sorcery spell" or "target activated
or triggered ability", when the object it names is an ability (or a copy of one:
Strionic Resonator's) where a spell is asked for, a spell where an ability is, or a spell whose card types the description rules out
(Force of Negation on a creature spell). Reads the targeted spell's card when it has one
face (a split, adventurer or double-faced card is left alone: which face is on the stack
the lines do not always say). Silent without a card index, for a description this rule
does not read wholly (a color, "with", a mana value), and when the lines show something
that could change a spell's types.

## Why
A target must be an appropriate object for what the spell's text says (CR 115.1a, 601.2c):
Counterspell's "target spell" is not an activated ability, and Negate's "noncreature
spell" is not a creature spell. To counter is to cancel a spell or ability on the stack
(CR 701.6a); a spell that says which can counter only that.

## Example
```mtgr
#11 "Baneslayer Angel" cast
#5 cast
#5 target #11
```
(#5 Force of Negation: "Counter target noncreature spell.")

## Use instead
```mtgr
#11 "Jace, the Mind Sculptor" cast
#5 cast
#5 target #11
```

## Rules basis
- Decision 0011 item 4: `#N target ...` gives the targets of spell or ability N.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 115.1a: "An instant or sorcery spell is targeted if its spell ability identifies something it will affect by using the phrase "target [something]," where the "something" is a phrase that describes an object and/or player."
- CR 601.2c: "The player announces their choice of an appropriate object or player for each target the spell requires."
- CR 701.6a: "To counter a spell or ability means to cancel it, removing it from the stack."
- CR 707.10: "A copy of a spell is itself a spell, even though it has no spell card associated with it. A copy of an ability is itself an ability."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, ObjectKind, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A122",
    "Counterspell targets what it does not counter",
    severity=Severity.ERROR,
    decisions=("0011.4", "0050.3"),
    cr=("115.1a", "601.2c", "701.6a", "707.10"),
    doc=__doc__,
)

_COUNTER = re.compile(r"^counter target ([^.]*)", re.IGNORECASE | re.MULTILINE)
_CUT = re.compile(r" unless | with | that |, then | if ")
_ALTERNATIVES = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")
_TYPES = frozenset(
    ["creature", "artifact", "enchantment", "instant", "sorcery", "planeswalker", "battle"]
)
_PERMANENT = frozenset(["creature", "artifact", "enchantment", "planeswalker", "battle", "land"])
_CHANGES_TYPES = (
    "in addition to its other types",
    "in addition to their other types",
    "is an artifact",
    "are artifacts",
)


@RULE.on(t.Target, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Target)
    state = ctx.state
    spell = state.obj(statement.subject.number)
    if spell is None or spell.kind is ObjectKind.ABILITY or spell.zone != "stack":
        return
    card = ctx.card(spell)
    if card is None or len(card.faces) != 1:
        return
    wanted = _counters(card.front.oracle_text)
    if wanted is None:
        return
    phrase, alternatives = wanted
    for ref in statement.targets:
        if not isinstance(ref, t.ObjectRef):
            continue
        target = state.obj(ref.number)
        if target is None or target.zone != "stack":
            continue
        problem = _not_wanted(ctx, alternatives, target)
        if problem is None:
            continue
        ctx.report(
            RULE,
            f"{spell.label()} counters target {phrase}, and {target.label()} {problem} "
            "(CR 115.1a, 601.2c): name a target its text allows",
            ref.span,
            related=ctx.where(target),
        )


def _counters(text: str) -> tuple[str, list[list[str]] | None] | None:
    """What the text counters: its description and, for a spell, the type alternatives (an
    empty list for any spell; None for an ability); None when it is not read wholly."""
    match = _COUNTER.search(text)
    if match is None:
        return None
    phrase = _CUT.split(match.group(1).casefold())[0].strip()
    if phrase in ("activated or triggered ability", "activated ability", "triggered ability"):
        return phrase, None
    if "ability" in phrase or not phrase.endswith("spell"):
        return None
    alternatives = []
    for alternative in _ALTERNATIVES.split(phrase.removesuffix("spell").strip()):
        words = alternative.split()
        if any(word.removeprefix("non") not in _TYPES | {"permanent"} for word in words):
            return None
        alternatives.append(words)
    return phrase, [words for words in alternatives if words]


def _not_wanted(
    ctx: Context, alternatives: list[list[str]] | None, target: GameObject
) -> str | None:
    """Why the target is not what the text counters, or None if it may be."""
    is_ability = _is_ability(ctx, target)
    if alternatives is None:
        return None if is_ability else "is a spell, not an ability"
    if is_ability:
        return "is an ability, not a spell"
    if not alternatives:
        return None
    card = ctx.card(target)
    if card is None or len(card.faces) != 1 or could_be_given(ctx, target, _CHANGES_TYPES):
        return None
    if card.has_keyword("Bestow") or card.has_keyword("Mutate"):
        return None  # cast bestowed it is an Aura spell, not a creature spell (CR 702.103b)
    types = {word.casefold() for word in card.front.types()}
    if any(all(_has(types, word) for word in words) for words in alternatives):
        return None
    return f"is a {card.front.type_line} spell"


def _has(types: set[str], word: str) -> bool:
    if word.startswith("non"):
        return not _has(types, word.removeprefix("non"))
    if word == "permanent":
        return bool(types & _PERMANENT)
    return word in types


def _is_ability(ctx: Context, obj: GameObject) -> bool:
    """An ability, or a copy of one (Strionic Resonator's): a copy of an ability is itself
    an ability (CR 707.10)."""
    seen: set[int] = set()
    while obj.kind is ObjectKind.COPY and obj.source is not None and obj.number not in seen:
        seen.add(obj.number)
        original = ctx.state.obj(obj.source)
        if original is None:
            return False
        obj = original
    return obj.kind is ObjectKind.ABILITY
