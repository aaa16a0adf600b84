"""A card in the perspective player's own hand recorded as hidden.

## What it flags
A card that goes into the perspective player's hand without a name: a `draw` with no
name by the perspective player (by any player under `perspective all`), a
`new hidden hand` of that player, or a hidden object moved into that hand without a name.
Under `perspective all`, any `new hidden`. It is a warning: the record is still
consistent, but it hides what its own viewpoint knows. Not a draw from a library the
lines show empty: no card is drawn, and there is no name to write (decision 0087).

## Why
A player may look at their own hand at any time (CR 402.3), so the perspective player
always knows the names of the cards in it. `new hidden` and unnamed draws are for names
that stay hidden from the perspective player (decision 0019 item 4).

## Example
```mtgr
perspective "Alice"
"Alice" draw #8
```

## Use instead
```mtgr
perspective "Alice"
"Alice" draw #8 "Serum Powder"
```

## Rules basis
- Decision 0019 item 4: `new hidden` only for names that stay hidden.
- Decision 0008 item 3: a draw names the card when the perspective player sees it, as they see their
  own draws.
- Decision 0008 item 1: with `perspective all` every card is known when it is introduced, so `new
  hidden` and draws without a name are not used.
- CR 402.3: "A player may arrange their hand in any convenient fashion and look at it at any time."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState
from mtgr.syntax import tree as t

RULE = define(
    "V706",
    "Own hand recorded hidden",
    severity=Severity.WARNING,
    decisions=("0008.3", "0008.1", "0019.4"),
    cr=("402.3",),
    doc=__doc__,
)


def _sees(state: GameState, player: str | None) -> bool:
    if state.perspective is None or player is None:
        return False
    return state.perspective in ("", player)


@RULE.on(t.Draw, t.New, t.Move, t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if state.in_keyframe is not None:
        return
    if isinstance(statement, t.Draw):
        player = statement.subject.name
        obj = state.obj(statement.drawn.number)
        drawer = state.player(player)
        if drawer is not None and drawer.library.size == 0:
            return  # from an empty library: no card, no name (decision 0087)
        if statement.card is None and (obj is None or obj.hidden) and _sees(state, player):
            ctx.report(
                RULE,
                f"{player} draws #{statement.drawn.number} without a name, but {player} sees "
                f'their own hand: write `"{player}" draw #{statement.drawn.number} "Name"`',
                statement.drawn.span,
            )
        return
    if isinstance(statement, t.New):
        if statement.what.value != "hidden":
            return
        place = statement.place
        owner = place.player.name if place.player else None
        number = statement.subject.number
        if state.perspective == "":
            message = (
                f"#{number} is introduced hidden, but the file is recorded from every "
                f'player\'s perspective (`perspective all`): write `#{number} new card "Name" ...`'
            )
        elif place.zone.value == "hand" and _sees(state, owner):
            message = (
                f"#{number} is put into {owner}'s hand hidden, but {owner} sees their own "
                f'hand: write `#{number} new card "Name" hand "{owner}"`'
            )
        else:
            return
        ctx.report(RULE, message, statement.what.span)
        return
    assert isinstance(statement, (t.Move, t.Leave))
    destination = statement.destination
    if destination is None or destination.zone.value != "hand" or statement.name is not None:
        return
    obj = state.obj(statement.subject.number)
    if obj is None or not obj.hidden or not _sees(state, obj.owner):
        return
    ctx.report(
        RULE,
        f"#{obj.number} goes into {obj.owner}'s hand without a name, but {obj.owner} sees "
        f'their own hand: name it on this line, `#{obj.number} "Name" {statement.verb.value} ...`',
        statement.subject.span,
    )
