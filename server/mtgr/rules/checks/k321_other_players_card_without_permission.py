"""A card of another player played or cast without the effect that allows it.

## What it flags
A `play "P"` or `cast "P"` line (decision 0021 item 2) in which P is not the card's
owner and the line names no cause. The checker cannot see what the effect allows (only
lands, only until end of turn); it asks only that the line names it.

## Why
A player plays lands and casts spells from their own hand under the normal rules
(CR 305.1, 601.2a); a card another player owns can only be played or cast when an effect
allows it (Praetor's Grasp, Gonti, Lord of Luxury), and that effect is the line's cause
(decision 0011 item 1).

## Example
```mtgr
#23 play "Alice" from exile
```

## Use instead
```mtgr
#23 play "Alice" from exile by #22
```

## Rules basis
- Decision 0021 item 2: another player's card is played or cast only with the effect that allows
  it, named as the cause.
- Decision 0011 item 1: `by C` names the object whose effect casts the card or lets it be cast.
- CR 305.1: "A player who has priority may play a land card from their hand during a main phase of their turn when the stack is empty."
- CR 601.2a: "To propose the casting of a spell, a player first moves that card (or that copy of a card) from where it is to the stack."
- CR 108.3: "The owner of a card in the game is the player who started the game with it in their deck."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "K321",
    "Another player's card played or cast without permission",
    severity=Severity.ERROR,
    decisions=("0021.2", "0011.1"),
    cr=("305.1", "601.2a", "108.3"),
    doc=__doc__,
)


@RULE.on(t.Play, t.Cast, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.Play, t.Cast))
    player = statement.player if isinstance(statement, t.Play) else statement.caster
    if player is None or statement.cause is not None:
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.owner is None or obj.owner == player.name:
        return
    if obj.kind is not ObjectKind.CARD:
        return  # a copy of a card belongs to the player who made it (CR 112.2a)
    verb = statement.verb.value
    ctx.report(
        RULE,
        f'{obj.label()} is {obj.owner}\'s: "{player.name}" can {verb} it only with an effect '
        f'that allows it; name that effect, `{verb} "{player.name}" ... by #N`',
        player.span,
        related=ctx.where(obj),
    )
