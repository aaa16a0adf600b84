"""An event between `incomplete` and its keyframe.

## What it flags
A line between `incomplete` and the keyframe that follows it that is not a `new` line, a
`turn`, `phase` or `step` line, or a player's `concede` or `lose` (a player who left the
game meanwhile, decision 0109): a draw, a move, a cast, a life change...

## Why
`incomplete` marks a gap: what happened in it is not recorded. Until the next keyframe,
`new` lines introduce the objects the keyframe will show, and turn, phase and step lines
may say where the game is (decision 0019 item 8), and a player who left the game while it
was not recorded says so with `concede` or `lose` (decision 0109). An event there can't be checked
against anything and the keyframe sets the state anyway: record it after the keyframe,
or leave it out.

## Example
```mtgr
incomplete
#40 new card "Forest" battlefield "Alice"
#40 tap by "Alice"
keyframe
#40 battlefield "Alice" tapped
end
```

## Use instead
```mtgr
incomplete
#40 new card "Forest" battlefield "Alice"
keyframe
#40 battlefield "Alice" tapped
end
```

## Rules basis
- Decision 0019 item 8: after `incomplete`, turns may be missing, and `new` lines before the next
  keyframe introduce objects where that keyframe shows them.
- Decision 0015 item 1: until the next keyframe only `new` lines and `turn`, `phase` and `step`
  lines may stand.
- Decision 0109 items 1 and 3: a player's `concede` or `lose` may stand there too.
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "F903",
    "Event in a gap",
    severity=Severity.ERROR,
    decisions=("0015.1", "0019.8", "0109.1", "0109.3"),
    doc=__doc__,
)

# Allowed in a gap; header lines and keyframe entries are N101's and F902's.
_ALLOWED = (
    t.New,
    t.Turn,
    t.PhaseOrStep,
    t.Marker,
    t.GameStart,
    t.Header,
    t.PlayerDeclaration,
    t.SnapshotObject,
    t.SnapshotPlayer,
    t.JudgeEvent,  # a tournament event, not the game's (decision 0033)
)


def _leaves_the_game(statement: t.Statement) -> bool:
    """A player who left the game while it was not recorded (decision 0109)."""
    return isinstance(statement, t.PlayerAction) and statement.verb.value in ("concede", "lose")


@RULE.on(t.Statement, stages=(Stage.GAP,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.in_keyframe is not None:
        return
    if isinstance(statement, _ALLOWED) or _leaves_the_game(statement):
        return
    gap = state.gap_line
    ctx.report(
        RULE,
        "between `incomplete` and its keyframe only `new` lines, turn, phase and step lines, "
        "and a player's `concede` or `lose` may stand; record this event after the "
        "keyframe, or leave it out",
        statement.verb.span,
        related=(Related(gap, None, "the gap begins here"),) if gap is not None else (),
    )
