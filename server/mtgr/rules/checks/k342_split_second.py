"""A spell cast or an ability activated while a spell with split second is on the stack.

## What it flags
A `cast` or `activate` line while a spell cast with `split-second` (decision 0072) is on
the stack. A spell that a resolving spell or ability casts is not flagged, nor are
triggered abilities, mana abilities (which write no `activate` line) and special actions
such as turning a face-down creature face up.

## Why
As long as a spell with split second is on the stack, players cannot cast other spells
or activate abilities that are not mana abilities (CR 702.61a). Mana abilities and
special actions are still allowed, and triggered abilities trigger and go on the stack as
usual (CR 702.61b). A response to such a spell is an illegal play; the record either
misses a `resolve` line or states a response that cannot have happened.

## Example
```mtgr
#30 cast split-second
#30 target #12
#30 pay {1}{G}
#31 cast                  // Alice responds to Krosan Grip
```

## Use instead
```mtgr
#30 cast split-second
#30 target #12
#30 pay {1}{G}
#30 resolve
#12 move battlefield -> graveyard as destroy by #30
#31 cast
```

## Rules basis
- Decision 0072 items 1 and 2.
- CR 702.61a: "As long as this spell is on the stack, players can't cast other spells or activate abilities that aren't mana abilities."
- CR 702.61b: "Players may activate mana abilities and take special actions while a spell with split second is on the stack."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "K342",
    "Split second",
    severity=Severity.ERROR,
    decisions=("0072.1", "0072.2"),
    cr=("702.61a", "702.61b"),
    doc=__doc__,
)


@RULE.on(t.Cast, t.AbilityOf, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if not state.split_second or quiet(ctx):
        return
    if statement.verb.value == "trigger":
        return
    assert isinstance(statement, (t.Cast, t.AbilityOf))
    agent = statement.cause.agent if statement.cause is not None else None
    if (
        isinstance(statement, t.Cast)
        and isinstance(agent, t.ObjectRef)
        and agent.number == state.resolving
    ):
        return  # cast as a resolving spell or ability instructs
    for number in sorted(state.split_second):
        spell = state.obj(number)
        if spell is None or spell.zone != "stack" or number == statement.subject.number:
            continue
        what = "a spell is cast" if isinstance(statement, t.Cast) else "an ability is activated"
        ctx.report(
            RULE,
            f"{what} while {spell.label()}, a spell with split second, is on the stack: no "
            "other spell can be cast nor any ability but a mana ability activated until it "
            "leaves the stack (CR 702.61a)",
            statement.verb.span,
            related=ctx.where(spell),
        )
        return
