"""A player with ten or more poison counters is still in the game after state-based actions.

## What it flags
The first line after a player got their tenth poison counter that comes only after a
player received priority, when no line between records that player's loss. In a
Two-Headed Giant game the team's poison is shared and fifteen counters lose (CR 704.6b);
the checker counts each player's own.
Not reported while a lasting effect on the lines is about losing the game, nor, with a
card index, while a permanent's text says a player can't lose it (Platinum Angel,
Phyrexian Unlife): a "can't" effect wins (CR 101.2).

## Why
A player with ten or more poison counters loses the game the next time state-based
actions are checked (CR 704.5c, 104.3d), before any player gets priority (CR 704.3).

## Example
```mtgr
"Bob" counters +2 poison by #30
phase main
```

## Use instead
```mtgr
"Bob" counters +2 poison by #30
"Bob" lose by sba
```

## Rules basis
- Decision 0024 item 1: the loss is recorded before the next line that comes after a player
  received priority.
- Decision 0013 item 3: a player with ten or more poison counters loses the game `by sba`.
- CR 704.5c: "If a player has ten or more poison counters, that player loses the game."
- CR 104.3d: "If a player has ten or more poison counters, that player loses the game the next time a player would receive priority."
- CR 101.2: "When a rule or effect allows or directs something to happen, and another effect states that it can't happen," the effect that says it can't wins.
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import report_pending_losses
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B103",
    "Player with ten poison counters still playing",
    severity=Severity.ERROR,
    decisions=("0024.1", "0013.3"),
    cr=("704.5c", "104.3d", "101.2"),
    doc=__doc__,
)


@RULE.on(*PRIORITY_LINES, stages=(Stage.PLAYING,), with_sba_due=True)
def check(ctx: Context, statement: t.Statement) -> None:
    report_pending_losses(ctx, RULE, "poison", "has ten or more poison counters", "704.5c")
