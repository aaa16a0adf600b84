"""A payment of more life than the payer has.

## What it flags
A `pay` line whose `life K` costs add up to more than the payer's life total before it:
the player who pays is the spell's or ability's controller, or the player named with
`by` (decision 0017 items 2 and 4). Paying 0 life is always allowed, and exactly one's
whole life total is a legal payment (the player then loses as state-based actions are
checked). Nothing is judged in a gap or inside a keyframe.

## Why
A player can pay life only if their life total is greater than or equal to the payment
(CR 119.4); a cost can't be paid without the resources to pay it fully (CR 118.3). With
5 life, Griselbrand's "Pay 7 life: Draw seven cards" can't be activated, and Watery
Grave can't be paid for at 1 life. The life totals the record states say the payment was
illegal, or a life line before it is missing or wrong.

## Example
```mtgr
"Alice" life -16 by #30
#12 activate of #5
#12 pay life 7
```

## Use instead
```mtgr
"Alice" life -12 by #30
#12 activate of #5
#12 pay life 7
```

## Rules basis
- Decision 0017 items 2 and 4: `pay life K` lowers the payer's life by K; the payer is the controller unless `by` names another player.
- CR 119.4: "If a cost or effect allows a player to pay an amount of life greater than 0, the player may do so only if their life total is greater than or equal to the amount of the payment."
- CR 118.3: "A player can't pay a cost without having the necessary resources to pay it fully."
- CR 119.4b: "Players can always pay 0 life, no matter what their (or their team's) life total is, and even if an effect says players can't pay life."
"""

from mtgr.rules.context import Context
from mtgr.rules.mana import payer
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "K345",
    "Life paid without having it",
    severity=Severity.ERROR,
    decisions=("0017.2", "0017.4"),
    cr=("119.4", "118.3", "119.4b"),
    doc=__doc__,
)


@RULE.on(t.Pay, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Pay)
    costs = [cost for cost in statement.costs if isinstance(cost, t.LifeCost)]
    paid = sum(cost.amount.value for cost in costs)
    if paid <= 0:
        return
    who = payer(ctx.state, statement)
    player = ctx.state.player(who) if who is not None else None
    if player is None or player.lost or paid <= player.life:
        return
    ctx.report(
        RULE,
        f'"{player.name}" pays {paid} life with {player.life} life: a player may pay life only '
        "if their life total is at least the payment (CR 119.4, 118.3); check the life lines "
        "before this one, or whether this cost was paid",
        costs[0].span if len(costs) == 1 else statement.verb.span,
    )
