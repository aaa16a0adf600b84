"""A keep or mulligan declared with a hand of the wrong size.

## What it flags
A `keep` or `mulligan` line when the player's hand, as rebuilt from the lines above,
does not hold seven cards less one for each mulligan they took (the first is free in a
game of more than two players): a draw is missing or doubled, or the cards a mulligan
puts on the bottom were not put there before the declaration.

## Why
Each player draws a hand of seven, their starting hand size, and decides on that hand.
Each mulligan is a new hand of seven, of which the player puts one card for each
mulligan taken on the bottom, as part of that mulligan and before the next round of
declarations (CR 103.5, decision 0041 item 1). Every draw and every card put on the
bottom is a line of its own, hidden draws included, so a hand of another size means the
record is missing a line or has one too many.

## Example
```mtgr
"Alice" draw #8 "Swamp"
"Alice" draw #9 "Swamp"
"Alice" keep
```

## Use instead
```mtgr
"Alice" draw #8 "Swamp"
"Alice" draw #9 "Swamp"
"Alice" draw #10 "Thoughtseize"
"Alice" draw #11 "Dark Confidant"
"Alice" draw #12 "Liliana of the Veil"
"Alice" draw #13 "Polluted Delta"
"Alice" draw #14 "Swamp"
"Alice" keep
```

## Rules basis
- Decision 0009 items 4 and 5: one `draw` line a card for each opening hand and each new hand.
- Decision 0041 item 1: the cards a mulligan puts on the bottom go before the next declaration.
- CR 103.5: "Each player draws a number of cards equal to their starting hand size, which is normally seven."
- CR 103.5: "To take a mulligan, a player shuffles the cards in their hand back into their library, draws a new hand of cards equal to their starting hand size, then puts a number of those cards equal to the number of times that player has taken a mulligan on the bottom of their library in any order."
- CR 103.5c: "In a multiplayer game and in any Brawl game, the first mulligan a player takes doesn't count toward the number of cards that player will put on the bottom of their library or the number of mulligans that player may take."
"""

from __future__ import annotations

from mtgr.rules.checks.p506_bottomed_cards_not_mulligans import owed_to_bottom
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P507",
    "Keep or mulligan with a hand of the wrong size",
    severity=Severity.ERROR,
    decisions=("0009.4", "0009.5", "0041.1"),
    cr=("103.5", "103.5c"),
    doc=__doc__,
)

STARTING_HAND_SIZE = 7


@RULE.on(t.PlayerAction)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.PlayerAction)
    verb = statement.verb.value
    state = ctx.state
    if verb not in ("keep", "mulligan") or state.stage not in (Stage.HEADER, Stage.PREGAME):
        return
    if state.incomplete_since_turn:
        return
    player = state.player(statement.subject.name)
    if player is None or player.kept:
        return  # declaring again after keeping is P502's
    hand = len(state.in_zone("hand", player.name))
    owed = owed_to_bottom(state, player)
    expected = max(0, STARTING_HAND_SIZE - owed)
    if hand == expected:
        return
    cards = f"{hand} card" + ("" if hand == 1 else "s")
    drawn = hand + player.bottomed
    if drawn < STARTING_HAND_SIZE:
        advice = f"record all {STARTING_HAND_SIZE} draws (one `draw` line a card, hidden ones too)"
    elif drawn > STARTING_HAND_SIZE:
        advice = "remove the extra draw"
    elif owed > player.bottomed:
        missing = owed - player.bottomed
        put = f"{missing} card" + ("" if missing == 1 else "s")
        advice = (
            f"put {put} on the bottom first, as part of the mulligan "
            f'(`#N move hand -> library bottom by "{player.name}"`, decision 0041 item 1)'
        )
    else:
        advice = "put on the bottom only as many cards as the mulligans taken"
    ctx.report(
        RULE,
        f'"{player.name}" declares `{verb}` with a hand of {cards}, not {expected}: '
        f"{advice} (CR 103.5)",
        statement.verb.span,
    )
