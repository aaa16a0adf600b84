"""A turn ends with the active player holding more than seven cards.

## What it flags
A `turn` line while the player whose turn just ended holds more than seven cards in hand
by the lines (cards drawn, less those played, cast, discarded or moved): the cleanup
step's discard to the maximum hand size was left out. Quiet when the lines do not say
the hand or its maximum: after a gap in that turn, while a lasting effect mentions a hand
size (Praetor's Counsel), in a Commander game or with an emblem without a card index (a
deck of a hundred cards often has Reliquary Tower or Thought Vessel), and with an index
whenever a permanent or emblem may change a maximum hand size (its text says "hand
size", or the index does not know it, or it is face down or a token). Without an index a
permanent's static ability is not read: a record that keeps eight cards under Spellbook
or Wizard Class says so with `// allow T424` on the turn line (decision 0050 item 3).

## Why
A player may hold any number of cards during a turn, but as the cleanup step begins the
active player discards down to their maximum hand size, normally seven (CR 514.1, 402.2).
The discard is a turn-based action, written without a cause in the cleanup step
(decision 0005 item 5); a turn that ends with eight cards in its player's hand lacks it.

## Example
```mtgr
step draw
"Alice" draw #16 "Swamp"
phase ending
step cleanup

turn 4 "Bob"
```

## Use instead
```mtgr
step draw
"Alice" draw #16 "Swamp"
phase ending
step cleanup
#16 move hand -> graveyard as discard

turn 4 "Bob"
```

## Rules basis
- Decision 0005 item 5: turn-based actions, the cleanup step's discard among them, have no cause.
- Decision 0050 item 3: card knowledge only adds to what the lines show, and a card-aware rule stays silent where it cannot be sure.
- CR 514.1: "First, if the active player's hand contains more cards than their maximum hand size (normally seven), they discard enough cards to reduce their hand size to that number."
- CR 402.2: "Each player has a maximum hand size, which is normally seven cards."
"""

from __future__ import annotations

from mtgr.rules.card_facts import maximum_hand_size_may_differ
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import MAXIMUM_HAND_SIZE, Stage
from mtgr.syntax import tree as t

RULE = define(
    "T424",
    "Hand above the maximum hand size after cleanup",
    severity=Severity.ERROR,
    decisions=("0005.5", "0050.3"),
    cr=("514.1", "402.2"),
    doc=__doc__,
)


@RULE.on(t.Turn, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    active = state.turn.player
    if active is None or state.incomplete_since_turn:
        return
    player = state.player(active)
    if player is None or player.lost:
        return
    hand = state.hand_size(active)
    if hand <= MAXIMUM_HAND_SIZE or maximum_hand_size_may_differ(ctx):
        return
    unread = (
        ""
        if ctx.cards is not None
        else "; if a permanent raised the maximum (Reliquary Tower), a card index reads it "
        "(`mtgr cards update`), or write `// allow T424` on this line"
    )
    ctx.report(
        RULE,
        f'"{active}" ended turn {state.turn.number} with {hand} cards in hand: as the '
        f"cleanup step begins the active player discards down to {MAXIMUM_HAND_SIZE} "
        f"(CR 514.1), written `#N move hand -> graveyard as discard` in `step cleanup`{unread}",
        statement.verb.span,
    )
