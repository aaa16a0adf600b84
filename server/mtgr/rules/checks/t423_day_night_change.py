"""Day or night changing against the rule of the untap step, or not changing.

## What it flags
A `day` or `night` line without cause (decision 0026 item 4) outside the untap step, or
one that the untap step's rule does not make: night when it was not day or when the
previous turn's active player cast a spell, day when it was not night or when they cast
fewer than two. And the first line after an untap step that the rule says changes day
or night, when no line wrote the change. The checker counts the `cast` lines of the
previous turn's active player; after a gap it does not know the count and says nothing.

## Why
As the second part of the untap step, if it is day and the previous turn's active player
cast no spells during that turn it becomes night, and if it is night and they cast two
or more it becomes day; if it is neither, it stays neither (CR 502.2, 731.2). Other
changes come from effects, written with their cause.

## Example
```mtgr
turn 6 "Bob"
step untap
step upkeep
```

## Use instead
```mtgr
turn 6 "Bob"
step untap
night
step upkeep
```

## Rules basis
- Decision 0026 item 4: the untap step's change of day and night is a line without cause.
- CR 502.2: "Second, if it's day and the previous turn's active player didn't cast any spells during that turn, it becomes night. If it's night and the previous turn's active player cast two or more spells during that turn, it becomes day."
- CR 731.2c: "If it's neither day nor night, this check doesn't happen and it remains neither."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage, ends_untap_step
from mtgr.syntax import tree as t

RULE = define(
    "T423",
    "Day or night not as the untap step makes it",
    severity=Severity.ERROR,
    decisions=("0026.4",),
    cr=("502.2", "731.2c"),
    doc=__doc__,
)


@RULE.on(t.DayNight, stages=(Stage.PLAYING,))
def check_change(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if statement.cause is not None or quiet(ctx):
        return
    value = statement.verb.value
    if state.turn.step != "untap":
        ctx.report(
            RULE,
            f"without a cause it becomes {value} only in the untap step (CR 502.2); an effect "
            f"that makes it {value} is named, `{value} by #N`",
            statement.verb.span,
        )
        return
    if state.spells_last_turn is None or state.day_night_due == value:
        return
    now = state.day_night or "neither day nor night"
    ctx.report(
        RULE,
        f"it is {now} and the previous turn's active player cast "
        f"{state.spells_last_turn} spell{'s' if state.spells_last_turn != 1 else ''}, so the "
        f"untap step does not make it {value} (CR 502.2)",
        statement.verb.span,
    )


@RULE.on(*PRIORITY_LINES, with_day_night_due=True)
def check_missing(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    due = state.day_night_due
    if quiet(ctx) or not ends_untap_step(statement):
        return
    ctx.report(
        RULE,
        f"it is {state.day_night} and the previous turn's active player cast "
        f"{state.spells_last_turn} spells, so it becomes {due} in the untap step: write `{due}` "
        "there (CR 502.2)",
        statement.verb.span,
    )
