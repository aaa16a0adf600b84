"""A card put into another player's hand, graveyard or library.

## What it flags
A `move` (or `resolve`, `fizzle`, `countered`) whose destination is a hand, a graveyard
or a library named after a player who is not the object's owner:
`-> graveyard "Bob"` for Alice's card.

## Why
Hands, graveyards and libraries belong to players, and a card only ever goes to its
owner's: an effect that says otherwise puts it into its owner's zone instead (CR 400.3).
The battlefield and the stack are shared zones where a player other than the owner can
control it; that is written with the controller's name and is not flagged.

## Example
```mtgr
#30 move battlefield -> graveyard "Bob" as destroy by #41
```

## Use instead
```mtgr
#30 move battlefield -> graveyard as destroy by #41
```

## Rules basis
- Decision 0006 items 2 and 3: after `library`, `hand` and `graveyard` the player is the zone's
  owner; owned zones are the object's owner's.
- CR 400.3: "If an object would go to any library, graveyard, or hand other than its owner's, it goes to its owner's corresponding zone."
- CR 108.3: "The owner of a card in the game is the player who started the game with it in their deck."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import named_owned_destination
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O205",
    "Card put into another player's zone",
    severity=Severity.ERROR,
    decisions=("0006.3", "0006.2"),
    cr=("400.3", "108.3"),
    doc=__doc__,
)


@RULE.on(t.Move, t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    named = named_owned_destination(ctx, statement)
    if named is None:
        return
    destination, player, obj = named
    zone = destination.zone.value
    if obj.owner is None or obj.owner == player.name:
        return
    ctx.report(
        RULE,
        f"{obj.label()} is {obj.owner}'s: it can only go to {obj.owner}'s {zone}, not "
        f"{player.name}'s (CR 400.3); write `-> {zone}` without a player",
        player.span,
        related=ctx.where(obj),
    )
