"""The first turn begins before the pregame is done.

## What it flags
The first `turn` line of a game when no `start` line has said who the starting player
is, or when a player has not kept an opening hand. A record that does not show the
pregame says so with `incomplete` (and a keyframe) before its first turn.

## Why
The game's first turn is the starting player's (CR 103.8), so the starting player must
be known first (CR 103.1), and the first turn comes only once the mulligan process is
complete: every player has declared that they keep (CR 103.5, 103.6).

## Example
```mtgr
"Bob" keep
turn 1 "Bob"
```

## Use instead
```mtgr
"Bob" keep
"Alice" keep
turn 1 "Bob"
```

## Rules basis
- Decision 0009 item 1: the pregame, then the first `turn` line ends it; items 3 and 5: `start`, and
  declarations until every player has kept.
- CR 103.1: "The player chosen to take the first turn is the starting player."
- CR 103.5: "Once a player chooses not to take a mulligan, the remaining cards become that player's opening hand, and that player may not take any further mulligans. This process is then repeated until no player takes a mulligan."
- CR 103.8: "The starting player takes their first turn."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER
from mtgr.syntax import tree as t

RULE = define(
    "T406",
    "Turn before the pregame is done",
    severity=Severity.ERROR,
    decisions=("0009.1", "0009.3", "0009.5"),
    cr=("103.1", "103.5", "103.8"),
    doc=__doc__,
)


@RULE.on(t.Turn, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.turn.line is not None or state.incomplete_since_turn:
        return
    problems = []
    if state.starting_player is None:
        problems.append('no `start "P" by "Q"` line says who the starting player is (CR 103.1)')
    waiting = [p.name for p in state.players if not p.kept and not p.lost]
    if waiting:
        names = " and ".join(f'"{name}"' for name in waiting)
        verb = "has" if len(waiting) == 1 else "have"
        problems.append(f"{names} {verb} not kept an opening hand (CR 103.5)")
    if not problems:
        return
    ctx.report(
        RULE,
        "the first turn begins before the pregame is done: "
        + "; ".join(problems)
        + "; if the record does not show the pregame, write `incomplete` and a keyframe first",
        statement.verb.span,
    )
