"""An attack that cannot be declared.

## What it flags
An `attack` line outside the declare attackers step, by a creature the active player
does not control, or by a creature that is tapped; or one that attacks the active player
themselves, itself, or a planeswalker of theirs (a permanent they control with loyalty
counters and no defense counters: a battle they control is attacked when an opponent
protects it).

## Why
Attackers are declared as the declare attackers step begins, as a turn-based action of
the active player (CR 508.1): only the active player's creatures can attack, and only
untapped ones (CR 508.1a). (Vigilance keeps an attacker untapped, `attack "P" untapped`;
it does not let a tapped creature attack.) What they attack is an opponent, a
planeswalker an opponent controls, or a battle an opponent protects (CR 506.2, 506.3).

## Example
```mtgr
step declare-attackers
#3 tap by "Bob"
#3 attack "Alice"
```

## Use instead
```mtgr
step declare-attackers
#3 attack "Alice"
```

## Rules basis
- Decision 0012 item 1, decision 0010 item 5.
- CR 508.1: "First, the active player declares attackers. This turn-based action doesn't use the stack."
- CR 508.1a: "The active player chooses which creatures that they control, if any, will attack. The chosen creatures must be untapped, they can't also be battles, and each one must either have haste or have been controlled by the active player continuously since the turn began."
- CR 506.2: "During the combat phase of a two-player game, the nonactive player is the defending player; that player, planeswalkers they control, and battles they protect may be attacked."
- CR 506.3: "Only a player, a planeswalker, or a battle can be attacked."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import a_planeswalker_by_its_counters, current_step, quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER, GameState
from mtgr.syntax import tree as t

RULE = define(
    "T407",
    "Attack not possible",
    severity=Severity.ERROR,
    decisions=("0012.1", "0010.5"),
    cr=("508.1", "508.1a", "506.2", "506.3"),
    doc=__doc__,
)


@RULE.on(t.Attack, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Attack)
    state = ctx.state
    if quiet(ctx):
        return
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return  # unknown, or not a permanent: other rules say so
    problems = []
    if state.turn.step != "declare-attackers":
        where = current_step(state.turn)
        problems.append(
            f"attackers are declared in the declare-attackers step, not {where} (CR 508.1)"
        )
    controller = obj.controller or obj.owner
    active = state.turn.player
    if active is not None and controller is not None and controller != active:
        problems.append(
            f'it is controlled by "{controller}", not by the active player "{active}" (CR 508.1a)'
        )
    if obj.tapped:
        problems.append("it is tapped, and attackers must be untapped (CR 508.1a)")
    problems += _defender_problems(state, statement.defender, obj.number, active)
    if not problems:
        return
    ctx.report(
        RULE,
        f"{obj.label()} cannot attack: " + "; ".join(problems),
        statement.verb.span,
        related=ctx.where(obj),
    )


def _defender_problems(
    state: GameState, defender: t.ObjectRef | t.PlayerRef, attacking: int, active: str | None
) -> list[str]:
    """What is wrong with what the creature attacks: the attacking player, or their own
    planeswalker (CR 506.2); other objects are O203's and A103's to judge."""
    if active is None:
        return []
    if isinstance(defender, t.PlayerRef):
        if defender.name == active:
            return [f'it attacks "{active}", the attacking player, not an opponent (CR 506.2)']
        return []
    if defender.number == attacking:
        return [
            "it attacks itself, where it may attack an opponent or what they control (CR 506.2)"
        ]
    attacked = state.obj(defender.number)
    if (
        attacked is None
        or attacked.zone != "battlefield"
        or (attacked.controller or attacked.owner) != active
        or not a_planeswalker_by_its_counters(attacked)
    ):
        return []
    return [
        f'it attacks {attacked.label()}, a planeswalker "{active}" controls, where only an '
        "opponent's planeswalkers can be attacked (CR 506.2)"
    ]
