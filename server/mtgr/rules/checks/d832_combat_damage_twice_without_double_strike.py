"""A creature deals combat damage in both combat damage steps without double strike.

## What it flags
In the second combat damage step of a combat, a combat `damage` line from a creature that
already dealt combat damage in the first one, when the line does not say
`double-strike` (decision 0073).

## Why
When an attacking or blocking creature has first strike or double strike as the combat
damage step begins, only those creatures assign combat damage in it, and the phase gets a
second combat damage step. In that one, only the creatures that had neither first strike
nor double strike, and those that have double strike, assign combat damage (CR 510.4,
702.4b, 702.7b). A creature with first strike deals its combat damage once; the checker
knows double strike only from the line (decision 0073 item 1).

## Example
```mtgr
step combat-damage
#30 damage 2 -> "Bob"
"Bob" life -2 by #30
step combat-damage
#30 damage 2 -> "Bob"
```

## Use instead
```mtgr
step combat-damage
#30 damage 2 -> "Bob" double-strike
"Bob" life -2 by #30
step combat-damage
#30 damage 2 -> "Bob" double-strike
```

## Rules basis
- Decision 0073 items 1 and 2.
- CR 510.4: "The only creatures that assign combat damage in that step are the remaining attackers and blockers that had neither first strike nor double strike as the first combat damage step began, as well as the remaining attackers and blockers that currently have double strike."
- CR 702.7c: "Removing first strike from a creature after it has already dealt combat damage in the first combat damage step won't allow it to also assign combat damage in the second combat damage step (unless the creature has double strike)."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "D832",
    "Combat damage twice without double strike",
    severity=Severity.ERROR,
    decisions=("0073.1", "0073.2"),
    cr=("510.4", "702.7c"),
    doc=__doc__,
)


@RULE.on(t.Damage)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    turn = state.turn
    if turn.step != "combat-damage" or not turn.repeated or statement.double_strike is not None:
        return
    if quiet(ctx) or state.stage is not Stage.PLAYING or state.stack or state.resolving:
        return
    source = state.obj(statement.subject.number)
    if source is None or source.number not in turn.struck_first:
        return
    ctx.report(
        RULE,
        f"{source.label()} dealt combat damage in the first combat damage step of this combat: "
        "in the second one only creatures with double strike deal combat damage again "
        "(CR 510.4); write `double-strike` on its damage lines if it has it",
        statement.verb.span,
        related=ctx.where(source),
    )
