"""A player loses by a state-based action that the lines do not show.

## What it flags
`"P" lose by sba` while P has more than 0 life, fewer than ten poison counters, has not
tried to draw from an empty library since state-based actions were last checked, and
has not been dealt 21 combat damage by one commander; and `game drawn by sba` while a
player still in the game has none of these reasons to lose. Quiet in a gap or a keyframe,
and while the size of the player's library is not known (a draw from it may have found it
empty).

## Why
A player loses the game as a state-based action only for one of these reasons (CR
704.5a, 704.5b, 704.5c, and 704.6c in Commander). A loss for another reason is a
concession, an effect that says the player loses (written `by #N`), or a judge's game
loss (`judge penalty`, decision 0033 item 3). A game is drawn by state-based actions only
when every player left in it loses at once (CR 104.4a). A `lose by sba` the life totals and counters
of the lines do not explain means a life or counter line is missing or wrong, or the loss
had another cause.

## Example
```mtgr
#1 damage 2 -> "Alice"
"Alice" life -2 by #1
"Alice" lose by sba
```

## Use instead
```mtgr
#1 damage 6 -> "Alice"
"Alice" life -6 by #1
"Alice" lose by sba
```

## Rules basis
- Decision 0024 item 1: a player at 0 or less life, with ten poison counters or who drew from an empty library loses `by sba` before the next line after priority; decision 0033 item 3: a judge's game loss is a `judge penalty` line.
- CR 704.5a: "If a player has 0 or less life, that player loses the game."
- CR 704.5b: "If a player attempted to draw a card from a library with no cards in it since the last time state-based actions were checked, that player loses the game."
- CR 704.5c: "If a player has ten or more poison counters, that player loses the game."
- CR 704.6c: "In a Commander game, a player who's been dealt 21 or more combat damage by the same commander over the course of the game loses the game."
- Decision 0030 item 5: `game drawn by sba` when all the players remaining lose at the same time.
- CR 104.4a: "If all the players remaining in a game lose simultaneously, the game is a draw."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, PlayerState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B109",
    "Loss by a state-based action the lines do not show",
    severity=Severity.ERROR,
    decisions=("0024.1", "0033.3", "0030.5"),
    cr=("704.5a", "704.5b", "704.5c", "704.6c", "104.4a"),
    doc=__doc__,
)

COMMANDER_DAMAGE = 21  # CR 704.6c
POISON = 10  # CR 704.5c


@RULE.on(t.PlayerAction, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    cause = statement.cause
    if statement.verb.value != "lose" or cause is None or not isinstance(cause.agent, t.Sba):
        return
    if statement.replacements:
        return
    assert isinstance(statement, t.PlayerAction)
    state = ctx.state
    player = state.player(statement.subject.name)
    if player is None or player.lost or _may_lose(state, player):
        return
    ctx.report(
        RULE,
        f'"{player.name}" loses by a state-based action with {player.life} life and '
        f"{player.counter('poison')} poison counters: a player loses so at 0 or less life, "
        "with ten poison counters, after drawing from an empty library, or after 21 combat "
        "damage from one commander (CR 704.5a to 704.5c, 704.6c); write the life or counter "
        "line that brought them there, or the loss's real cause (`concede`, `lose by #N`, "
        "`judge penalty`)",
        cause.agent.span,
    )


@RULE.on(t.GameDrawn, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check_draw(ctx: Context, statement: t.Statement) -> None:
    cause = statement.cause
    if cause is None or not isinstance(cause.agent, t.Sba):
        return
    state = ctx.state
    staying = [p for p in state.players if not p.lost and not _may_lose(state, p)]
    if not staying:
        return
    names = " and ".join(f'"{p.name}"' for p in staying)
    ctx.report(
        RULE,
        f"{names} {'has' if len(staying) == 1 else 'have'} no reason on the lines to lose "
        "(0 or less life, ten poison counters, a draw from an empty library, 21 combat damage "
        "from one commander): a game is drawn by state-based actions only when every player "
        "left loses at once (CR 104.4a); write the lines that brought them there, or the "
        "draw's real cause (`game drawn` for an agreed draw, `by #N` for an effect)",
        cause.agent.span,
    )


def _may_lose(state: GameState, player: PlayerState) -> bool:
    """Whether the lines show a reason for a state-based loss, or cannot say."""
    return (
        player.life <= 0
        or player.counter("poison") >= POISON
        or player.loses is not None
        or player.library.size is None
        or player.library.size == 0
        or (
            state.variant != "brawl"  # CR 903.12h
            and any(
                who == player.name and damage >= COMMANDER_DAMAGE
                for who, _commander, damage in state.commander_damage
            )
        )
    )
