"""Triggered abilities put on the stack together, not in APNAP order.

## What it flags
In a run of `trigger` lines with nothing between them but the modes chosen for them, a
triggered ability controlled by a player who comes earlier in APNAP order than the
controller of the one before it; or one whose trigger condition is not another ability
triggering after one whose is (written `trigger of #M by #A`, decision 0074).

## Why
Abilities that triggered since a player last received priority are put on the stack
together: first each player, in APNAP order (the active player, then the others in turn
order), puts those they control whose trigger condition is not another ability
triggering; then each player, in APNAP order, puts the rest (CR 603.3b, 101.4). The
active player's abilities therefore go on the stack first and resolve last. An ability
that triggers while these are put on the stack (a ward trigger when one of them targets,
a death trigger when one of their costs sacrifices) goes on the stack afterwards: a
`target`, `pay` or cost line between two `trigger` lines ends the run, and the order is
not checked across it.

## Example
```mtgr
turn 5 "Alice"
step upkeep
#40 trigger of #12      // Bob's Phyrexian Arena
#41 trigger of #3       // Alice's Dark Confidant
```

## Use instead
```mtgr
turn 5 "Alice"
step upkeep
#40 trigger of #3       // Alice's Dark Confidant
#41 trigger of #12      // Bob's Phyrexian Arena
```

## Rules basis
- Decision 0074 items 1 to 3, decision 0032 item 3.
- CR 603.3b: "First, each player, in APNAP order, puts each triggered ability they control with a trigger condition that isn't another ability triggering on the stack in any order they choose."
- CR 101.4: "If multiple players would make choices and/or take actions at the same time, the active player (the player whose turn it is) makes any choices required, then the next player in turn order (usually the player seated to the active player's left) makes any choices required, followed by the remaining nonactive players in turn order."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, Stage, trigger_place
from mtgr.syntax import tree as t

RULE = define(
    "K343",
    "Triggers not in APNAP order",
    severity=Severity.ERROR,
    decisions=("0074.1", "0074.2", "0074.3", "0032.3"),
    cr=("603.3b", "101.4"),
    doc=__doc__,
)


@RULE.on(t.AbilityOf)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    state = ctx.state
    previous = state.triggers_put
    if previous is None or statement.verb.value != "trigger":
        return
    if quiet(ctx) or state.stage is not Stage.PLAYING or state.incomplete_since_step:
        return
    place = trigger_place(state, statement)
    if place is None or place >= previous:
        return
    if place[0] != previous[0]:
        problem = (
            "its trigger condition is not another ability triggering, and such abilities go "
            "on the stack before those that trigger on another ability triggering"
        )
    else:
        now, above = _player_at(state, place[1]), _player_at(state, previous[1])
        problem = (
            f"its controller, {now}, comes earlier in APNAP order than {above}, whose "
            "ability is above it, and each player puts their abilities on the stack in "
            "APNAP order, the active player's first"
        )
    ctx.report(
        RULE,
        f"#{statement.subject.number} is put on the stack with the triggered abilities above "
        f"it, but {problem} (CR 603.3b); write it before them, or, if it triggered on "
        "another ability triggering, `by` that ability",
        statement.verb.span,
    )


def _player_at(state: GameState, place: int) -> str:
    """The player at a place in APNAP order (`apnap_place` the other way)."""
    names = state.player_names()
    active = state.turn.player
    return names[(names.index(active) + place) % len(names)] if active in names else "?"
