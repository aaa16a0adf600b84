"""A turn taken by the wrong player.

## What it flags
A `turn N "P"` line whose player is not the one whose turn comes next: the first turn is
the starting player's, and each turn after it belongs to the next player in turn order
(seating order from the starting player, skipping players who have left the game) after
the player of the last turn that was not an extra turn. A turn out of that order names
the effect responsible as its cause, `turn N "P" by #M` (an extra turn, or the turn after
a skipped one), and may be anyone's. After `incomplete` (until the keyframe that ends the
gap, and for the first turn line after it), any player may be next.

## Why
The starting player takes the first turn and the default turn order proceeds from them
(CR 103.1, 103.8); an extra turn is added directly after the turn it follows, and the
normal order goes on after it (CR 500.7).

## Example
```mtgr
start "Bob" by "Bob"
turn 1 "Alice"
```

## Use instead
```mtgr
start "Bob" by "Bob"
turn 1 "Bob"
```

## Rules basis
- Decision 0010 item 1: the next player in turn order after the previous turn's player, the starting
  player for turn 1; a turn out of that order names the effect responsible. Decision 0003 item 7:
  turn order is seating order from the starting player.
- CR 103.1: "The player chosen to take the first turn is the starting player. The game's default turn order begins with the starting player and proceeds clockwise."
- CR 103.8: "The starting player takes their first turn."
- CR 500.7: "Some effects can give a player extra turns. They do this by adding the turns directly after the specified turn."
"""

from __future__ import annotations

from mtgr.rules.checks.m801_player_acts_after_leaving import has_left
from mtgr.rules.checks.t401_turn_number import gap_since_last_turn
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER
from mtgr.syntax import tree as t

RULE = define(
    "T402",
    "Wrong active player",
    severity=Severity.ERROR,
    decisions=("0010.1", "0003.7"),
    cr=("103.1", "103.8", "500.7"),
    doc=__doc__,
)


@RULE.on(t.Turn, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Turn)
    state = ctx.state
    if statement.cause is not None or gap_since_last_turn(state):
        return
    if statement.number.value <= state.turn.number:
        return  # a number that does not go up is T401's
    # With a number that skips (T401), the player may be right for the next turn or for the
    # numbered one: either is accepted, so that one mistake gives one diagnostic.
    accepted = state.expected_turn_players(statement.number.value)
    player = statement.player.name
    if not accepted or player in accepted or has_left(state, player):
        return  # a player who left the game is M801's
    expected = accepted[0]
    if state.turn.line is None:
        why = f'the first turn is the starting player\'s ("{state.starting_player}")'
    else:
        last = state.turn.normal_player or state.turn.player
        why = f'"{expected}" is the next player in turn order after "{last}"'
    ctx.report(
        RULE,
        f'turn {statement.number.value} is "{expected}"\'s, not "{player}"\'s: {why} '
        "(CR 103.8, decision 0010 item 1); a turn out of that order names the effect "
        "responsible, `by #N` (CR 500.7)",
        statement.player.span,
    )
