"""A player who drew from an empty library is still in the game after state-based actions.

## What it flags
The first line after a player drew from their empty library (its size tracked with
`deck N`) that comes only after a player received priority, when no line between
records that player's loss. The draw itself is V703's or the library check's; this rule
is about the game going on. The checker does not know a library's size after a gap until
a keyframe gives it, nor cards that let a player draw from an empty library without
losing (Laboratory Maniac): write `// allow B102` there.
Not reported while a lasting effect on the lines is about losing the game, nor, with a
card index, while a permanent's text says a player can't lose it (Platinum Angel,
Phyrexian Unlife): a "can't" effect wins (CR 101.2).

## Why
A player who attempted to draw from a library with no cards in it loses the game the
next time state-based actions are checked (CR 704.5b, 104.3c), before any player gets
priority (CR 704.3).

## Example
```mtgr
"Bob" draw #60
step upkeep
```

## Use instead
```mtgr
"Bob" draw #60
"Bob" lose by sba
```

## Rules basis
- Decision 0024 item 1: the loss is recorded before the next line that comes after a player
  received priority.
- CR 704.5b: "If a player attempted to draw a card from a library with no cards in it since the last time state-based actions were checked, that player loses the game."
- CR 104.3c: "If a player is required to draw more cards than are left in their library, they draw the remaining cards and then lose the game the next time a player would receive priority."
- CR 101.2: "When a rule or effect allows or directs something to happen, and another effect states that it can't happen," the effect that says it can't wins.
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import report_pending_losses
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B102",
    "Player who drew from an empty library still playing",
    severity=Severity.ERROR,
    decisions=("0024.1",),
    cr=("704.5b", "104.3c", "101.2"),
    doc=__doc__,
)


@RULE.on(*PRIORITY_LINES, stages=(Stage.PLAYING,), with_sba_due=True)
def check(ctx: Context, statement: t.Statement) -> None:
    report_pending_losses(ctx, RULE, "draw", "drew from an empty library", "704.5b")
