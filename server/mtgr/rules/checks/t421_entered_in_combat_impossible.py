"""A permanent put onto the battlefield attacking or blocking when it cannot be.

## What it flags
A `new token`, `move` or `resolve` line that says `attacking ...` or `blocking #M`
(decision 0020) when the creature would enter but never be attacking or blocking: it
does not enter the battlefield, it enters outside the combat phase, it attacks under the
control of a player who is not the active player, it attacks its own controller, a
player who has left the game or a permanent that is not on the battlefield; or it
blocks under the control of the active player, blocks a creature that is not attacking,
or blocks a creature that attacks another player. Without card data the checker cannot
see whether the creature, or what it attacks, is a creature, a planeswalker or a battle,
nor link a ninja to the attacker its cost returned (CR 702.49c).

## Why
An effect can put a creature onto the battlefield attacking or blocking, but only in
combat and only as the attacking or a defending player could have it there: otherwise
the creature enters and is never attacking or blocking (CR 506.3b, 506.3c, 506.3e,
508.4a). The line would then record combat that did not happen.

## Example
```mtgr
phase main
#23 new token "Soldier" battlefield "Alice" tapped attacking "Bob" by #22
```

## Use instead
```mtgr
phase main
#23 new token "Soldier" battlefield "Alice" tapped by #22
```

## Rules basis
- Decision 0020 items 1, 2 and 5: entering attacking or blocking; what the checker reports.
- CR 506.2: "During the combat phase, the active player is the attacking player; creatures that player controls may attack."
- CR 506.3b: "If an effect would put a creature onto the battlefield attacking under the control of any player except an attacking player, that creature does enter the battlefield, but it's never considered to be an attacking creature."
- CR 506.3c: "If an effect would put a creature onto the battlefield attacking either a player not in the game or a permanent that's no longer on the battlefield or isn't either a planeswalker or a battle, that creature does enter the battlefield, but it's never considered to be an attacking creature."
- CR 506.3e: "If an effect would put a creature onto the battlefield blocking but the creature it would block isn't attacking the entering creature's controller, a planeswalker that player controls, or a battle that player protects, that creature does enter the battlefield, but it's never considered to be a blocking creature."
- CR 508.4: "If a creature is put onto the battlefield attacking, its controller chooses which defending player, planeswalker a defending player controls, or battle a defending player protects it's attacking as it enters the battlefield (unless the effect that put it onto the battlefield specifies what it's attacking)."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import current_step, quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "T421",
    "Entered attacking or blocking when it cannot",
    severity=Severity.ERROR,
    decisions=("0020.1", "0020.2", "0020.5"),
    cr=("506.2", "506.3b", "506.3c", "506.3e", "508.4"),
    doc=__doc__,
)


@RULE.on(t.New, t.Move, t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.New, t.Move, t.Leave))
    combat = statement.combat
    state = ctx.state
    if combat is None or quiet(ctx) or state.stage is Stage.OVER:
        return
    place = statement.place if isinstance(statement, t.New) else statement.destination
    if place is None or place.zone.value != "battlefield":
        problem = "only a permanent put onto the battlefield can enter attacking or blocking"
        ctx.report(RULE, problem, combat.keyword.span)
        return
    controller = _controller(state, statement, place)
    problems = []
    if state.turn.phase != "combat":
        problems.append(f"it is {current_step(state.turn)}, not the combat phase (CR 506.2)")
    elif combat.keyword.value == "attacking":
        problems += _attacking_problems(state, controller, combat.target)
    else:
        problems += _blocking_problems(state, controller, combat.target)
    if problems:
        what = combat.keyword.value
        ctx.report(
            RULE,
            f"#{statement.subject.number} would enter but never be {what}: " + "; ".join(problems),
            combat.keyword.span,
        )


def _controller(state: GameState, statement: t.Statement, place: t.Place) -> str | None:
    """Who controls it as it enters (decision 0021 item 1)."""
    if place.player is not None:
        return place.player.name
    obj = state.obj(statement.subject.number) if isinstance(statement, t.ObjectStatement) else None
    if obj is None:
        return None
    return obj.controller if obj.zone == "stack" else obj.owner


def _attacking_problems(
    state: GameState, controller: str | None, target: t.ObjectRef | t.PlayerRef
) -> list[str]:
    problems = []
    active = state.turn.player
    if controller is not None and active is not None and controller != active:
        problems.append(
            f'its controller "{controller}" is not the attacking player "{active}" (CR 506.3b)'
        )
    if isinstance(target, t.PlayerRef):
        if target.name == controller:
            problems.append(f'"{controller}" cannot be attacked by their own creature (CR 508.4)')
        player = state.player(target.name)
        if player is not None and player.lost:
            problems.append(f'"{target.name}" has left the game (CR 506.3c)')
    else:
        attacked = state.obj(target.number)
        if attacked is not None and attacked.zone != "battlefield":
            problems.append(f"{attacked.label()} is not on the battlefield (CR 506.3c)")
    return problems


def _blocking_problems(
    state: GameState, controller: str | None, target: t.ObjectRef | t.PlayerRef
) -> list[str]:
    problems = []
    active = state.turn.player
    if controller is not None and controller == active:
        problems.append(f'its controller "{controller}" is the attacking player (CR 506.3e)')
    attacker: GameObject | None = (
        state.obj(target.number) if isinstance(target, t.ObjectRef) else None
    )
    if attacker is None:
        return problems
    if not attacker.attacking:
        problems.append(f"{attacker.label()} is not attacking (CR 506.3e)")
    elif isinstance(attacker.attack_target, str) and controller not in (
        None,
        attacker.attack_target,
    ):
        problems.append(
            f'{attacker.label()} attacks "{attacker.attack_target}", not "{controller}" (CR 506.3e)'
        )
    return problems
