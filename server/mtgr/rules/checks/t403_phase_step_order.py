"""A phase or step out of the order of a turn.

## What it flags
A `phase` or `step` line that goes back to an earlier phase or step of the turn, or
repeats the current one, without naming the effect that added it (`by #N`). Two
repetitions need no cause: a second combat damage step right after the first (first or
double strike) and another cleanup step. Phases and steps with nothing recorded may be
left out, so skipping ahead is never flagged. Right after `incomplete` or a judge's
backup, any phase or step may come, and `phase main` there is the first main phase of the
turn (a backup to before combat).

## Why
A turn has five phases in a fixed order, and the steps of a phase proceed in order
(CR 500.1). A phase or step comes again only when an effect adds it (CR 500.8, 500.9;
decision 0019 item 7), when first or double strike adds a second combat damage step
(CR 510.4), or when something happened during a cleanup step (CR 514.3a).

## Example
```mtgr
phase main
step upkeep
```

## Use instead
```mtgr
step upkeep
phase main
```

## Rules basis
- Decision 0010 items 2, 3 and 4; decision 0019 item 7.
- CR 500.1: "A turn consists of five phases, in this order: beginning, precombat main, combat, postcombat main, and ending."
- CR 500.1: "The beginning, combat, and ending phases are further broken down into steps, which proceed in order."
- CR 500.8: "Some effects can add phases to a turn. They do this by adding the phases directly after the specified phase."
- CR 500.9: "Some effects can add steps to a phase."
- CR 510.4: "After that step, instead of proceeding to the end of combat step, the phase gets a second combat damage step."
- CR 514.3a: "Once the stack is empty and all players pass in succession, another cleanup step begins."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import STEP_ORDER, Stage, step_places
from mtgr.syntax import tree as t

RULE = define(
    "T403",
    "Phase or step out of order",
    severity=Severity.ERROR,
    decisions=("0010.2", "0010.3", "0010.4", "0019.7"),
    cr=("500.1", "500.8", "500.9", "510.4", "514.3a"),
    doc=__doc__,
)


def _describe(index: int) -> str:
    phase, step = STEP_ORDER[index]
    if step is not None:
        return f"the {step} step"
    if phase == "main":
        return "the precombat main phase" if index < 5 else "the postcombat main phase"
    return f"the {phase} phase"


@RULE.on(t.PhaseOrStep)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.PhaseOrStep)
    state = ctx.state
    turn = state.turn
    if state.stage is Stage.OVER or turn.line is None:
        return
    if state.incomplete_since_step:
        return  # the first structure line after a gap
    is_phase = statement.verb.value == "phase"
    name = statement.name.value
    current = turn.position
    if is_phase and turn.added_after is not None:
        current = turn.added_after  # the regular phases resume after added ones (500.8, 505.1a)
    candidates = step_places(name, is_phase)  # in CR 500.1 order
    if candidates and candidates[-1] > current:
        return  # it can still come in this turn
    if isinstance(statement.cause, t.Cause) and isinstance(statement.cause.agent, t.ObjectRef):
        return  # an extra phase or step, named with the effect that added it (500.8, 500.9)
    if not is_phase and name == "cleanup" and turn.step == "cleanup":
        return  # 514.3a
    if (
        not is_phase
        and name == "combat-damage"
        and turn.step == "combat-damage"
        and not turn.repeated
    ):
        return  # 510.4: the second combat damage step
    word = "phase" if is_phase else "step"
    where = _describe(current)
    again = "comes again" if current in candidates else "comes back"
    ctx.report(
        RULE,
        f"the {name} {word} {again} after {where}: a turn's phases and steps go in the order of "
        f"CR 500.1; an extra {word} names the effect that added it, `{word} {name} by #N` "
        "(CR 500.8, decision 0019 item 7)",
        statement.name.span,
        related=(Related(turn.line, None, f"turn {turn.number} began here"),),
    )
