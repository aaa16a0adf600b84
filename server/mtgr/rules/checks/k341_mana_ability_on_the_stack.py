"""Mana made by an ability written as an ability on the stack.

## What it flags
A `mana` line whose cause is an activated or triggered ability that stands on the stack
and is not resolving: a mana ability written with `activate of` or `trigger of`.

## Why
A mana ability does not go on the stack: it resolves as soon as it is activated, or, for
a triggered mana ability, straight after the mana ability that triggered it (CR 605.3b,
605.4a). It cannot be responded to, so it has no ability object and no number (decision
0004 item 6); its cost is written as an action caused by its permanent and its mana as a
`mana` line caused by the same permanent (decision 0071 item 1). An ability that adds
mana as it resolves from the stack (one with a target is not a mana ability, CR 605.5a)
writes its `mana` line after its `resolve` line.

## Example
```mtgr
#20 activate of #11
#11 tap by #20
"Alice" mana {G} by #20
```

## Use instead
```mtgr
#11 tap by #11
"Alice" mana {G} by #11
```

## Rules basis
- Decision 0071 item 1, decision 0004 item 6.
- CR 605.3b: "An activated mana ability doesn't go on the stack, so it can't be targeted, countered, or otherwise responded to. Rather, it resolves immediately after it is activated."
- CR 605.4a: "A triggered mana ability doesn't go on the stack, so it can't be targeted, countered, or otherwise responded to."
- CR 605.5a: "An ability with a target is not a mana ability, even if it could put mana into a player's mana pool when it resolves."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "K341",
    "Mana ability on the stack",
    severity=Severity.ERROR,
    decisions=("0071.1", "0004.6"),
    cr=("605.3b", "605.4a", "605.5a"),
    doc=__doc__,
)


@RULE.on(t.ManaAdded)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    cause = statement.cause
    if quiet(ctx) or cause is None or not isinstance(cause.agent, t.ObjectRef):
        return
    ability = state.obj(cause.agent.number)
    if ability is None or ability.kind is not ObjectKind.ABILITY or ability.zone != "stack":
        return
    if state.resolving == ability.number:
        return
    ctx.report(
        RULE,
        f"{ability.label()} is on the stack and has not resolved, but it makes mana here: a mana "
        "ability does not go on the stack (CR 605.3b); write its cost and its `mana` line "
        "caused by its permanent, without `activate` or `trigger` lines",
        cause.agent.span,
        related=ctx.where(ability),
    )
