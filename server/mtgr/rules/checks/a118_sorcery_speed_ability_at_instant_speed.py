"""An ability that is activated only as a sorcery, activated at another time.

## What it flags
An `activate of #M` line without `by`, where every activated ability of the face M has up
is one activated only as a sorcery (equip, fortify, reconfigure, level up, outlast,
saddle, station, a Class's level bar, or an ability that says "Activate only as a
sorcery"), when it is not
its controller's main phase with an empty stack. Silent without a card index, for a
face-down permanent, for a permanent with an ability that can be activated at other times
(a mana ability, crew, any other cost before a colon), and when the lines show something
that could grant it another ability or let it be activated at instant speed (Leonin
Shikari, a permanent whose text gives abilities in quotes).

## Why
Equip means "Attach this permanent to target creature you control. Activate only as a
sorcery" (CR 702.6a), and an ability activated only as a sorcery follows the timing rules
for casting a sorcery (CR 602.5d): in its controller's main phase, with an empty stack.
An Equipment moved to a blocker in the declare blockers step is a classic illegal play. A
Class's level bar "{1}{G}: Level 2" is activated only as a sorcery too (CR 716.2a).

## Example
```mtgr
step declare-blockers
#40 activate of #12
#40 target #7
```
(#12 Bonesplitter, equipped to #7 in combat.)

## Use instead
```mtgr
phase main
#40 activate of #12
#40 target #7
```

## Rules basis
- Decision 0023 item 1: an equip ability attaches with `#N attach #M by` the ability.
- Decision 0070 items 1 and 3: an activation an effect allows names it with `by`; one without follows the normal rules.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 602.5d: "Activated abilities that read "Activate only as a sorcery" mean the player must follow the timing rules for casting a sorcery spell, though the ability isn't actually a sorcery."
- CR 702.6a: "Equip is an activated ability of Equipment cards."
- CR 716.2a: "This Class's level becomes N. Activate only if this Class is level N-1 and only as a sorcery"
- CR 307.1: "A player who has priority may cast a sorcery card from their hand during a main phase of their turn when the stack is empty."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import activated_under_the_rules, could_be_given, face_up
from mtgr.rules.context import Context
from mtgr.rules.describe import sorcery_timing_problems
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A118",
    "Ability activated only as a sorcery at another time",
    severity=Severity.ERROR,
    decisions=("0023.1", "0070.1", "0070.3", "0050.3"),
    cr=("602.5d", "702.6a", "716.2a", "307.1"),
    doc=__doc__,
)

# keyword abilities of a permanent that are activated only as a sorcery (CR 702.6a, 702.67a,
# 702.151a, 702.87a, 702.107a, 702.171a, 702.184a), and one that is not
_SORCERY_KEYWORDS = ("equip", "fortify", "reconfigure", "level up", "outlast", "saddle", "station")
_OTHER_KEYWORDS = ("crew",)
_CLASS_LEVEL_BAR = re.compile(r":\s*level \d+$")  # "{1}{g}: level 2" (CR 716.2a)
_MAY_BE_OTHERWISE = ('have "', 'has "', "any time you could cast an instant", "as though")


@RULE.on(t.AbilityOf, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    permanent = activated_under_the_rules(ctx, statement)
    if permanent is None or not _only_sorcery_speed(ctx, permanent):
        return
    problems = sorcery_timing_problems(ctx.state, permanent.controller or permanent.owner)
    if not problems or could_be_given(ctx, permanent, _MAY_BE_OTHERWISE):
        return
    ctx.report(
        RULE,
        f"every activated ability of {permanent.label()} is activated only as a sorcery, in "
        "its controller's main phase with an empty stack, and here "
        + "; ".join(problems)
        + " (CR 602.5d)",
        statement.verb.span,
        related=ctx.where(permanent),
    )


def _only_sorcery_speed(ctx: Context, permanent: GameObject) -> bool:
    card = ctx.card(permanent)
    if card is None or permanent.face_down:
        return False
    sorcery_speed = False
    for line in face_up(card, permanent).rules_lines():
        if ":" in line:
            if "activate only as a sorcery" not in line and not _CLASS_LEVEL_BAR.search(line):
                return False
            sorcery_speed = True
            continue
        for item in (item.strip() for item in line.split(",")):
            if _is_keyword(item, _OTHER_KEYWORDS):
                return False
            if _is_keyword(item, _SORCERY_KEYWORDS):
                sorcery_speed = True
    return sorcery_speed


def _is_keyword(item: str, keywords: tuple[str, ...]) -> bool:
    """Whether a listed item is one of the keywords, with its cost after it ("equip {2}",
    "equip\u2014pay 3 life"), and not a word that starts like it ("equipped creature")."""
    return any(
        item == keyword or item.startswith((keyword + " ", keyword + "\u2014"))
        for keyword in keywords
    )
