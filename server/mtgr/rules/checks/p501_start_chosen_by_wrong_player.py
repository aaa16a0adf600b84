"""The starting player is chosen by a player who did not win the roll or lose the last game.

## What it flags
A `start "P" by "Q"` line when the pregame rolls recorded above it were won by a player
other than Q, or when the last round of rolls ended in a tie for the highest result and
nobody rolled again. When the highest results tie, the tied players roll again, and only
they. Nothing is checked when no rolls are recorded, when a round of rolls is not
complete, or when a player rolls twice in one round: two dice added up, or a die rolled
again, the lines do not say which (`2d6 8` writes two dice as one roll, decision 0110). From the second game of a match on
(`game N`), Q must be the player who lost the previous game, or after a draw the player
who chose in it; nothing is checked when the record does not show how that game ended.

## Why
The players decide who chooses the starting player, and the roll is how they decided:
its winner makes the choice (CR 103.1). A tie decides nothing, so the tied players roll
again before anyone chooses. In the later games of a match the choice is not decided
again: it is the previous game's loser's.

## Example
```mtgr
"Alice" roll d20 6
"Bob" roll d20 17
start "Alice" by "Alice"
```

## Use instead
```mtgr
"Alice" roll d20 6
"Bob" roll d20 17
start "Alice" by "Bob"
```

## Rules basis
- Decision 0009 items 2 and 3: the rolls, re-rolls for ties, and `start "P" by "Q"` with Q the
  roll's winner in the first game and the loser of the previous game after that; decision 0003 item
  8; decision 0019 item 9: the roll's rule is CR 103.1.
- Decision 0110 item 1: `[N]dK`, several dice added up in one roll.
- CR 103.1: "At the start of a game, the players determine which one of them will choose who takes the first turn. In the first game of a match (including a single-game match), the players may use any mutually agreeable method (flipping a coin, rolling dice, etc.) to do so."
- CR 103.1: "In a match of several games, the loser of the previous game chooses who takes the first turn. If the previous game was a draw, the player who made the choice in that game makes the choice in this game."
"""

from __future__ import annotations

from dataclasses import dataclass

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "P501",
    "Starting player not chosen by the roll's winner or the previous game's loser",
    severity=Severity.ERROR,
    decisions=("0009.2", "0009.3", "0003.8", "0030.2", "0019.9", "0110.1"),
    cr=("103.1",),
    doc=__doc__,
)


@dataclass(frozen=True, slots=True)
class RollOutcome:
    winner: str | None  # the one player left after the last complete round
    tied: tuple[str, ...] = ()  # the players tied for the highest result, with no re-roll
    results: tuple[tuple[str, int], ...] = ()  # the last complete round


def roll_outcome(
    players: tuple[str, ...], rolls: tuple[tuple[str, int], ...]
) -> RollOutcome | None:
    """Who won the rolls, round by round; None while a round is incomplete or nobody rolled."""
    if not rolls:
        return None
    contenders = list(players)
    current: dict[str, int] = {}
    last = RollOutcome(None)
    for player, value in rolls:
        if player not in contenders:
            continue  # a player already out of the roll-off: not this rule's business
        if player in current:
            return None  # two dice added up, or a die rolled again: the lines do not say
        current[player] = value
        if len(current) < len(contenders):
            continue
        best = max(current.values())
        contenders = [p for p in contenders if current[p] == best]
        results = tuple(current.items())
        current = {}
        if len(contenders) == 1:
            return RollOutcome(contenders[0], (), results)
        last = RollOutcome(None, tuple(contenders), results)
    if current or not last.tied:
        return None  # a round in progress, or no round complete
    return last


@RULE.on(t.Start)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Start)
    if statement.cause is None or not isinstance(statement.cause.agent, t.PlayerRef):
        return  # an effect naming the starting player (103.1c) is not a choice after a roll
    chooser = statement.cause.agent
    state = ctx.state
    if state.game > 1:  # a later game: its rolls are P508's, and decide nothing
        if state.next_chooser is not None and chooser.name != state.next_chooser:
            ctx.report(
                RULE,
                f'"{state.next_chooser}" chooses who starts game {state.game}: the loser of the '
                "previous game chooses (after a draw, the player who chose in it); write "
                f'`by "{state.next_chooser}"` (CR 103.1)',
                chooser.span,
            )
        return
    outcome = roll_outcome(ctx.state.player_names(), ctx.state.rolls)
    if outcome is None:
        return
    shown = ", ".join(f"{p} {v}" for p, v in outcome.results)
    if outcome.winner is None:
        tied = " and ".join(f'"{p}"' for p in outcome.tied)
        ctx.report(
            RULE,
            f"the roll is tied ({shown}): {tied} roll again before the starting player is "
            "chosen, and the winner of that roll chooses (CR 103.1)",
            chooser.span,
        )
    elif outcome.winner != chooser.name:
        ctx.report(
            RULE,
            f'"{outcome.winner}" won the roll ({shown}), so "{outcome.winner}" chooses the '
            f'starting player: write `by "{outcome.winner}"` (CR 103.1)',
            chooser.span,
        )
