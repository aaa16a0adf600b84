"""A player at 0 or less life is still in the game after state-based actions.

## What it flags
The first line after a player's life became 0 or less that comes only after a player
received priority (a cast, unless the resolving spell casts it, an activation, a land
played, a resolution, a new turn, phase or step, an attack or block; not a triggered
ability, which is written as it triggers), when no line between records that player's
loss (`"P" lose by sba`, a concession, or the end of the game). Life regained before then
(lifelink in the same damage event, an effect of the same resolving spell) saves them.
The checker cannot see a card that stops a player from losing (Platinum Angel): write
`// allow B101` on that line.
Not reported while a lasting effect on the lines is about losing the game, nor, with a
card index, while a permanent's text says a player can't lose it (Platinum Angel,
Phyrexian Unlife): a "can't" effect wins (CR 101.2).

## Why
A player with 0 or less life loses the game the next time a player would receive
priority, as a state-based action (CR 704.5a, 104.3b), and state-based actions are
checked before any player gets priority (CR 704.3, 117.5). The loss is an event of the
record like any other (decision 0024 item 1).

## Example
```mtgr
"Bob" life -3 by #22
turn 8 "Bob"
```

## Use instead
```mtgr
"Bob" life -3 by #22
"Bob" lose by sba
```

## Rules basis
- Decision 0024 item 1: a player who loses to a state-based action has the loss recorded before
  the next line that comes after a player received priority.
- CR 704.5a: "If a player has 0 or less life, that player loses the game."
- CR 104.3b: "If a player's life total is 0 or less, that player loses the game the next time a player would receive priority."
- CR 704.3: "Whenever a player would get priority" the game "checks for any of the listed conditions for state-based actions".
- CR 101.2: "When a rule or effect allows or directs something to happen, and another effect states that it can't happen," the effect that says it can't wins.
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import report_pending_losses
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B101",
    "Player at 0 life still playing",
    severity=Severity.ERROR,
    decisions=("0024.1",),
    cr=("704.5a", "104.3b", "704.3", "101.2"),
    doc=__doc__,
)


@RULE.on(*PRIORITY_LINES, stages=(Stage.PLAYING,), with_sba_due=True)
def check(ctx: Context, statement: t.Statement) -> None:
    report_pending_losses(ctx, RULE, "life", "has 0 or less life", "704.5a")
