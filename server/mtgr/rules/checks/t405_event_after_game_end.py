"""An event recorded after the game ended.

## What it flags
The first line after the end of a game (the last opponent conceded or lost, or a player
won) that records something happening: a turn, a step, an object or player statement,
a `win` for the player left. A `game N` line starts the next game of the match, a
keyframe may still show the final state, and `identify` and `new card` without a cause
may name cards shown as the game ends (its face-down cards, a library's top card). Only the first such line is reported: a
missing `game N` line would otherwise mark every line below it. Moves `by sba` straight
after the loss that ended the game are not reported: state-based actions are performed as
one event (CR 704.3). A `lose by sba` of the player left is, with a message that says how
a draw is written: when all the players left lose at once, the game is a draw.

## Why
A game ends immediately when a player wins, when it is a draw, or when it is restarted
(CR 104.1). A player who concedes or loses leaves the game, and a player still in the
game wins as soon as all their opponents have left (CR 104.2a): that win writes no line
of its own, since it would record the same end twice (decision 0003 item 11). Nothing
else can happen in the game afterwards.

## Example
```mtgr
"Bob" concede
turn 7 "Alice"
```

## Use instead
```mtgr
"Bob" concede
game 2
```

## Rules basis
- Decision 0003 item 8: `game N` starts the next game; item 10: a game ends as it ended; item 11: a
  player whose opponents have all left wins without a line of their own.
- CR 104.1: "A game ends immediately when a player wins, when the game is a draw, or when the game is restarted."
- CR 104.2a: "A player still in the game wins the game if that player's opponents have all left the game. This happens immediately and overrides all effects that would preclude that player from winning the game."
- CR 104.3a: "A player can concede the game at any time. A player who concedes leaves the game immediately. That player loses the game."
- CR 104.4a: "If all the players remaining in a game lose simultaneously, the game is a draw."
- CR 704.3: "then performs all applicable state-based actions simultaneously as a single event."
- CR 708.9: "At the end of each game, all face-down permanents, face-down components of merged permanents, and face-down spells must be revealed to all players."
"""

from __future__ import annotations

from mtgr.rules.apply import by_sba, is_event_after_end
from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "T405",
    "Event after the game ended",
    severity=Severity.ERROR,
    decisions=("0003.8", "0003.10", "0003.11"),
    cr=("104.1", "104.2a", "104.3a", "104.4a", "704.3", "708.9"),
    doc=__doc__,
)


@RULE.on(t.Statement, stages=(Stage.OVER,))  # only a game that is over has an after
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.after_end is not None or not is_event_after_end(state, statement):
        return
    related = (
        (Related(state.ended_line, None, "the game ended here"),)
        if state.ended_line is not None
        else ()
    )
    if _lost_with_the_others(state, statement):
        message = (
            f"game {state.game} ended as {state.result} was left alone in it; if "
            f"{state.result} lost in the same state-based actions, all lost at once and the "
            "game is a draw (CR 104.4a): write `game drawn by sba` in place of the `lose` lines"
        )
    else:
        message = (
            f"game {state.game} is over: nothing happens in it after it ends (CR 104.1); "
            f"remove this line, or start the next game with `game {state.game + 1}` above it"
        )
    ctx.report(RULE, message, statement.verb.span, related=related)


def _lost_with_the_others(state: GameState, statement: t.Statement) -> bool:
    """`"P" lose by sba` straight after the others' losses ended the game, by its winner."""
    return (
        isinstance(statement, t.PlayerAction)
        and statement.verb.value == "lose"
        and by_sba(statement)
        and statement.subject.name == state.result
    )
