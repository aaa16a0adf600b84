"""A new object's number is not higher than every number before it.

## What it flags
A line that introduces an object (`new`, a `draw` of an untracked card, `activate of`,
`trigger of`) with a number that is not in use but is lower than a number introduced
earlier in the file.

## Why
Numbers only go up through a record (decision 0004 item 3), so that a reader can tell at
a glance which objects came first, and so that the next free number is always one more
than the highest. A lower number is most often a typo for another object's number.

## Example
```mtgr
"Alice" draw #8 "Lightning Bolt"
"Alice" draw #12 "Mountain"
"Alice" draw #10 "Goblin Guide"
```

## Use instead
```mtgr
"Alice" draw #8 "Lightning Bolt"
"Alice" draw #12 "Mountain"
"Alice" draw #13 "Goblin Guide"
```

## Rules basis
- Decision 0004 item 3: each number introduced is higher than every number introduced before it.
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "O206",
    "Object number lower than an earlier one",
    severity=Severity.WARNING,
    decisions=("0004.3",),
    doc=__doc__,
)


@RULE.on(t.New, t.AbilityOf, t.Draw)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.in_keyframe is not None:
        return  # F902 reports a line out of place there
    if isinstance(statement, t.Draw):
        ref = statement.drawn
        if state.obj(ref.number) is not None:
            return  # drawing a tracked card introduces nothing
    else:
        assert isinstance(statement, t.ObjectStatement)
        ref = statement.subject
    if state.number_used(ref.number) or (
        state.stage is Stage.GAP and isinstance(statement, t.Draw)
    ):
        return  # O202 reports a number in use; F903 a draw in a gap
    if ref.number < state.highest_number:
        ctx.report(
            RULE,
            f"#{ref.number} is lower than #{state.highest_number}, introduced before it; "
            f"numbers only go up: use #{state.next_free_number()}",
            ref.span,
        )
