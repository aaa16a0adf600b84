"""A permanent whose last loyalty counter was removed is still on the battlefield.

## What it flags
The first line that comes only after a player received priority (a cast, an activation,
a resolution, a new turn, phase or step, an attack or block; not a triggered ability,
which is written as it triggers) while a
permanent is still on the battlefield after a line removed its last loyalty counter:
damage, a loyalty cost, an effect. Without card data the checker cannot see a
planeswalker that entered without a `counters` line, nor one whose loyalty a static
effect keeps above 0.

## Why
A planeswalker with loyalty 0 is put into its owner's graveyard as a state-based action
(CR 704.5i, 306.9), checked before any player gets priority (CR 704.3): the move
`by sba` comes before that line.

## Example
```mtgr
#26 activate of #25
#25 counters -3 loyalty by #26
#26 resolve
```

## Use instead
```mtgr
#26 activate of #25
#25 counters -3 loyalty by #26
#25 move battlefield -> graveyard by sba
#26 resolve
```

## Rules basis
- Decision 0024 item 2: a planeswalker left with no loyalty is moved `by sba` before the next
  line that comes after a player received priority.
- CR 704.5i: "If a planeswalker has loyalty 0, it's put into its owner's graveyard."
- CR 306.9: "If a planeswalker's loyalty is 0, it's put into its owner's graveyard."
- CR 704.3: "Whenever a player would get priority" the game "checks for any of the listed conditions for state-based actions".
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.describe import state_based_actions_checked
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B104",
    "Planeswalker with no loyalty still on the battlefield",
    severity=Severity.ERROR,
    decisions=("0024.2",),
    cr=("704.5i", "306.9", "704.3"),
    doc=__doc__,
)


@RULE.on(*PRIORITY_LINES, stages=(Stage.PLAYING,), with_sba_due=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if not state_based_actions_checked(ctx):
        return
    state = ctx.state
    for obj in state.watched_objects():
        if obj.loyalty_gone is None or obj.zone != "battlefield":
            continue
        ctx.report(
            RULE,
            f"{obj.label()} has no loyalty counters left, so it is put into its owner's "
            "graveyard when state-based actions are checked, before this line (CR 704.5i): "
            f"write `#{obj.number} move battlefield -> graveyard by sba` first",
            statement.verb.span,
            related=(Related(obj.loyalty_gone, None, f"{obj.label()} lost its last loyalty"),),
        )
