"""A line of casting a spell or activating an ability out of the order of CR 601.2.

## What it flags
While a spell is cast or an ability activated or put on the stack, one of its lines
written after a later part: a `choose` (a mode, a value of X) after its `target`, a
`target` after a mana ability or a payment, a mana ability (`#5 tap by #5`) after an
action that pays a cost, or a `pay` line after such an action (a sacrifice, a tap, a
discard, a counter removed, caused by the spell or ability). Once the `pay` line is
written the spell is cast: a later `choose` is made as a permanent enters (decision 0017
item 6) and a later mana ability makes mana for what comes next; neither is flagged. Nor
is another player's mana ability: only the caster activates mana abilities while casting,
so one of another player's comes after, in response (a land tapped for mana in response
to Wasteland, whose costs write no `pay` line). Nor is the reveal of the card whose
ability is activated from a hidden zone (cycling, transmute, channel), which is revealed
as the ability is announced (CR 602.2a), not as a cost.

## Why
Casting follows the steps of CR 601.2 in order: the spell goes on the stack, its modes,
X and the costs it will pay are announced, then its targets, then the total cost is
determined, mana abilities are activated, and the costs are paid (601.2a to 601.2h).
Activating an ability and putting a triggered ability on the stack follow the same order
(602.2b, 603.3c, 603.3d). The record writes those lines in that order, and among the
costs, paid in any order the player likes (601.2h), the `pay` line first, then the
actions that pay costs, so that each play has one encoding (decision 0045, decision 0001
item 4). A division of damage or counters (601.2d) writes no line: the lines of the
resolution show it. The quick fix moves the line up to where it belongs.

## Example
```mtgr
#22 cast
#22 target #7
#22 choose "destroy target artifact"
```

## Use instead
```mtgr
#22 cast
#22 choose "destroy target artifact"
#22 target #7
```

## Rules basis
- Decision 0045 items 1 and 2 (amending decisions 0011 item 5 and 0017 item 5).
- CR 601.2b: "If the spell is modal, the player announces the mode choice (see rule 700.2)."
- CR 601.2c: "The player announces their choice of an appropriate object or player for each target the spell requires."
- CR 601.2g: "Mana abilities must be activated before costs are paid."
- CR 601.2h: "First, they pay all costs that don't involve random elements or moving objects from the library to a public zone, in any order."
- CR 602.2b: "Those rules apply to activating an ability just as they apply to casting a spell."
- CR 602.2a: "If an activated ability is being activated from a hidden zone, the card that has that ability is revealed."
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import CASTING_STAGES, casting_stage
from mtgr.syntax import tree as t

RULE = define(
    "K332",
    "Casting out of the order of CR 601.2",
    severity=Severity.ERROR,
    decisions=("0045.1", "0045.2"),
    cr=("601.2b", "601.2c", "601.2g", "601.2h", "602.2b", "602.2a"),
    doc=__doc__,
)

_PARTS = (
    "",
    "a choice",
    "the targets",
    "a mana ability",
    "a payment",
    "an action that pays a cost",
)


@RULE.on(
    t.Choose,
    t.Target,
    t.Pay,
    t.TapChange,
    t.Move,
    t.ObjectCounters,
    t.Life,
    while_casting=True,
    outside_gaps_and_keyframes=True,
)
def check(ctx: Context, statement: t.Statement) -> None:
    casting = ctx.state.casting
    assert casting is not None
    stage = casting_stage(ctx.state, casting, statement)
    if stage is None or stage >= casting.stage:
        return
    later = next(i for i in range(stage + 1, len(CASTING_STAGES)) if casting.starts[i] is not None)
    first_later = casting.starts[later]
    related = ()
    if first_later is not None:
        related = (Related(first_later, None, f"{_PARTS[later]} of #{casting.number} here"),)
    verb = "come" if stage == 2 else "comes"  # "the targets come"
    ctx.report(
        RULE,
        f"{_PARTS[stage]} of #{casting.number} {verb} after {_PARTS[later]}: casting goes "
        "announcement, choices (modes, X), targets, mana abilities, `pay`, then the actions "
        "that pay costs (CR 601.2b to 601.2h, decision 0045); move this line up",
        statement.verb.span,
        related=related,
    )
