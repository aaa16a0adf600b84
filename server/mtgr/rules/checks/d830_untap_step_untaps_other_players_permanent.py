"""The untap step untaps a permanent the active player does not control.

## What it flags
An `untap` line without cause in the untap step for a permanent that another player
controls: the untap step's untaps are the active player's own permanents.

## Why
In the untap step the active player untaps the permanents they control, as a turn-based
action (CR 502.3); nobody else's permanents untap then. An effect that untaps other
permanents during that step (Seedborn Muse untaps its controller's permanents during each
other player's untap step) names itself with `by` (decision 0005 items 2 and 5).

## Example
```mtgr
turn 3 "Alice"
step untap
#9 untap          // Bob's Mountain
```

## Use instead
```mtgr
turn 3 "Alice"
step untap
#2 untap          // Alice's Mountain
#9 untap by #40   // Bob's Seedborn Muse
```

## Rules basis
- Decision 0005 item 5, decision 0010 item 5.
- CR 502.3: "Third, the active player determines which permanents they control will untap. Then they untap them all simultaneously."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "D830",
    "Untap step untaps another player's permanent",
    severity=Severity.ERROR,
    decisions=("0005.5", "0010.5"),
    cr=("502.3",),
    doc=__doc__,
)


@RULE.on(t.TapChange)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.TapChange)
    state = ctx.state
    turn = state.turn
    if statement.verb.value != "untap" or turn.step != "untap" or quiet(ctx):
        return
    if statement.cause is not None or statement.replacements:
        return
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield" or obj.controller is None:
        return
    if turn.player is None or obj.controller == turn.player:
        return
    ctx.report(
        RULE,
        f"{obj.label()} is controlled by {obj.controller}, but it is {turn.player}'s untap step: "
        f"only the active player's permanents untap then (CR 502.3); an effect that untaps it "
        "names itself, `untap by #N`",
        statement.verb.span,
        related=ctx.where(obj),
    )
