"""Combat damage from a creature not in combat, or to what it neither attacks nor blocks.

## What it flags
In a combat damage step, a `damage` line that nothing resolving explains (combat damage,
a turn-based action) whose source is neither attacking nor blocking, or whose recipient
is not the player, planeswalker or battle it attacks, nor a creature blocking it, nor the
creature it blocks. A line with `replacement` (damage redirected, decision 0040 item 4)
may name another recipient.

## Why
In the combat damage step each attacking and each blocking creature assigns its combat
damage: an unblocked attacker to the player, planeswalker or battle it attacks, a blocked
one to the creatures blocking it (with trample, the excess to what it attacks, and with
trample over planeswalkers, beyond the planeswalker's loyalty, to its controller), a
blocker to the creature it blocks (CR 510.1, 510.1a, 510.1c, 702.19c). A creature removed from combat, or
never in it, deals no combat damage (decision 0044 item 4). Damage from a resolving spell
or ability in that step has that object as the resolving one and is not combat damage, and
so is the damage a mana ability deals (a Talisman, a painland), written after its `mana`
line: a mana ability resolves at once, without the stack (CR 605.3b).

## Example
```mtgr
step combat-damage
#7 damage 2 -> "Bob"     // #7 did not attack
```

## Use instead
```mtgr
step declare-attackers
#7 attack "Bob"
step combat-damage
#7 damage 2 -> "Bob"
```

## Rules basis
- Decision 0044 item 4, decision 0012 item 3, decision 0073 item 3.
- CR 510.1: "First, the active player announces how each attacking creature assigns its combat damage, then the defending player announces how each blocking creature assigns its combat damage."
- CR 510.1c: "A blocked creature assigns its combat damage to the creatures blocking it."
- CR 605.3b: "An activated mana ability doesn't go on the stack, so it can't be targeted, countered, or otherwise responded to. Rather, it resolves immediately after it is activated."
- CR 702.19c: "Trample over planeswalkers is a variant of trample that modifies the rules for assigning combat damage to planeswalkers."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "D831",
    "Combat damage outside combat",
    severity=Severity.ERROR,
    decisions=("0044.4", "0012.3", "0073.3"),
    cr=("510.1", "510.1a", "510.1c", "605.3b", "702.19c"),
    doc=__doc__,
)


def _may_receive(state: GameState, source: GameObject, statement: t.Damage) -> bool:
    recipient = statement.recipient
    what: int | str = recipient.name if isinstance(recipient, t.PlayerRef) else recipient.number
    if source.attacking:
        if what == source.attack_target:
            return True
        attacked = (
            state.obj(source.attack_target) if isinstance(source.attack_target, int) else None
        )
        if statement.trample is not None and attacked is not None and attacked.controller == what:
            return True  # trample over planeswalkers: the excess to its controller (702.19c)
        blocker = state.obj(what) if isinstance(what, int) else None
        return blocker is not None and source.number in blocker.blocking
    return what in source.blocking


@RULE.on(t.Damage, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Damage)
    state = ctx.state
    if quiet(ctx) or state.incomplete_since_step:
        return
    if state.turn.step != "combat-damage" or state.stack or state.resolving is not None:
        return
    if state.mana_made_by == statement.subject.number:
        return  # a mana ability's damage, as it resolves (CR 605.3b)
    source = state.obj(statement.subject.number)
    if source is None or source.zone != "battlefield":
        return
    if not source.attacking and not source.blocking:
        problem = "it is neither attacking nor blocking"
    elif (
        statement.replacements
        or statement.cause is not None  # an effect lets it assign otherwise (decision 0073)
        or _may_receive(state, source, statement)
    ):
        return
    elif source.attacking:
        problem = "that is neither what it attacks nor a creature blocking it"
    else:
        problem = "that is not the creature it blocks"
    ctx.report(
        RULE,
        f"{source.label()} deals combat damage here, but {problem}: only attacking and "
        "blocking creatures deal combat damage, to what they attack or block (CR 510.1); "
        "redirected damage names its effect with `replacement`",
        statement.recipient.span if "neither attacking" not in problem else statement.verb.span,
        related=ctx.where(source),
    )
