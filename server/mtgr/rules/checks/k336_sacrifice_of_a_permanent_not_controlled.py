"""A permanent sacrificed to pay a cost by a player who does not control it.

## What it flags
While a spell is cast or an ability activated, a `move battlefield -> graveyard as
sacrifice by #N` line caused by that spell or ability (a cost, decision 0017 item 3) for
a permanent that another player than #N's controller controls. A sacrifice while #N
resolves is not flagged: an effect may make any player sacrifice (an edict).

## Why
Only a permanent's controller sacrifices it (CR 701.21a), and the costs of a spell or
ability are paid by the player who casts or activates it (CR 601.2h, 602.2b): Viscera
Seer's "Sacrifice a creature" takes one of its controller's creatures, never an
opponent's. The sacrificed permanent's number is wrong, or a control change is missing.

## Example
```mtgr
#10 activate of #3
#7 move battlefield -> graveyard as sacrifice by #10
```

## Use instead
```mtgr
#10 activate of #3
#5 move battlefield -> graveyard as sacrifice by #10
```

## Rules basis
- Decision 0017 item 3: a cost that is an action on objects is written as that action, caused by the spell or ability.
- CR 701.21a: "A player can't sacrifice something that isn't a permanent, or something that's a permanent they don't control."
- CR 601.2h: "The player pays the total cost."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "K336",
    "Sacrifice of a permanent its player does not control",
    severity=Severity.ERROR,
    decisions=("0017.3",),
    cr=("701.21a", "601.2h"),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    state = ctx.state
    casting = state.casting
    cause = statement.cause
    if casting is None or cause is None or not isinstance(cause.agent, t.ObjectRef):
        return
    if statement.kind is None or statement.kind.value != "sacrifice" or quiet(ctx):
        return
    if cause.agent.number != casting.number:
        return
    paying = state.obj(casting.number)
    sacrificed = state.obj(statement.subject.number)
    if paying is None or sacrificed is None or sacrificed.zone != "battlefield":
        return
    payer = paying.controller or paying.owner
    holder = sacrificed.controller or sacrificed.owner
    if payer is None or holder is None or payer == holder:
        return
    ctx.report(
        RULE,
        f'{sacrificed.label()} is controlled by "{holder}", and "{payer}" pays the costs of '
        f"{paying.label()}: only a permanent's controller sacrifices it (CR 701.21a)",
        statement.subject.span,
        related=ctx.where(sacrificed),
    )
