"""A keep or mulligan declared with a hand that is not seven cards.

## What it flags
A `keep` or `mulligan` line when the player's hand, as rebuilt from the lines above,
does not hold seven cards: a draw is missing or doubled, or cards were put on the bottom
before the player kept.

## Why
Each player draws a hand of seven, their starting hand size, and decides on that hand;
each mulligan is a new hand of seven (CR 103.5). The cards a player owes for mulligans
go on the bottom only once they keep, so every declaration is made with seven cards.
Every draw is a line of its own, hidden draws included, so a hand of another size means
the record is missing a line or has one too many.

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
- CR 103.5: "Each player draws a number of cards equal to their starting hand size, which is normally seven."
- CR 103.5: "To take a mulligan, a player shuffles the cards in their hand back into their library, draws a new hand of cards equal to their starting hand size"
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P507",
    "Keep or mulligan with a hand that is not seven cards",
    severity=Severity.ERROR,
    decisions=("0009.4", "0009.5"),
    cr=("103.5",),
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
    if hand == STARTING_HAND_SIZE:
        return
    cards = f"{hand} card" + ("" if hand == 1 else "s")
    if hand < STARTING_HAND_SIZE:
        advice = f"record all {STARTING_HAND_SIZE} draws (one `draw` line a card, hidden ones too)"
        if player.bottomed:
            advice = "put cards on the bottom only after keeping"
    else:
        advice = "remove the extra draw"
    ctx.report(
        RULE,
        f'"{player.name}" declares `{verb}` with a hand of {cards}, not {STARTING_HAND_SIZE}: '
        f"{advice} (CR 103.5)",
        statement.verb.span,
    )
