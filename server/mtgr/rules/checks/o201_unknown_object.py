"""An object number that no line has introduced.

## What it flags
A line about `#N`, or naming `#N` as a cause, target, source or replacement, when no
earlier line introduced `#N` (with `new`, `draw`, `activate of` or `trigger of`).

## Why
Objects are numbered so that every line can say exactly which object it means
(decision 0004). An object that was never introduced has no owner, no zone and no
name; most often the number is a typo, or the line that introduced it is missing.

## Example
```mtgr
"Alice" draw #8 "Lightning Bolt"
#9 cast
```

## Use instead
```mtgr
"Alice" draw #8 "Lightning Bolt"
#8 cast
```

## Rules basis
- Decision 0004 items 1 and 2.
- CR 109.1: "An object is an ability on the stack, a card, a copy of a card, a token, a spell, a permanent, or an emblem."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "O201",
    "Unknown object",
    severity=Severity.ERROR,
    decisions=("0004.1", "0004.2"),
    cr=("109.1",),
    doc=__doc__,
)

# Statements that introduce their subject, and so must not be checked for it here.
_INTRODUCING = (t.New, t.AbilityOf)


@RULE.on(t.Statement, stages=set(Stage) - {Stage.GAP})
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    objects, floor = state.objects, state.game_floor
    for ref in statement.objects:
        if ref.number not in objects and ref.number > floor:
            break
    else:
        return  # every number is known (or none named): the common case, told cheaply
    for ref in references(statement):
        if state.obj(ref.number) is None and not state.number_used(ref.number):
            ctx.report(
                RULE,
                f"#{ref.number} is not introduced by any line above; introduce it with "
                f"`new`, `draw`, `activate of` or `trigger of` first, or correct the number "
                f"(next free number: #{state.next_free_number()})",
                ref.span,
            )


def references(statement: t.Statement) -> list[t.ObjectRef]:
    """Object numbers the line expects to exist already: every one it names, but the one
    it introduces (`new`, `activate of`, `trigger of`, a draw's card)."""
    introduced = None
    if isinstance(statement, _INTRODUCING):
        introduced = statement.subject
    elif isinstance(statement, t.Draw):
        introduced = statement.drawn
    seen: set[int] = set()
    unique = []
    for ref in statement.objects:
        if ref is not introduced and ref.number not in seen:
            seen.add(ref.number)
            unique.append(ref)
    return unique
