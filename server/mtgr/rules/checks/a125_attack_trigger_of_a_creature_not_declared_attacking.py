"""An attack trigger of a creature that was not declared as an attacker.

## What it flags
`#N trigger of #M` when every triggered ability of the face of #M's card is a "Whenever
[this creature] attacks" ability (Goblin Guide, Ophidian), and #M is not attacking, or
entered the battlefield attacking (a ninja, a token made attacking). Silent without a card
index, for a card with any other triggered ability ("attacks or blocks", "attacks and
isn't blocked", a keyword that triggers: prowess, exalted, dash), for a trigger of a
trigger (`by #A`), where a lasting effect on #M, something attached to it or another
permanent's text could give it another ability (Sublime Archangel's exalted) or make it a
copy, when a gap ended in this turn's combat (a keyframe does not show who attacks), and
for a missed trigger a judge had put on the stack (decision 0106).

## Why
"Whenever [a creature] attacks" triggers if that creature is declared as an attacker, and
not if it is put onto the battlefield attacking (CR 508.3a). Goblin Guide's trigger on a
turn it blocked is a line that did not happen, or one for another creature.

## Example
```mtgr
step declare-blockers
#1 block #5
#10 trigger of #1
```
(#1 Goblin Guide.)

## Use instead
```mtgr
step declare-attackers
#1 attack "Bob"
#10 trigger of #1
```

## Rules basis
- Decision 0074 item 1: triggered abilities are written as they trigger, in APNAP order.
- Decision 0020 item 2: a creature that enters attacking was never declared as an attacker.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 508.3a: "An ability that reads "Whenever [a creature] attacks, . . ." triggers if that creature is declared as an attacker."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import (
    GIVES_ABILITIES,
    could_be_given,
    face_up,
    may_gain_abilities,
    only_static_keywords,
)
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A125",
    "Attack trigger of a creature not declared as an attacker",
    severity=Severity.ERROR,
    decisions=("0074.1", "0020.2", "0050.3"),
    cr=("508.3a",),
    doc=__doc__,
)

_TRIGGER = re.compile(r"^(?:when|whenever|at)\b")


@RULE.on(t.AbilityOf, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    if statement.verb.value != "trigger" or statement.source is None:
        return
    if statement.cause is not None:
        return  # a trigger of a trigger (decision 0074 item 2)
    state = ctx.state
    number = statement.source.number
    source = state.obj(number)
    if source is None or state.judge_added == number or state.turn.combat_unseen:
        return  # (a keyframe in this combat does not show who attacks, decision 0020 item 6)
    card = ctx.card(source)
    if card is None or source.face_down or source.zone != "battlefield":
        return
    if not only_static_keywords(card):
        return  # prowess, exalted, dash: triggers its keywords hide
    face = face_up(card, source)
    if not _only_attack_triggers(face.rules_lines(), face.name):
        return
    if source.attacking and not source.entered_attacking:
        return
    if may_gain_abilities(ctx, number) or could_be_given(ctx, source, GIVES_ABILITIES):
        return
    why = "entered the battlefield attacking" if source.attacking else "is not attacking"
    ctx.report(
        RULE,
        f"{source.label()} triggers only when it is declared as an attacker, and it {why} "
        "(CR 508.3a); write the trigger where it attacked, or name its real source",
        statement.source.span,
        related=ctx.where(source),
    )


def _only_attack_triggers(lines: list[str], name: str) -> bool:
    """Whether every triggered ability of the lines is "Whenever [this creature] attacks"
    (by its name, its short name or "this creature"), and there is one."""
    names = {name.casefold(), name.split(",")[0].casefold(), "this creature"}
    pattern = re.compile(
        r"^whenever (?:" + "|".join(re.escape(n) for n in names) + r") attacks\b(?! or| and)"
    )
    triggers = [line for line in lines if _TRIGGER.match(line)]
    return bool(triggers) and all(pattern.match(line) for line in triggers)
