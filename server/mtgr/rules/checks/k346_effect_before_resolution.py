"""An effect of a spell or ability written before it resolves.

## What it flags
A draw, a life change, a search, a control change, a destruction or a change of targets
(decision 0092) whose cause (`by #N`) is a spell or ability still on the stack, and
damage dealt by one: its `#N resolve` line
has not come yet. Costs are not flagged: a tap, a sacrifice, a discard, an exile, a
return to hand, counters and revealed cards can all be paid while a spell is cast or an
ability activated, with the spell or ability as their cause (decision 0005 item 2). Life
its controller loses while the spell is cast is reported as a cost written as a life
change.
Nothing is judged in a gap or inside a keyframe.

## Why
A spell or ability does what its text says when it resolves (CR 608.2), and the record
writes that moment as `#N resolve`, with the lines of its effects after it (decision 0011
item 6). Cards drawn by a Brainstorm before its resolve line, or a Lightning Bolt's damage
before it, put the effects while the spell could still be countered: the order of the
lines is wrong, or the resolve line is missing above them. Life paid as a cost is a
`pay life K` line (decision 0017 item 2), not a life change.

## Example
```mtgr
#2 cast
#2 pay {U}
"Alice" draw #15 by #2
#2 resolve
```

## Use instead
```mtgr
#2 cast
#2 pay {U}
#2 resolve
"Alice" draw #15 by #2
```

## Rules basis
- Decision 0011 item 6: the lines of a resolving object's effects follow its resolve line, each with it as cause.
- Decision 0017 item 2: life paid as a cost is a `pay life K` line.
- Decision 0092 item 1: a change of targets follows the resolve line of the spell or ability that changes them.
- CR 608.2: "If the object that's resolving is an instant spell, a sorcery spell, or an ability, its resolution may involve several steps."
- CR 608.2c: "The controller of the spell or ability follows its instructions in the order written."
- CR 119.4: "If a cost or effect allows a player to pay an amount of life greater than 0, the player may do so only if their life total is greater than or equal to the amount of the payment."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import resolution_sources
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "K346",
    "Effect before its spell or ability resolves",
    severity=Severity.ERROR,
    decisions=("0011.6", "0017.2", "0092.1"),
    cr=("608.2", "608.2c", "119.4"),
    doc=__doc__,
)


@RULE.on(
    t.Draw,
    t.Life,
    t.Damage,
    t.Move,
    t.LibraryAction,
    t.Control,
    t.Target,
    stages=(Stage.PLAYING,),
    outside_gaps_and_keyframes=True,
)
def check(ctx: Context, statement: t.Statement) -> None:
    # a move other than a destruction can be a cost: a sacrifice, a discard, an exile
    ref = next((r for r in resolution_sources(statement) if _on_the_stack(ctx, r.number)), None)
    if ref is None:
        return
    number = ref.number
    if _paid_as_cost(ctx, statement, number):
        ctx.report(
            RULE,
            f"#{number} is being cast or activated: life paid as its cost is written "
            f"`#{number} pay life {abs(statement.delta.value)}` (decision 0017 item 2); a life "
            f"change it causes comes after `#{number} resolve` (CR 608.2)",
            statement.verb.span,
        )
        return
    ctx.report(
        RULE,
        f"#{number} is still on the stack: what it does happens as it resolves (CR 608.2), "
        f"so this line comes after `#{number} resolve`; move the resolve line up, or name as "
        "cause the spell or ability that did it",
        ref.span,
    )


def _paid_as_cost(ctx: Context, statement: t.Statement, number: int) -> bool:
    """Life the controller of the spell or ability being cast or activated loses: its cost,
    written as a life change."""
    casting = ctx.state.casting
    if not isinstance(statement, t.Life) or casting is None or casting.number != number:
        return False
    obj = ctx.state.obj(number)
    return (
        obj is not None and statement.delta.value < 0 and statement.subject.name == obj.controller
    )


def _on_the_stack(ctx: Context, number: int) -> bool:
    """A spell or ability that has not resolved: the one resolving has left the stack."""
    obj = ctx.state.obj(number)
    return obj is not None and obj.zone == "stack" and ctx.state.resolving != number
