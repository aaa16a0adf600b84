"""A loyalty ability activated a second time in a turn, or not at sorcery speed.

## What it flags
The loyalty cost of a planeswalker's activated ability (`#8 counters -2 loyalty by #20`,
where #20 is the ability being activated, decision 0017 item 3) when a loyalty ability
of the same permanent was already activated this turn, or when it is not its
controller's main phase with an empty stack.

## Why
A player may activate a loyalty ability of a permanent they control only while they have
priority and the stack is empty during a main phase of their own turn, and only if no
player has activated a loyalty ability of that permanent this turn (CR 606.3). A second
activation, or one in response to something, is an illegal play a recording must not
let pass (decision 0044 item 2). A [0] ability pays no loyalty, writes no counters line,
and is not seen. An activation that an effect allows beyond these limits (Oath of
Teferi's second activation, The Chain Veil's, a Teferi emblem's at instant speed) names
that effect's object on its `activate` line: `#21 activate of #8 by #30`, and is not
flagged (decision 0070). With a card index, a planeswalker whose activated abilities are
all loyalty abilities is A117's, which reports at the `activate` line and sees [0]
abilities too.

## Example
```mtgr
#20 activate of #8
#8 counters +1 loyalty by #20
#20 resolve
#21 activate of #8
#8 counters -2 loyalty by #21
```

## Use instead
```mtgr
#20 activate of #8
#8 counters +1 loyalty by #20
#20 resolve
#21 activate of #8 by #30     // #30: Oath of Teferi allows a second one
#8 counters -2 loyalty by #21
```

## Rules basis
- Decision 0044 item 2, decision 0017 item 3, decision 0070.
- CR 606.3: "A player may activate a loyalty ability of a permanent they control any time they have priority and the stack is empty during a main phase of their turn, but only if no player has previously activated a loyalty ability of that permanent that turn."
"""

from mtgr.rules.card_facts import activates_only_loyalty_abilities
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage, loyalty_cost_of
from mtgr.syntax import tree as t

RULE = define(
    "K330",
    "Loyalty ability not allowed",
    severity=Severity.ERROR,
    decisions=("0044.2", "0017.3", "0070.1"),
    cr=("606.3",),
    doc=__doc__,
)


@RULE.on(t.ObjectCounters, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if quiet(ctx) or state.incomplete_since_step:
        return
    ability = loyalty_cost_of(state, statement)
    if ability is None:
        return
    assert isinstance(statement, t.ObjectCounters)
    permanent = state.obj(statement.subject.number)
    activation = state.obj(ability)
    if permanent is None or (activation is not None and activation.permission is not None):
        return  # an effect allows this activation (decision 0070)
    if ctx.cards is not None and activates_only_loyalty_abilities(ctx, permanent):
        return  # A117 judged its `activate` line
    turn = state.turn
    if turn.player is None:
        return  # no turn line yet: whose turn it is is unknown
    if permanent.number in turn.loyalty_used:
        problem = "a loyalty ability of it was already activated this turn"
    elif permanent.controller != turn.player:
        problem = f"it is {turn.player}'s turn, not its controller's"
    elif turn.phase != "main":
        problem = "it is not a main phase"
    elif len(state.stack) > 1:
        problem = "the stack is not empty"
    else:
        return
    ctx.report(
        RULE,
        f"#{ability} is a loyalty ability of {permanent.label()}, but {problem}: a loyalty "
        "ability is activated once a turn a permanent, by its controller, in their main phase "
        "with an empty stack (CR 606.3)",
        statement.verb.span,
        related=ctx.where(permanent),
    )
