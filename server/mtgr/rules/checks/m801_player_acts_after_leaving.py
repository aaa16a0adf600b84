"""A player who has left a multiplayer game acts, or is acted on, in it.

## What it flags
A line of a game that goes on after a player conceded or lost, in which that player draws,
gains or loses life, chooses or pays (`by "P"`), casts, takes a turn, or is attacked,
targeted or dealt damage. Keyframe entries, the match result, the next game and a
judge's lines are not flagged, nor a `turn` line of a gap: a player who left during their
own turn leaves it going on (CR 800.4j), and a gap's lines do not say in what order things
happened (decision 0109 item 2). Objects the player owned are gone with them: lines about those are O204's.

## Why
In a multiplayer game the game goes on after a player leaves it (CR 800.4), but that
player has no part in it any more: everything they owned left with them (CR 800.4a), a
turn that would be theirs does not begin (CR 800.4k), combat damage is not assigned to
them (CR 800.4e), and choices they would make are made by others (CR 800.4g, 800.4h).

## Example
```mtgr
"Carol" lose by sba
turn 9 "Carol"
```

## Use instead
```mtgr
"Carol" lose by sba
turn 9 "Dave"
```

## Rules basis
- Decision 0032 item 5: after P has left, no line has P act or be acted on; item 4: what
  leaving the game does.
- CR 800.4a: "When a player leaves the game, all objects (see rule 109) owned by that player leave the game and any effects which give that player control of any objects or players end."
- CR 800.4k: "If a player who has left the game would begin a turn, that turn doesn't begin."
- CR 800.4e: "If combat damage would be assigned to a player who has left the game, that damage isn't assigned."
- CR 800.4j: "If a player leaves the game during their turn, that turn continues to its completion without an active player."
- Decision 0109 item 2: a departure in a gap says that the player left, not when.
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "M801",
    "Player acts or is acted on after leaving the game",
    severity=Severity.ERROR,
    decisions=("0032.5", "0032.4", "0109.2"),
    cr=("800.4a", "800.4k", "800.4e", "800.4j"),
    doc=__doc__,
)

# Lines that may name a player who left: what the record says about the game, not in it.
_NOT_IN_THE_GAME = (
    t.Header,
    t.PlayerDeclaration,
    t.SnapshotObject,
    t.SnapshotPlayer,
    t.MatchResult,
    t.GameStart,
    t.Marker,
    t.JudgeEvent,
)


def has_left(state: GameState, name: str) -> bool:
    """A declared player who conceded or lost in a game still going on."""
    player = state.player(name)
    return player is not None and player.lost and state.stage is not Stage.OVER


@RULE.on(t.Statement, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    for player in state.players:
        if player.lost:
            break
    else:
        return  # nobody has left: the common case, and the cheapest to tell
    if isinstance(statement, _NOT_IN_THE_GAME):
        return
    if isinstance(statement, t.Turn) and state.stage is Stage.GAP:
        return  # the turn the record resumes in may be the one its player left in (800.4j)
    for ref in statement.players:
        if has_left(state, ref.name):
            ctx.report(
                RULE,
                f"{ref.name} has left the game: nothing they own is in it any more, and they "
                "take no turn, make no choice and are not attacked, targeted or dealt damage "
                "(CR 800.4a)",
                ref.span,
            )
            return
