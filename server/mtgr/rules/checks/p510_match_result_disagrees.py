"""A match result that cannot be the score of the games recorded.

## What it flags
A `match` line written while its last game is still going; a score whose games do not add
up to the number of that last game (`match "Alice" 2-1` after `game 2`); a winner who did
not win more games than they lost, or a drawn match whose players did not win as many.

## Why
A match is played game after game until it is decided (CR 100.6a), so the games won, lost
and drawn add up to the number of the game that ended it, and the winner won more of them.
The match ends with the end of its last game: a player who concedes the match concedes the
game in progress first (CR 104.3a). Which player won each earlier game is not compared:
the checker keeps only the current game, so that an edit re-checks one game and not the
whole file.

## Example
```mtgr
game 3
"Bob" concede
match "Alice" 2-0
```

## Use instead
```mtgr
game 3
"Bob" concede
match "Alice" 2-1
```

## Rules basis
- Decision 0030 item 7: the match result, its score, and where it is written; item 5: a drawn game.
- CR 100.6a: "Tournaments usually consist of a series of matches. A two-player match usually involves playing until one player has won two games."
- CR 104.3a: "A player can concede the game at any time. A player who concedes leaves the game immediately. That player loses the game."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P510",
    "Match result that cannot be the games' score",
    severity=Severity.ERROR,
    decisions=("0030.7", "0030.5"),
    cr=("100.6a", "104.3a"),
    doc=__doc__,
)


@RULE.on(t.MatchResult)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.MatchResult)
    state = ctx.state
    if state.stage in (Stage.PREGAME, Stage.PLAYING, Stage.GAP) and state.result is None:
        ctx.report(
            RULE,
            f"game {state.game} has not ended: write how it ended (a concession, a loss, a "
            "win or `game drawn`) before the match result",
            statement.verb.span,
        )
        return
    games = statement.games
    won, lost = games[0], games[1]
    if statement.winner is not None and won <= lost:
        ctx.report(
            RULE,
            f"{statement.winner.name} won {won} games and lost {lost}: the match's winner won "
            "more games than they lost",
            statement.score.span,
        )
    elif statement.winner is None and won != lost:
        ctx.report(
            RULE,
            f"a drawn match has as many games won as lost, not {won} and {lost}",
            statement.score.span,
        )
    elif state.stage is not Stage.HEADER and sum(games) != state.game:
        ctx.report(
            RULE,
            f"the match ended with game {state.game}, but the score counts {sum(games)} "
            f"game{'s' if sum(games) != 1 else ''}; games won, lost and drawn add up to "
            f"{state.game}",
            statement.score.span,
        )
