"""Control given to the player who already controls the permanent.

## What it flags
A `control "P"` line for a permanent P already controls in the rebuilt state: often a
line that gives control back after a control-changing effect with `until` already gave
it back by itself (decision 0021 item 3), or a control line that is missing earlier. Not
a line with `until` for a permanent its owner does not control and no `control` line has
changed: it gives the duration of a control change in force where a keyframe resumed the
record (Act of Treason cast before the gap), and control goes to the owner when it ends.
Nor a line without `until` while a timed control change is in force: it says who controls
the permanent when that change ends (Control Magic cast on a creature taken with Act of
Treason, or destroyed while Act of Treason lasts).

## Why
A control-changing effect that gives control to the player who has it changes nothing
(CR 613.1b), and one whose duration ended already returned control without a line
(CR 514.2, 611.2a): the line would be a second encoding of what the checker has done.

## Example
```mtgr
#7 control "Alice" until end-of-turn by #55
step cleanup
#7 control "Bob"
```

## Use instead
```mtgr
#7 control "Alice" until end-of-turn by #55
step cleanup
```

## Rules basis
- Decision 0021 item 3: with `until`, control goes back by itself when the duration ends.
- Decision 0021 item 5: a line that gives control to the player who has it is reported.
- Decision 0015 item 8: lasting effects still in force when a record resumes are written straight after the keyframe's end.
- CR 613.1b: "Layer 2: Control-changing effects are applied."
- CR 514.2: "Second, the following actions happen simultaneously: all damage marked on permanents (including phased-out permanents) is removed"
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject
from mtgr.syntax import tree as t

RULE = define(
    "D821",
    "Control given to its controller",
    severity=Severity.ERROR,
    decisions=("0021.3", "0021.5", "0015.8"),
    cr=("613.1b", "514.2"),
    doc=__doc__,
)


@RULE.on(t.Control)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Control)
    if quiet(ctx):
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return  # O201, O203, O204
    if obj.controller != statement.controller.name or _duration_of_control_in_force(obj, statement):
        return
    if statement.until is None and obj.control_effects:
        return  # beneath a timed change in force: who controls it when that ends (0021.3)
    ctx.report(
        RULE,
        f"{obj.label()} is already controlled by {obj.controller}; a control change that "
        "ended with its `until` gave control back without a line",
        statement.controller.span,
        related=ctx.where(obj),
    )


def _duration_of_control_in_force(obj: GameObject, statement: t.Control) -> bool:
    """A line giving the duration of a control change the lines do not show (a keyframe's
    permanent that another player's effect controls until end of turn): with `until`, for
    a permanent its owner does not control and no `control` line has changed (decision
    0015 item 8, decision 0021 item 3)."""
    return (
        statement.until is not None
        and obj.controller != obj.owner
        and not obj.control_given
        and not obj.control_effects
    )
