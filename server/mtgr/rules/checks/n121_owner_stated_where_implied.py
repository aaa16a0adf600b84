"""`owner` written where the place already says who owns the object.

## What it flags
`owner "Q"` on a `new` line or a keyframe entry (decision 0021 item 4) whose place is
not the battlefield, where the player after the zone is already the owner, or that names
the permanent's controller. A warning.

## Why
On the battlefield the player after the zone is the controller, and `owner "Q"` adds the
owner when another player owns the permanent. Anywhere else the player after the zone is
the owner (decision 0006 item 2), and on the battlefield an owner who is the controller
is the default: the word would only repeat what the line says, and the notation keeps one
encoding for one thing (decision 0019).

## Example
```mtgr
#21 new card "Tarmogoyf" graveyard "Bob" owner "Bob"
#22 new card "Tarmogoyf" battlefield "Bob" owner "Bob"
```

## Use instead
```mtgr
#21 new card "Tarmogoyf" graveyard "Bob"
#22 new card "Tarmogoyf" battlefield "Bob"
```

## Rules basis
- Decision 0021 item 4: `owner` only on the battlefield, and only when it differs from the controller.
- Decision 0006 item 2: after an owned zone, `stack`, `exile` and `command` the player is the owner.
- CR 110.2: "A permanent's controller is, by default, the player under whose control it entered the battlefield."
- CR 108.3: "The owner of a card in the game is the player who started the game with it in their deck."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "N121",
    "Owner stated where the place implies it",
    severity=Severity.WARNING,
    decisions=("0021.4", "0006.2"),
    cr=("110.2", "108.3"),
    doc=__doc__,
)


@RULE.on(t.New, t.SnapshotObject)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.New, t.SnapshotObject))
    owner = statement.owner
    if owner is None:
        return
    place = statement.place
    zone = place.zone.value
    if zone != "battlefield":
        ctx.report(
            RULE,
            f"in the {zone} the player after the zone is the owner: write "
            f'`{zone} "{owner.name}"` and leave out `owner`',
            owner.span,
        )
    elif place.player is not None and place.player.name == owner.name:
        ctx.report(
            RULE,
            f"{owner.name} controls it and owns it, the default: leave out `owner`",
            owner.span,
        )
