"""An object resolves or fizzles from below the top of the stack.

## What it flags
A `resolve` or `fizzle` line for an object that is on the stack but not on top of it.

## Why
Each time all players pass in succession, only the object on top of the stack resolves
(CR 608.1). A spell that fizzles is one that tries to resolve, so it too must be on top.
Countering is different: a counterspell on top can counter an object anywhere below it
(decision 0019 item 1), so `countered by` is not flagged.

## Example
```mtgr
#20 cast
#21 cast
#20 resolve
```

## Use instead
```mtgr
#20 cast
#21 cast
#21 resolve
#20 resolve
```

## Rules basis
- Decision 0019 item 1.
- CR 608.1: "Each time all players pass in succession, the spell or ability on top of the stack resolves."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "K301",
    "Resolves or fizzles from below the top of the stack",
    severity=Severity.ERROR,
    decisions=("0019.1",),
    cr=("608.1", "701.6a"),
    doc=__doc__,
)


@RULE.on(t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Leave)
    verb = statement.verb.value
    number = statement.subject.number
    stack = ctx.state.stack
    if verb == "countered" or number not in stack or stack[-1] == number:
        return
    top = ctx.state.obj(stack[-1])
    assert top is not None
    ctx.report(
        RULE,
        f"#{number} {verb}s, but {top.label()} is on top of the stack; "
        "only a countered object may leave from below",
        statement.verb.span,
        related=ctx.where(top),
    )
