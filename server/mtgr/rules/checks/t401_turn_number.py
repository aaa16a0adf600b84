"""A turn number that is not the next one.

## What it flags
A `turn N` line whose N is not one more than the previous turn's number; the first turn
of a game is turn 1. After `incomplete` (until the keyframe that ends the gap, and for the
first turn line after it), turns may be missing, so any higher number is accepted there;
after a judge's backup, the first turn line may also go back to the turn the game was
restored into (decision 0094).

## Why
Turns are numbered one after the other from the starting player's first turn, extra
turns included, so that a turn number says exactly which turn a line is in (decision
0010 item 1). A skipped or repeated number is a missing turn, or a typo, and everything
that lasts "until your next turn" or counts turns would be read wrong.

## Example
```mtgr
turn 1 "Bob"
turn 3 "Alice"
```

## Use instead
```mtgr
turn 1 "Bob"
turn 2 "Alice"
```

## Rules basis
- Decision 0010 item 1: N is one more than the previous turn's number, the first turn is 1; decision
  0019 item 8: after `incomplete`, turns may be missing; decision 0094 item 1: after a backup,
  the turn line of the restored point.
- CR 103.8: "The starting player takes their first turn."
- CR 500.7: "Some effects can give a player extra turns. They do this by adding the turns directly after the specified turn."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "T401",
    "Turn number not the next one",
    severity=Severity.ERROR,
    decisions=("0010.1", "0019.8", "0094.1"),
    cr=("103.8", "500.7"),
    doc=__doc__,
)


def gap_since_last_turn(state: GameState) -> bool:
    """An `incomplete` since the last turn line (or in this game, before the first), or a gap
    not yet closed by its keyframe: turns may be missing there (decision 0019 item 8)."""
    return state.incomplete_since_turn or state.stage is Stage.GAP


def _last_turn(state: GameState) -> tuple[Related, ...]:
    """Where the turn before began, for a report (built only then)."""
    turn = state.turn
    if turn.line is None:
        return ()
    return (Related(turn.line, None, f"turn {turn.number} began here"),)


@RULE.on(t.Turn, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Turn)
    state = ctx.state
    number = statement.number.value
    previous = state.turn.number
    if gap_since_last_turn(state):
        if number > previous or (state.backed_up_since_turn and number >= 1):
            return  # a backup may restore an earlier turn (decision 0094)
        ctx.report(
            RULE,
            f"turn {number} after turn {previous}: turns may be missing after `incomplete`, "
            f"but the number still goes up (turn {previous + 1} or later)",
            statement.number.span,
            related=_last_turn(state),
        )
        return
    expected = previous + 1
    if number == expected:
        return
    after = f"after turn {previous}" if previous else "as the first turn of the game"
    ctx.report(
        RULE,
        f"turn {number} {after}: the next turn is turn {expected}; if turns were not "
        "recorded, write `incomplete` before this line (decision 0010 item 1)",
        statement.number.span,
        related=_last_turn(state),
    )
