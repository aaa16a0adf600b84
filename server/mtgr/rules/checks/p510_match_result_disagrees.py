"""A match result that disagrees with the games recorded.

## What it flags
A `match` line whose winner or score does not follow from the games the file records,
when it records every game from game 1 and how each one ended: the winner must have won
more games than the other player (a drawn match: as many), and W-L[-D] must count the
games won, lost and drawn from the winner's side (a drawn game needs the third number).
A match line written while its last game is still going is flagged too. Nothing is
checked when a game's end is not recorded or the file starts with a later game.

## Why
A match is won by winning games (CR 100.6a); the games' ends are already in the record,
each with its own line, so a score that disagrees with them says two different things.
The match ends with the end of its last game: a player who concedes the match concedes
the game in progress first (CR 104.3a).

## Example
```mtgr
"Bob" concede
match "Alice" 2-0
```

## Use instead
```mtgr
"Bob" concede
match "Alice" 1-0
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
    "Match result disagrees with the games",
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
    if state.stage is Stage.HEADER:
        return
    results = (*state.results, state.result)
    players = state.declared or state.player_names()
    if None in results or len(players) != 2:
        return
    winner = statement.winner.name if statement.winner else players[0]
    other = players[1] if winner == players[0] else players[0]
    won, lost = results.count(winner), results.count(other)
    drawn = results.count("")
    games = statement.games
    expected = (won, lost, drawn) if drawn or len(games) == 3 else (won, lost)
    score = "-".join(str(n) for n in expected)
    if statement.winner is not None and won <= lost:
        ctx.report(
            RULE,
            f'"{winner}" won {won} of the games recorded and lost {lost}: the match is '
            + ("drawn" if won == lost else f'won by "{other}"'),
            statement.winner.span,
        )
    elif statement.winner is None and won != lost:
        leader = winner if won > lost else other
        ctx.report(
            RULE,
            f'the games recorded are not level: "{leader}" won the match',
            statement.verb.span,
        )
    elif games != expected and statement.winner is not None:
        ctx.report(
            RULE,
            f"the games recorded give {score} from {winner}'s side: write `{score}`",
            statement.score.span,
        )
    elif statement.winner is None and games != expected:
        ctx.report(RULE, f"the games recorded give {score}: write `{score}`", statement.score.span)
