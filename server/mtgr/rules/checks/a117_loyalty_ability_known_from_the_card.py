"""A loyalty ability, known from the card, activated twice in a turn or at the wrong time.

## What it flags
An `activate of #M` line without `by`, where the face M has up is a planeswalker whose
every activated ability is a loyalty ability, when an ability of M was already activated
this turn, or it is not its controller's main phase, or the stack is not empty. Without
a card index K330 sees a loyalty ability only by its loyalty counters, and a [0] ability
has none; with one, this rule reports at the `activate` line and K330 leaves those
planeswalkers to it. Silent after an `incomplete` in the step, for a face-down
permanent, and when the lines show something that could allow more (its own text or
another permanent's speaks of loyalty abilities: The Wandering Emperor, Oath of Teferi).

## Why
A player may activate a loyalty ability of a permanent they control any time they have
priority and the stack is empty during a main phase of their turn, but only if no
player has activated a loyalty ability of that permanent that turn (CR 606.3). Jace,
the Mind Sculptor's [0] twice in a turn is as illegal as his +2 twice.

## Example
```mtgr
#20 activate of #8
#20 resolve
#21 activate of #8
```
(#8 Jace, the Mind Sculptor: his [0], Brainstorm, twice.)

## Use instead
```mtgr
#20 activate of #8
#20 resolve
```

## Rules basis
- Decision 0044 item 2: loyalty abilities once a turn, at sorcery speed.
- Decision 0070 items 1 and 3: an activation an effect allows names it with `by`; one without follows the normal rules.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 606.3: "A player may activate a loyalty ability of a permanent they control any time they have priority and the stack is empty during a main phase of their turn, but only if no player has previously activated a loyalty ability of that permanent that turn."
"""

from __future__ import annotations

from mtgr.rules.card_facts import (
    activated_under_the_rules,
    activates_only_loyalty_abilities,
    could_be_given,
)
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A117",
    "Loyalty ability activated twice or at the wrong time",
    severity=Severity.ERROR,
    decisions=("0044.2", "0070.1", "0070.3", "0050.3"),
    cr=("606.3",),
    doc=__doc__,
)


@RULE.on(t.AbilityOf, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    state = ctx.state
    turn = state.turn
    permanent = activated_under_the_rules(ctx, statement)
    if permanent is None or not activates_only_loyalty_abilities(ctx, permanent):
        return
    if permanent.number in turn.activated or permanent.number in turn.loyalty_used:
        problem = "a loyalty ability of it was already activated this turn"
    elif permanent.controller != turn.player:
        problem = f"it is {turn.player}'s turn, not its controller's"
    elif turn.phase != "main":
        problem = "it is not a main phase"
    elif state.stack:
        problem = "the stack is not empty"
    else:
        return
    if could_be_given(ctx, permanent, ("loyalty abilit",), any_effect_on_it=True):
        return
    ctx.report(
        RULE,
        f"every activated ability of {permanent.label()} is a loyalty ability, but {problem}: "
        "a loyalty ability is activated once a turn a permanent, by its controller, in their "
        "main phase with an empty stack (CR 606.3)",
        statement.verb.span,
        related=ctx.where(permanent),
    )
