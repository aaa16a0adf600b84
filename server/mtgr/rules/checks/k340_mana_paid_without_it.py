"""A payment of more mana, or other mana, than the record shows in the payer's pool.

## What it flags
A `pay` line whose mana the payer's mana pool cannot hold, when the record states that
pool: the `mana` lines of that player since the step or phase began (decision 0071), less
what earlier `pay` lines spent. It is checked only while every mana ability of the player
in the step has its `mana` line, so a pool with mana the record does not state is never
judged (a mana ability's cost is a tap, a move or counters a permanent removes from
itself, decision 0091); a pool that emptied as a step or phase ended holds nothing.

## Why
Mana paid is removed from its player's mana pool, and a cost cannot be paid without the
resources to pay it fully (CR 118.3, 118.3a). Mana abilities are activated before costs
are paid (CR 601.2g), and each player's pool empties at the end of each step and phase
(CR 106.4): mana made in the upkeep is gone in the draw step. A payment the stated mana
cannot cover means a mana line is wrong or missing, or the payment was illegal.

## Example
```mtgr
#1 tap by #1
"Alice" mana {R} by #1
#3 pay {G}
```

## Use instead
```mtgr
#2 tap by #2
"Alice" mana {G} by #2
#3 pay {G}
```

## Rules basis
- Decision 0071 items 1 to 4; decision 0091 item 1: counters a permanent removes from itself may pay its mana ability's cost.
- CR 106.4: "Each player's mana pool empties at the end of each step and phase, and the player is said to lose this mana."
- CR 118.3: "A player can't pay a cost without having the necessary resources to pay it fully."
- CR 118.3a: "Paying mana is done by removing the indicated mana from a player's mana pool."
- CR 601.2g: "Mana abilities must be activated before costs are paid."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.mana import (
    after_paying,
    can_pay,
    describe,
    is_mana_cost,
    payer,
    pool_of,
    requirement,
)
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "K340",
    "Mana paid without it",
    severity=Severity.ERROR,
    decisions=("0071.1", "0071.2", "0071.3", "0071.4", "0091.1"),
    cr=("106.4", "118.3", "118.3a", "601.2g"),
    doc=__doc__,
)


@RULE.on(t.Pay, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Pay)
    state = ctx.state
    if quiet(ctx) or not state.mana_pools:
        return
    who = payer(state, statement)
    pool = pool_of(state, who) if who is not None else None
    if who is None or pool is None:
        return
    for cost in statement.costs:
        if not is_mana_cost(cost):
            continue
        assert isinstance(cost, t.Text)
        needed = requirement(cost.value)
        if needed is None:
            return
        if not can_pay(pool, needed):
            ctx.report(
                RULE,
                f"{who} pays {cost.value}, but the mana lines of this step or phase leave {describe(pool)} "
                f"in {who}'s mana pool: a cost is paid with mana in the pool (CR 118.3a), which "
                "empties as each step and phase ends (CR 106.4); write the `mana` line of each "
                "mana ability activated for it",
                cost.span,
            )
            return
        pool = after_paying(pool, needed)
