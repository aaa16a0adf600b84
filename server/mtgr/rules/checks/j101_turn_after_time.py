"""A turn begun after the turns allowed once time was called.

## What it flags
A `turn` line whose number is more than K after the turn in which `judge time turns K`
was written: once time is called, the turn in progress is finished and K more turns are
played, and the game ends there. Turns count as the record numbers them, extra turns
included. Nothing is checked when `judge time` gives no number of turns.

## Why
Time limits are tournament rules, not the game's: the Magic Tournament Rules (End-of-Match
Procedure) say how many turns are played after time is called; we do not have their text,
so the record writes the number itself (decision 0033 item 5). A turn beyond them was not
played under those rules, so the record has a turn too many or the wrong number of turns.

## Example
```mtgr
judge time turns 1
turn 8 "Bob"
turn 9 "Alice"
```

## Use instead
```mtgr
judge time turns 1
turn 8 "Bob"
game drawn
```

## Rules basis
- Decision 0033 item 5: `judge time [turns K]`, the turn in progress and K more.
- CR 100.6: "Most Magic tournaments (organized play activities where players compete against other players to win prizes) have additional rules covered in the Magic: The Gathering Tournament Rules". Time limits are among them.
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER
from mtgr.syntax import tree as t

RULE = define(
    "J101",
    "Turn after the turns allowed once time was called",
    severity=Severity.ERROR,
    decisions=("0033.5",),
    cr=("100.6",),
    doc=__doc__,
)


@RULE.on(t.Turn, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Turn)
    state = ctx.state
    if state.time_called is None:
        return
    called_in, turns, line = state.time_called
    last = called_in + turns
    if statement.number.value <= last:
        return
    ctx.report(
        RULE,
        f"time was called in turn {called_in} with {turns} more turn{'s' if turns != 1 else ''} "
        f"to play: turn {last} "
        "was the last; write how the game ended after it (usually `game drawn`)",
        statement.number.span,
        related=(Related(line, None, "time was called here"),),
    )
