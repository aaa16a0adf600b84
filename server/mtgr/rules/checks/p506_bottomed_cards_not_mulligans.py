"""A card put on the bottom that no mulligan asks for.

## What it flags
A card a player puts from their hand on the bottom of their library in the pregame
(`#N move hand -> library bottom by "Alice"`) beyond the number their mulligans ask for:
one more than the mulligans they have taken (the first is free in a game of more than
two players), or one put after they kept. The extra card is reported on its own line.
Too few cards on the bottom show at the next `keep` or `mulligan` (P507).

## Why
Taking a mulligan is one act: the player shuffles their hand back, draws a new hand of
seven and puts as many of those cards on the bottom as the mulligans they have taken,
all before the next round of declarations (CR 103.5, decision 0041 item 1). Once a player
keeps, the remaining cards are their opening hand; no card goes to the bottom after that.
An extra card leaves the opening hand, and the library, the wrong size for the rest of
the game.

## Example
```mtgr
"Alice" mulligan
"Alice" draw #15 "Swamp"   // and six more
#15 move hand -> library bottom by "Alice"
#16 move hand -> library bottom by "Alice"
"Alice" keep
```

## Use instead
```mtgr
"Alice" mulligan
"Alice" draw #15 "Swamp"   // and six more
#15 move hand -> library bottom by "Alice"
"Alice" keep
```

## Rules basis
- Decision 0041 items 1 and 2 (amending decision 0009 item 6).
- CR 103.5: "To take a mulligan, a player shuffles the cards in their hand back into their library, draws a new hand of cards equal to their starting hand size, then puts a number of those cards equal to the number of times that player has taken a mulligan on the bottom of their library in any order."
- CR 103.5: "Once a player chooses not to take a mulligan, the remaining cards become that player's opening hand, and that player may not take any further mulligans."
- CR 103.5c: "In a multiplayer game and in any Brawl game, the first mulligan a player takes doesn't count toward the number of cards that player will put on the bottom of their library or the number of mulligans that player may take."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, PlayerState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "P506",
    "Card put on the bottom that no mulligan asks for",
    severity=Severity.ERROR,
    decisions=("0041.1", "0041.2"),
    cr=("103.5", "103.5c"),
    doc=__doc__,
)


def owed_to_bottom(state: GameState, player: PlayerState) -> int:
    """The cards a player puts on the bottom for the mulligans taken (CR 103.5, 103.5c)."""
    free = 1 if state.free_mulligan() else 0
    return max(0, player.mulligans - free)


@RULE.on(t.Move, stages=(Stage.PREGAME,))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    state = ctx.state
    if state.incomplete_since_turn:
        return
    destination = statement.destination
    if statement.source.zone.value != "hand" or destination.zone.value != "library":
        return
    cause = statement.cause
    if destination.position is None or destination.position.end.value != "bottom":
        return
    if cause is None or not isinstance(cause.agent, t.PlayerRef):
        return  # a card's effect (Serum Powder's kin), not the mulligan's bottoming
    obj = state.obj(statement.subject.number)
    player = state.player(obj.owner) if obj is not None and obj.owner else None
    if player is None:
        return
    if player.kept:
        related = ()
        if player.kept_line is not None:
            related = (Related(player.kept_line, None, f'"{player.name}" kept here'),)
        ctx.report(
            RULE,
            f'"{player.name}" has kept: the cards a mulligan puts on the bottom go as part of '
            "that mulligan, after its draws and before the next `keep` or `mulligan` "
            "(CR 103.5, decision 0041 item 1); move this line up",
            statement.verb.span,
            related=related,
        )
        return
    owed = owed_to_bottom(state, player)
    if player.bottomed < owed:
        return
    mulligans = f"{player.mulligans} mulligan" + ("" if player.mulligans == 1 else "s")
    cards = f"{owed} card" + ("" if owed == 1 else "s")
    ctx.report(
        RULE,
        f'"{player.name}" has taken {mulligans} and already put {cards} on the bottom: '
        f"this card is one more than the mulligans ask for (CR 103.5, 103.5c); remove the line",
        statement.verb.span,
    )
