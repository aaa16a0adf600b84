"""More counters removed than the object or player has.

## What it flags
A `counters -K KIND` line for an object or a player that has fewer than K counters of
that kind in the rebuilt state.

## Why
Counters are markers placed on an object or player (CR 122.1); a counter that is not
there can't be removed. An effect that tries does only as much as possible (CR 609.3),
and a cost that needs more counters than there are can't be paid (CR 118.3). Damage to a
planeswalker with less loyalty than the damage removes only the counters it has. Either
the amount is wrong, or a line that put the counters on is missing.

## Example
```mtgr
#21 counters +3 loyalty by #21
#29 activate of #21
#21 counters -4 loyalty by #29
```

## Use instead
```mtgr
#21 counters +3 loyalty by #21
#29 activate of #21
#21 counters -2 loyalty by #29
```

## Rules basis
- Decision 0013 items 2 and 3: counters put on or removed from a permanent or a player.
- CR 122.1: "A counter is a marker placed on an object or player that modifies its characteristics and/or interacts with a rule, ability, or effect."
- CR 609.3: "If an effect attempts to do something impossible, it does only as much as possible."
- CR 118.3: "A player can't pay a cost without having the necessary resources to pay it fully."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE
from mtgr.syntax import tree as t

RULE = define(
    "D803",
    "More counters removed than there are",
    severity=Severity.ERROR,
    decisions=("0013.2", "0013.3"),
    cr=("122.1", "609.3", "118.3"),
    doc=__doc__,
)


@RULE.on(t.ObjectCounters, t.PlayerCounters)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.ObjectCounters, t.PlayerCounters))
    removed = -statement.delta.value
    if removed <= 0 or quiet(ctx):
        return
    kind = statement.counter.value
    if isinstance(statement, t.ObjectCounters):
        obj = ctx.state.obj(statement.subject.number)
        if obj is None or obj.zone in (GONE, "library", "hand"):
            return  # O201, O204 and O203 report those
        have, who, related = obj.counter(kind), obj.label(), ctx.where(obj)
    else:
        player = ctx.state.player(statement.subject.name)
        if player is None:
            return
        have, who, related = player.counter(kind), player.name, ()
    if have >= removed:
        return
    fix = f"it has no {kind} counter" if have == 0 else f"it has {have}: remove at most {have}"
    ctx.report(
        RULE,
        f"{who} loses {removed} {kind} counter{'s' if removed != 1 else ''}, but {fix}",
        statement.delta.span,
        related=related,
    )
