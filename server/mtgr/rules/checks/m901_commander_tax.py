"""A commander cast from the command zone without the right commander tax.

## What it flags
A `cast` of a commander from the command zone whose `tax K` is not 2 for each earlier time
its caster cast it from the command zone in this game: a second cast with no `tax`, a
`tax` on the first cast, or a wrong amount. Each partner commander counts only its own
casts. A cast from any other zone pays no tax and is not checked. After a gap
(`incomplete`), the record cannot say how often a commander was cast in it: the first
cast from the command zone after the gap is taken with the tax it states, and the casts
after it are counted from there.

## Why
A commander cast from the command zone costs an additional {2} for each previous time
the player casting it has cast it from there that game (CR 903.8), and partners count
separately (CR 702.124d). A record that leaves the tax out says the spell was cast for
less than it costs.

## Example
```mtgr
#1 cast from command
#1 resolve -> battlefield
#1 move battlefield -> graveyard as destroy by #40
#1 move graveyard -> command by sba
#1 cast from command
```

## Use instead
```mtgr
#1 cast from command
#1 resolve -> battlefield
#1 move battlefield -> graveyard as destroy by #40
#1 move graveyard -> command by sba
#1 cast from command tax 2
```

## Rules basis
- Decision 0031 item 3: `tax K` on the cast line, K being 2 for each earlier cast from the
  command zone by the same player; partners count their own casts.
- CR 903.8: "A commander cast from the command zone costs an additional {2} for each previous time the player casting it has cast it from the command zone that game."
- CR 702.124d: "When casting a commander with partner, ignore how many times your other commander has been cast (see rule 903.8)."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "M901",
    "Commander cast without the right commander tax",
    severity=Severity.ERROR,
    decisions=("0031.3",),
    cr=("903.8", "702.124d"),
    doc=__doc__,
)


@RULE.on(t.Cast)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Cast)
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None or obj.number not in state.commanders or obj.zone != "command":
        return
    if obj.number in state.commander_casts_unknown:
        return  # a gap may hide earlier casts: this line's tax says how many there were
    caster = statement.caster.name if statement.caster else obj.owner
    earlier = state.commander_cast_count(obj.number, caster)
    due = 2 * earlier
    written = statement.tax.value if statement.tax is not None else 0
    if written == due:
        return
    times = "once" if earlier == 1 else f"{earlier} times"
    if due == 0:
        message = (
            f"{obj.label()} is cast from the command zone for the first time this game: it "
            "costs no commander tax; remove `tax`"
        )
    else:
        message = (
            f"{obj.label()} was cast from the command zone {times} before: the commander tax "
            f"is {{{due}}}; write `tax {due}` on this line (CR 903.8)"
        )
    span = statement.tax.span if statement.tax is not None else statement.verb.span
    ctx.report(RULE, message, span)
