"""A land played when its owner may not play one.

## What it flags
A `play` line before the first turn, outside a main phase, in another player's turn,
while the stack is not empty, or for a second land in one turn. An additional land play
allowed by an effect is written with that effect as its cause (`#N play by #M`) and is
not counted against the one land a turn. A land played during the resolution of a spell
or ability (`#N play from library by #R` after `#R resolve`: Djinn of Wishes) is not the
special action, and needs neither a main phase nor an empty stack; it is still flagged in
another player's turn.

## Why
Playing a land is a special action: a player may take it when they have priority, in a
main phase of their own turn, with an empty stack (CR 305.1, 505.6b), and normally only
once a turn (CR 305.2).

## Example
```mtgr
phase main
#9 play
#17 play
```

## Use instead
```mtgr
phase main
#9 play
```

## Rules basis
- Decision 0011 item 2: legal for the active player in a main phase with an empty stack, once a
  turn, unless `by C` names the effect that allows another land or another zone.
- Decision 0090 item 1: a land played during a resolution, in any step of the player's turn.
- CR 305.1: "A player who has priority may play a land card from their hand during a main phase of their turn when the stack is empty."
- CR 305.2: "A player can normally play one land during their turn; however, continuous effects may increase this number."
- CR 305.2a: "(including lands played as special actions and lands played during the resolution of spells and abilities)"
- CR 505.6b: "During either main phase, the active player may play one land card from their hand if the stack is empty, if the player has priority, and if they haven't played a land this turn (unless an effect states the player may play additional lands)."
"""

from __future__ import annotations

from mtgr.rules.apply import played_during_resolution
from mtgr.rules.context import Context
from mtgr.rules.describe import current_step, quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import NOT_OVER
from mtgr.syntax import tree as t

RULE = define(
    "K304",
    "Land played when it may not be",
    severity=Severity.ERROR,
    decisions=("0011.2", "0090.1"),
    cr=("305.1", "305.2", "305.2a", "505.6b"),
    doc=__doc__,
)


@RULE.on(t.Play, stages=NOT_OVER)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Play)
    state = ctx.state
    if quiet(ctx):
        return
    obj = state.obj(statement.subject.number)
    if obj is None or obj.owner is None:
        return
    # the player who plays it: its owner, or the player the line names (decision 0021)
    player = state.player(statement.player.name if statement.player else obj.owner)
    if player is None:
        return
    turn = state.turn
    problems = []
    if turn.line is None:
        problems.append("the first turn has not begun (CR 305.1)")
    else:
        if turn.player != player.name:
            problems.append(f'it is "{turn.player}"\'s turn, not "{player.name}"\'s (CR 305.1)')
        during_resolution = played_during_resolution(state, statement)
        if turn.phase != "main" and not during_resolution:
            problems.append(
                f"lands are played in a main phase, not {current_step(turn)} (CR 305.1)"
            )
        if state.stack and not during_resolution:
            top = state.obj(state.stack[-1])
            top_label = top.label() if top else f"#{state.stack[-1]}"
            problems.append(f"the stack is not empty ({top_label} is on it) (CR 305.1)")
        if player.lands_played and statement.cause is None and turn.player == player.name:
            # a play an effect allowed (`by #N`: Dryad of the Ilysian Grove) does not count
            # here, whether it came before or after the one a turn (CR 305.2a counts them)
            problems.append(
                f'"{player.name}" already played a land this turn; an additional land play names '
                "the effect that allows it, `play by #N` (CR 305.2)"
            )
    if not problems:
        return
    label = (
        f"#{obj.number} ({statement.name.value})" if obj.hidden and statement.name else obj.label()
    )
    ctx.report(
        RULE,
        f"{label} cannot be played now: " + "; ".join(problems),
        statement.verb.span,
        related=ctx.where(obj),
    )
