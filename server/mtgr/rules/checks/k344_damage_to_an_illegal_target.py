"""A resolving spell or ability deals damage to a target that has become illegal.

## What it flags
While a spell or ability resolves, a `damage` line from it (or from its source) to an
object it targeted that has left the zone it was in when it was targeted, when some of
its other targets are still legal (when none is, K331 asks for `fizzle`).

## Why
A spell or ability with some illegal targets resolves, but the parts of its effect for
which a target is illegal do not affect that target (CR 608.2b): Forked Bolt dividing its
damage between two creatures, one of which died in response, deals damage only to the
other.
The checker sees only zone changes: other reasons a target becomes illegal are card text
(decision 0044 item 3).

## Example
```mtgr
#20 cast
#20 target #7 #8
#21 cast
#21 target #7
#21 resolve
#7 move battlefield -> graveyard as destroy by #21
#20 resolve
#20 damage 1 -> #7
#20 damage 1 -> #8
```

## Use instead
```mtgr
#20 resolve
#20 damage 1 -> #8
```

## Rules basis
- Decision 0077 items 1 and 2, decision 0044 item 3.
- CR 608.2b: "Illegal targets, if any, won't be affected by parts of a resolving spell's effect for which they're illegal."
- CR 608.2b: "A target that's no longer in the zone it was in when it was targeted is illegal."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage, target_illegal
from mtgr.syntax import tree as t

RULE = define(
    "K344",
    "Damage to an illegal target",
    severity=Severity.ERROR,
    decisions=("0077.1", "0077.2", "0044.3"),
    cr=("608.2b",),
    doc=__doc__,
)


@RULE.on(t.Damage)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    if state.resolving is None or not isinstance(statement.recipient, t.ObjectRef):
        return
    if quiet(ctx) or state.stage is not Stage.PLAYING:
        return
    resolving = state.obj(state.resolving)
    if resolving is None or not resolving.targets:
        return
    if statement.subject.number not in (resolving.number, resolving.source):
        return
    recipient = statement.recipient.number
    marks = [mark for mark in resolving.targets if mark[0] == recipient]
    if not marks or not all(target_illegal(state, mark) for mark in marks):
        return
    if all(target_illegal(state, mark) for mark in resolving.targets):
        return  # none is legal: K331's
    target = state.obj(recipient)
    ctx.report(
        RULE,
        f"#{recipient} was a target of {resolving.label()} but has left the zone it was "
        "targeted in, so the resolving spell or ability does not affect it (CR 608.2b); "
        "its other targets are still dealt damage",
        statement.recipient.span,
        related=ctx.where(target) if target is not None else (),
    )
