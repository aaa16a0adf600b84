"""A block that cannot be declared.

## What it flags
A `block` line outside the declare blockers step, by a creature the active player
controls, by a tapped creature, or blocking a creature that is not attacking; in a game
of three or more, by a creature of a player the attacker does not attack; and, with a
card index, a second creature blocked by one blocker, unless its text, another card's
or an effect on the lines lets it block more (without card text, any creature may be
one that blocks more: Guardian of the Gateless, Palace Guard).

## Why
Blockers are declared as the declare blockers step begins, by the defending player
(CR 509.1): the active player's creatures do not block, a blocker must be untapped, and
each blocker blocks one creature that is attacking that player, a planeswalker they
control or a battle they protect (CR 509.1a).

## Example
```mtgr
step declare-blockers
#40 block #3
```

## Use instead
```mtgr
step declare-attackers
#3 attack "Alice"
step declare-blockers
#40 block #3
```

## Rules basis
- Decision 0012 item 2, decision 0010 item 5.
- CR 509.1: "First, the defending player declares blockers. This turn-based action doesn't use the stack."
- CR 509.1a: "The defending player chooses which creatures they control, if any, will block. The chosen creatures must be untapped and they can't also be battles. For each of the chosen creatures, the defending player chooses one creature for it to block that's attacking that player, a planeswalker they control, or a battle they protect."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context, tapped_here
from mtgr.rules.describe import a_planeswalker_by_its_counters, current_step, quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER, GameObject
from mtgr.syntax import tree as t

_BLOCKS_MORE = ("block an additional", "block any number")

RULE = define(
    "T408",
    "Block not possible",
    severity=Severity.ERROR,
    decisions=("0012.2", "0010.5"),
    cr=("509.1", "509.1a"),
    doc=__doc__,
)


@RULE.on(t.Block, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Block)
    state = ctx.state
    if quiet(ctx):
        return
    blocker = state.obj(statement.subject.number)
    if blocker is None or blocker.zone != "battlefield":
        return  # unknown, or not a permanent: other rules say so
    problems = []
    if state.turn.step != "declare-blockers":
        where = current_step(state.turn)
        problems.append(
            f"blockers are declared in the declare-blockers step, not {where} (CR 509.1)"
        )
    controller = blocker.controller or blocker.owner
    active = state.turn.player
    if active is not None and controller == active:
        problems.append(
            f'it is controlled by the active player "{active}", who does not block (CR 509.1)'
        )
    if blocker.tapped:
        problems.append("it is tapped, and blockers must be untapped (CR 509.1a)")
    attacker = state.obj(statement.blocked.number)
    if attacker is not None and not attacker.attacking:
        problems.append(f"{attacker.label()} is not attacking (CR 509.1a)")
    if attacker is not None and attacker.attacking and controller != active:
        problems += _defender_problems(ctx, blocker, attacker, controller)
    if not problems:
        return
    ctx.report(
        RULE,
        f"{blocker.label()} cannot block: " + "; ".join(problems),
        statement.verb.span,
        related=(tapped_here(blocker) if blocker.tapped else ()) + ctx.where(blocker),
    )


def _defender_problems(
    ctx: Context, blocker: GameObject, attacker: GameObject, controller: str | None
) -> list[str]:
    """A blocker of a player other than the one the attacker attacks (a game of three or
    more), and, with a card index, a second creature blocked by one blocker (CR 509.1a):
    one creature each, unless its text, another's or a recorded effect lets it block more
    (Palace Guard)."""
    problems = []
    defending = _defending_player(ctx, attacker)
    if defending is not None and controller is not None and controller != defending:
        problems.append(
            f'{attacker.label()} attacks "{defending}" or what they control, and only '
            f'"{defending}" blocks it (CR 509.1a)'
        )
    others = [number for number in blocker.blocking if number != attacker.number]
    if (
        others
        and ctx.cards is not None  # without card text, any blocker may block more
        and ctx.state.turn.step == "declare-blockers"
        and not could_be_given(ctx, blocker, _BLOCKS_MORE)
    ):
        problems.append(
            f"it already blocks #{others[0]}, and a blocker blocks one creature (CR 509.1a)"
        )
    return problems


def _defending_player(ctx: Context, attacker: GameObject) -> str | None:
    """The player an attacker attacks: the player, or the controller of the planeswalker it
    attacks (a battle's protector is not tracked)."""
    target = attacker.attack_target
    if isinstance(target, str):
        return target
    attacked = ctx.state.obj(target) if target is not None else None
    if attacked is None or not a_planeswalker_by_its_counters(attacked):
        return None
    return attacked.controller or attacked.owner
