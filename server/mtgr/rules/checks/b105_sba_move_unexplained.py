"""A permanent put into a graveyard `by sba` when nothing in the lines explains it.

## What it flags
A `move battlefield -> graveyard by sba` of a permanent that, in the rebuilt state, has
no damage marked on it, no counters, had no counters removed since it entered (Walking
Ballista's last +1/+1 counter, a battle's last defense counter), is attached to nothing
and did not just become unattached, has nothing attached to it and had nothing attached
to it that left (an Aura such as Dead Weight lowers toughness by a static ability, which
writes no line; a Germ token is 0/0 without its Batterskull), has no lasting effect on it
and no lasting effect in force without an object, shares its name with no other permanent
of its controller and is not another permanent of a player who just made the legend
rule's choice (`"P" choose #M by sba`, decision 0061), and did not enter the battlefield
since the last time a player received priority (a creature that dies as it enters, such
as Walking Ballista cast for X=0, has toughness 0 from its card). An information, not an
error: without card data the checker cannot see a toughness of 0 from the card itself (a
*/* creature whose count fell to 0) or from a static ability of another permanent, nor a
world permanent; those are legal and show nothing in the lines.

## Why
A state-based action puts a permanent into a graveyard only for a reason the game can
see (CR 704.5f to 704.5n): lethal or deathtouch damage, 0 toughness, 0 loyalty, the
legend rule, an Aura attached illegally or to nothing. When the lines show none of them,
the cause is often wrong (a destroy `by #N`, a sacrifice) or a line is missing (the
damage, the counters).

## Example
```mtgr
#21 move battlefield -> graveyard by sba
```

## Use instead
```mtgr
#24 damage 3 -> #21
#21 move battlefield -> graveyard by sba
```

## Rules basis
- Decision 0024 item 3: a move `by sba` is explained by what the lines show.
- Decision 0012 item 5: a creature destroyed by lethal damage is moved `by sba`.
- Decision 0061 item 4: the legend rule's choice explains the moves of the others.
- CR 704.5f: "If a creature has toughness 0 or less, it's put into its owner's graveyard."
- CR 704.5g: "If a creature has toughness greater than 0, it has damage marked on it, and the total damage marked on it is greater than or equal to its toughness, that creature has been dealt lethal damage and is destroyed."
- CR 704.5i: "If a planeswalker has loyalty 0, it's put into its owner's graveyard."
- CR 704.5j: "If two or more legendary permanents with the same name are controlled by the same player, that player chooses one of them, and the rest are put into their owners' graveyards."
- CR 704.5m: "If an Aura is attached to an illegal object or player, or is not attached to an object or player, that Aura is put into its owner's graveyard."
- CR 704.5v: "If a Siege battle has defense 0 and it isn't the source of an ability that has triggered but not yet left the stack, it's put into its owner's graveyard."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import sba_cause_off_the_battlefield
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, GameState
from mtgr.syntax import tree as t

RULE = define(
    "B105",
    "Move by sba that nothing explains",
    severity=Severity.INFORMATION,
    decisions=("0024.3", "0012.5", "0061.4"),
    cr=("704.5f", "704.5g", "704.5i", "704.5j", "704.5m", "704.5v"),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    cause = sba_cause_off_the_battlefield(ctx, statement)
    if cause is None:
        return
    if statement.destination.zone.value != "graveyard":
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield" or _explained(ctx.state, obj):
        return
    ctx.report(
        RULE,
        f"nothing in the lines explains a state-based action for {obj.label()}: no damage "
        "marked, no counters, no effect on it, nothing attached to it, nothing it was "
        "attached to left, no other permanent of that name; is a damage or counters line missing, or is the cause wrong?",
        cause.agent.span,
        related=ctx.where(obj),
    )


def _explained(state: GameState, obj: GameObject) -> bool:
    if obj.kept_by_legend is not None:
        return True  # kept under the legend rule: B108's
    if explained_but_by_the_legend_rule(state, obj):
        return True
    if obj.entered_moment == state.moment:  # toughness 0 as it entered: card text (704.5f)
        return True
    return any(  # the legend rule, by a choice line (decision 0061 item 4)
        other.kept_by_legend is not None
        and other.number != obj.number
        and other.controller == obj.controller
        for other in state.watched_objects()
    ) or (
        obj.name is not None
        and any(
            other.number != obj.number
            and other.zone == "battlefield"
            and other.name == obj.name
            and other.controller == obj.controller
            for other in state.objects.values()
        )
    )


def explained_but_by_the_legend_rule(state: GameState, obj: GameObject) -> bool:
    """What the lines show that puts a permanent into a graveyard `by sba`, the legend rule
    aside: damage, counters now or removed, an attachment either way, now or one that
    left it (an Aura's or Equipment's static ability sets the toughness
    of what it is attached to, CR 704.5f), an effect (decision 0024 item 3)."""
    if obj.damage or obj.counters or obj.loyalty_gone is not None:
        return True
    if obj.detached_moment is not None or obj.attached_to is not None or obj.weakened:
        return True
    if state.attachments_of(obj.number):
        return True
    return any(e.on == obj.number or e.on is None for e in state.effects)
