"""A blocked creature without trample deals combat damage to what it attacks.

## What it flags
In a combat damage step, a combat `damage` line from an attacking creature that was
blocked, to the player, planeswalker or battle it attacks, when the line does not say
`trample` nor name with `by` the effect that lets the creature assign its combat damage
as though it were not blocked (decision 0073).

## Why
A blocked creature assigns its combat damage to the creatures blocking it, and none at
all when no creature blocks it any more (CR 510.1c). Only trample lets an attacking
creature assign the damage beyond lethal damage to its blockers, or all of it when its
blockers are gone, to what it attacks (CR 702.19b, 702.19d). Some cards let a creature
assign its combat damage as though it were not blocked (Thorn Elemental): the damage line
names that card with `by`.

## Example
```mtgr
#30 attack "Bob"
#7 block #30
step combat-damage
#30 damage 3 -> #7
#30 damage 2 -> "Bob"
```

## Use instead
```mtgr
#30 attack "Bob"
#7 block #30
step combat-damage
#30 damage 3 -> #7 trample
#30 damage 2 -> "Bob" trample
```

## Rules basis
- Decision 0073 items 3 and 4.
- CR 510.1c: "A blocked creature assigns its combat damage to the creatures blocking it. If no creatures are currently blocking it (if, for example, they were destroyed or removed from combat), it assigns no combat damage."
- CR 702.19b: "Once all those blocking creatures are assigned lethal damage, any excess damage is assigned as its controller chooses among those blocking creatures and the player, planeswalker, or battle the creature is attacking."
- CR 702.19d: "If an attacking creature with trample or trample over planeswalkers is blocked, but there are no creatures blocking it when damage is assigned, its damage is assigned to the defending player and/or planeswalker as though all blocking creatures have been assigned lethal damage."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "D833",
    "Blocked creature damages what it attacks",
    severity=Severity.ERROR,
    decisions=("0073.3", "0073.4"),
    cr=("510.1c", "702.19b", "702.19d"),
    doc=__doc__,
)


@RULE.on(t.Damage)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    if state.turn.step != "combat-damage" or statement.trample is not None:
        return
    if statement.cause is not None or statement.replacements:
        return
    if quiet(ctx) or state.stage is not Stage.PLAYING or state.stack or state.resolving:
        return
    source = state.obj(statement.subject.number)
    if source is None or not source.attacking or not source.blocked:
        return
    recipient = statement.recipient
    what = recipient.name if isinstance(recipient, t.PlayerRef) else recipient.number
    if what != source.attack_target:
        return
    ctx.report(
        RULE,
        f"{source.label()} was blocked, so it assigns its combat damage to the creatures "
        "blocking it, not to what it attacks (CR 510.1c): write `trample` if it has trample, "
        "or `by` the effect that lets it assign its damage as though it were not blocked",
        statement.recipient.span,
        related=ctx.where(source),
    )
