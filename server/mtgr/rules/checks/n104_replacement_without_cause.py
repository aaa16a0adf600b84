"""A replaced event written with `replacement` but without its cause.

## What it flags
A line with `replacement #R ...` and no `by`, for an event that has a cause: a move, a
draw, a life change, counters. Events that have no cause have none to keep and are not
flagged: turn-based actions (the draw step's draw, the cleanup step's discard) and what a
player does under the normal rules (a land played that enters tapped,
`#15 play tapped replacement #15`). Nor are the events that replace a turn-based action,
with an empty stack and nothing resolving: an untap, phasing or a stun counter removed
instead of the untap (CR 122.1d) in the untap step, a draw,
move or life change in the draw step (dredge's mill and return instead of the draw),
a move in the cleanup step, counters in the precombat main phase (a Saga's lore
counter), decision 0040 item 2.

## Why
A replacement effect changes an event that something else caused; the line records the
modified event, keeps the original cause and adds the replacement (decision 0018 item
5). Without the cause, the record loses who discarded, drew or paid, which "whenever an
opponent discards" abilities and every later reader depend on. Turn-based actions are
controlled by no player (CR 703.2), and casting a spell or playing a land has no cause
under the normal rules (decision 0005 item 5): those have no cause to keep.

## Example
```mtgr
#4 move hand -> exile as discard replacement #15
```

## Use instead
```mtgr
#4 move hand -> exile as discard by #18 replacement #15
```

## Rules basis
- Decision 0018 item 5, decision 0005 items 5 and 8, decision 0040 item 2.
- CR 614.6: "If an event is replaced, it never happens. A modified event occurs instead, which may in turn trigger abilities."
- CR 703.2: "Turn-based actions are not controlled by any player."
"""

from __future__ import annotations

from mtgr.rules.checks.n103_missing_cause import (
    EVENTS,
    causeless,
    event_name,
    replaces_turn_based,
)
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "N104",
    "Replacement without a cause",
    severity=Severity.ERROR,
    decisions=("0018.5", "0005.8", "0005.5", "0040.2"),
    cr=("614.6", "703.2"),
    doc=__doc__,
)


@RULE.on(*EVENTS, with_replacements=True, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if statement.cause is not None:
        return
    state = ctx.state
    if state.stage is Stage.OVER:
        return
    if event_name(statement) is None or causeless(state, statement):
        return  # casting and playing have no cause; nor have turn-based actions
    if replaces_turn_based(state, statement):
        return  # the event replaces a turn-based action, which has no cause to keep
    span = statement.replacement_keyword or statement.span
    ctx.report(
        RULE,
        "a replaced event keeps its original cause: write `by C` (what caused the event before it "
        "was replaced) before `replacement` (decision 0018 item 5, CR 614.6)",
        span,
    )
