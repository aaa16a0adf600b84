"""A legend rule choice of something the player cannot keep.

## What it flags
`"P" choose #M by sba` (decision 0061) when #M is not on the battlefield, is phased out,
or is controlled by another player than P, in the rebuilt state; and the same line with
a cause other than `sba`. Without card data the checker cannot tell whether #M is
legendary, nor whether P controls another legendary permanent of its name.

## Why
The legend rule applies to legendary permanents a player controls: that player chooses one
of them, and the rest are put into their owners' graveyards (CR 704.5j). It is a
state-based action, so its cause is `sba` (decision 0005 item 4); a choice a spell or
ability asks for is that object's `#N choose #M` (decision 0017).

## Example
```mtgr
"Alice" choose #8 by sba
```

## Use instead
```mtgr
"Bob" choose #8 by sba
```

## Rules basis
- Decision 0061 items 1 and 3: the legend rule's choice line, and what it may choose.
- CR 704.5j: "If two or more legendary permanents with the same name are controlled by the same player, that player chooses one of them, and the rest are put into their owners' graveyards."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O227",
    "Legend rule choice not possible",
    severity=Severity.ERROR,
    decisions=("0061.1", "0061.3"),
    cr=("704.5j",),
    doc=__doc__,
)


@RULE.on(t.LegendChoice)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.LegendChoice)
    cause = statement.cause
    if cause is not None and not isinstance(cause.agent, t.Sba):
        ctx.report(
            RULE,
            "a player's `choose` line records the legend rule's choice, a state-based action: "
            "write `by sba`; a choice a spell or ability asks for is `#N choose #M`",
            cause.agent.span,
        )
        return
    if quiet(ctx):
        return
    state = ctx.state
    obj = state.obj(statement.kept.number)
    if obj is None:
        return  # O201
    player = statement.subject.name
    if obj.zone != "battlefield" or obj.phased_out:
        where = "phased out" if obj.zone == "battlefield" else where_is(state, obj)
        ctx.report(
            RULE,
            f"{obj.label()} is {where}: the legend rule keeps one of the legendary permanents "
            f"{player} controls on the battlefield (CR 704.5j)",
            statement.kept.span,
            related=ctx.where(obj),
        )
    elif obj.controller is not None and obj.controller != player:
        ctx.report(
            RULE,
            f"{obj.controller} controls {obj.label()}: under the legend rule each player "
            f"chooses among the permanents they control, so write "
            f'`"{obj.controller}" choose #{obj.number} by sba` (CR 704.5j)',
            statement.kept.span,
            related=ctx.where(obj),
        )
