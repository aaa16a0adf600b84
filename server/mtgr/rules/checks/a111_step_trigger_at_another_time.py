"""A "beginning of your step" trigger written in another player's turn or another step.

## What it flags
`#N trigger of #M` when every triggered ability on the face of #M's card begins "At the
beginning of your" and names a step or phase (Dark Confidant's upkeep, Sylvan Library's
draw step, The Chain Veil's end step), and the line stands in a turn of another player than
#M's controller, or in another step. Silent without a card index, for a card with any other
triggered ability (Ichorid's "At the beginning of the end step", a keyword that triggers:
undying, myriad), for a trigger of a trigger (`by #A`), where a lasting effect on #M,
something attached to it or another permanent's text could give it another ability
(Mikaeus's undying), for a delayed "your next upkeep" trigger of a card off the
battlefield (a Pact's is its caster's, who may not be its owner), and for a missed trigger
a judge had put on the stack (decision 0106).

## Why
"At the beginning of your upkeep" triggers only at the beginning of its controller's
upkeep, once (CR 503.1a, 603.2b); the others likewise at the beginning of their step or
phase of their controller's turn. Such a trigger in the other player's turn is a line for
the wrong player's permanent, or a trigger that did not happen.

## Example
```mtgr
turn 6 "Alice"
step upkeep
#30 trigger of #12
```
(#12 Bob's Phyrexian Arena.)

## Use instead
```mtgr
turn 7 "Bob"
step upkeep
#30 trigger of #12
```

## Rules basis
- Decision 0074 item 1: triggered abilities are written as they trigger, in APNAP order.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 603.2b: "When a phase or step begins, all abilities that trigger "at the beginning of" that phase or step trigger."
- CR 503.1a: "Any abilities that triggered during the untap step and any abilities that triggered at the beginning of the upkeep are put onto the stack before the active player gets priority; the order in which they triggered doesn't matter."
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
from mtgr.rules.state import Stage, source_controller
from mtgr.syntax import tree as t

RULE = define(
    "A111",
    "Step trigger in another player's turn or step",
    severity=Severity.ERROR,
    decisions=("0074.1", "0050.3"),
    cr=("603.2b", "503.1a"),
    doc=__doc__,
)

# the step a "beginning of your ..." trigger names, as the record's step lines name it
_STEPS = {
    "upkeep": "upkeep",
    "next upkeep": "upkeep",
    "draw step": "draw",
    "end step": "end",
    "next end step": "end",
}
_TRIGGER = re.compile(r"^(?:when|whenever|at)\b")
_YOUR_STEP = re.compile(r"^at the beginning of your (" + "|".join(_STEPS) + r")\b")


@RULE.on(t.AbilityOf, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    if ctx.cards is None or statement.verb.value != "trigger" or statement.source is None:
        return
    if statement.cause is not None:
        return  # a trigger of a trigger (decision 0074 item 2)
    state = ctx.state
    turn = state.turn
    number = statement.source.number
    if turn.step is None or state.judge_added == number:
        return
    source = state.obj(number)
    card = ctx.card(source) if source is not None else None
    if source is None or card is None:
        return
    if card.layout == "split":  # a Room: each door's abilities, once unlocked (CR 709.5)
        lines = [line for face in card.faces for line in face.rules_lines()]
    else:
        lines = face_up(card, source).rules_lines()
    step = _only_your_step(lines)
    if step is None or may_gain_abilities(ctx, number) or not only_static_keywords(card):
        return
    if could_be_given(ctx, source, GIVES_ABILITIES):
        return  # Mikaeus gives undying, Legion Loyalty myriad
    if source.zone != "battlefield" and any("your next" in line for line in lines):
        return  # a Pact's delayed trigger is its caster's, who may not be its owner (603.7d)
    controller = source_controller(state, source)
    if turn.player == controller and turn.step == step:
        return
    when = (
        f"this is {turn.player}'s turn, and {controller} controls it"
        if turn.player != controller
        else f"this is the {turn.step} step"
    )
    ctx.report(
        RULE,
        f"{source.label()} triggers only at the beginning of its controller's {step} step "
        f"(CR 603.2b), but {when}; write the trigger where it happened, or name its real source",
        statement.source.span,
        related=ctx.where(source),
    )


def _only_your_step(lines: list[str]) -> str | None:
    """The step every triggered ability of the lines names ("At the beginning of your
    upkeep"), or None when one triggers otherwise (or there is none)."""
    steps = set()
    for line in lines:
        if not _TRIGGER.match(line):
            continue
        found = _YOUR_STEP.match(line)
        if found is None:
            return None
        steps.add(_STEPS[found.group(1)])
    return steps.pop() if len(steps) == 1 else None
