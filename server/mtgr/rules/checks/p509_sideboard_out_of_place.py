"""Sideboarding outside the time between two games.

## What it flags
A `sideboard` line in the first game of a match, before the first `game N` line of a
file that has earlier games, or after the opening draws, mulligans or turns of its game
began. A file that begins with a later game (`game 3`) may sideboard before that game.

## Why
A player changes their deck between the games of a match, before the next game's
pregame begins: the Magic Tournament Rules (Pregame Procedures) say so; we do not have
their text to quote. The first game is played with the deck as registered, and once
the opening hands are drawn the deck is the library (CR 103.3). The sideboarding prepares
the next game, so it is written after that game's `game N` line (decision 0030 item 3).

## Example
```mtgr
"Bob" concede
"Alice" sideboard in "Flusterstorm"
game 2
```

## Use instead
```mtgr
"Bob" concede
game 2
"Alice" sideboard in "Flusterstorm"
```

## Rules basis
- Decision 0030 item 3: sideboarding stands after the `game N` line of the game it prepares and
  before its first opening draw, from the second game on.
- CR 100.6: "Most Magic tournaments (organized play activities where players compete against other players to win prizes) have additional rules covered in the Magic: The Gathering Tournament Rules". Sideboarding is one of them.
- CR 103.3: "The players' decks become their libraries."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "P509",
    "Sideboarding outside the time between games",
    severity=Severity.ERROR,
    decisions=("0030.3",),
    cr=("100.6", "103.3"),
    doc=__doc__,
)


def _pregame_begun(state: GameState) -> bool:
    return state.stage is not Stage.PREGAME or any(
        p.opening_drawn or p.mulligans or p.kept for p in state.players
    )


@RULE.on(t.Sideboard)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Sideboard)
    state = ctx.state
    if state.game < 2:
        where = (
            f"under `game {state.game + 1}`"
            if state.stage is Stage.OVER
            else "under the `game N` line of a later game; the first game is played with the "
            "deck as it was registered"
        )
        ctx.report(
            RULE,
            f"sideboarding happens between games: write it {where}, before that game's "
            "opening draws",
            statement.verb.span,
        )
    elif _pregame_begun(state):
        ctx.report(
            RULE,
            f"game {state.game} has begun: sideboarding comes before its opening draws; "
            f"move this line up, under `game {state.game}`",
            statement.verb.span,
        )
