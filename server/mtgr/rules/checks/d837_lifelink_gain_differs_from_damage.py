"""A life gain from a creature's combat damage that is not the damage it dealt.

## What it flags
A `"P" life +K by #N` line in a combat damage step, where #N has dealt combat damage in
that step and P controls it, when K is not the damage #N dealt there less the life its
lines have gained already: `#2 damage 4 -> "Bob"` then `"Alice" life +3 by #2`. The gain
may follow each damage line, or come once after all of them. A line with `replacement`
(an effect that changed the gain) is not flagged, and neither is a gain caused by a
triggered ability, which has the trigger as its cause, nor one while a spell or ability
resolves or is on the stack (the lifelink of a fight is not combat damage's).

## Why
Damage dealt by a source with lifelink causes its controller to gain that much life
(CR 120.3f, 702.15b), at the same time as the damage; the record writes the gain with the
source as its cause (decision 0019 item 5, decision 0012 item 4). A gain that differs
from the damage makes every life total after it wrong. Combat damage is dealt at once,
so a lifelink creature that deals damage to a blocker and to the player it attacks
gains the total.

## Example
```mtgr
#2 damage 4 -> "Bob"
"Bob" life -4 by #2
"Alice" life +3 by #2
```

## Use instead
```mtgr
#2 damage 4 -> "Bob"
"Bob" life -4 by #2
"Alice" life +4 by #2
```

## Rules basis
- Decision 0019 item 5: a life change that results from damage has the damage's cause.
- Decision 0012 item 4: the results of damage follow straight after the damage line.
- CR 120.3f: "Damage dealt by a source with lifelink causes that source's controller to gain that much life, in addition to the damage's other results."
- CR 702.15b: "Damage dealt by a source with lifelink causes that source's controller, or its owner if it has no controller, to gain that much life (in addition to any other results that damage causes)."
- CR 510.2: "Second, all combat damage that's been assigned is dealt simultaneously."
"""

from mtgr.rules.apply import lifelink_due
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "D837",
    "Lifelink gain not the combat damage dealt",
    severity=Severity.ERROR,
    decisions=("0019.5", "0012.4"),
    cr=("120.3f", "702.15b", "510.2"),
    doc=__doc__,
)


@RULE.on(t.Life, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Life)
    if statement.replacements:
        return
    due = lifelink_due(ctx.state, statement)
    if due is None:
        return
    source, owed = due
    gained = statement.delta.value
    if gained == owed:
        return
    obj = ctx.state.obj(source)
    label = obj.label() if obj is not None else f"#{source}"
    ctx.report(
        RULE,
        f"{statement.subject.name} gains {gained} life from {label}, which has dealt {owed} "
        "combat damage in this step that no gain matches: lifelink gains as much life as "
        f"the damage (CR 702.15b); write `+{owed}`, or, for a triggered ability's gain, "
        "name the trigger as its cause",
        statement.delta.span,
    )
