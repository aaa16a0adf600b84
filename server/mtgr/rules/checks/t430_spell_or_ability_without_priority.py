"""A spell cast or an ability put on the stack in a step in which no player has priority.

## What it flags
A `cast` or `activate` line in the untap step, or in a cleanup step in which nothing
triggered and no state-based action was performed; a `trigger` line in the untap step.

## Why
No player receives priority during the untap step: no spell can be cast and no ability
activated, and an ability that triggers then waits until a player would next receive
priority, usually in the upkeep (CR 502.4, 503.1a). Normally no player receives priority
during the cleanup step either (CR 514.3); only when a state-based action is performed
or an ability triggers in it do players get priority, and another cleanup step follows
(CR 514.3a). A cast there means a step line is missing or the line stands in the wrong
step (decision 0044 item 1).

## Example
```mtgr
step untap
#12 cast
```

## Use instead
```mtgr
step untap
step upkeep
#12 cast
```

## Rules basis
- Decision 0044 item 1, decision 0010 item 2.
- CR 502.4: "No player receives priority during the untap step, so no spells can be cast or resolve and no abilities can be activated or resolve."
- CR 503.1a: "Any abilities that triggered during the untap step and any abilities that triggered at the beginning of the upkeep are put onto the stack before the active player gets priority"
- CR 514.3: "Normally, no player receives priority during the cleanup step, so no spells can be cast and no abilities can be activated."
- CR 514.3a: "If so, those state-based actions are performed, then those triggered abilities are put on the stack, then the active player gets priority."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "T430",
    "Spell or ability without priority",
    severity=Severity.ERROR,
    decisions=("0044.1", "0010.2"),
    cr=("502.4", "503.1a", "514.3", "514.3a"),
    doc=__doc__,
)


@RULE.on(t.Cast, t.AbilityOf, stages=(Stage.PLAYING,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    turn = state.turn
    if quiet(ctx) or state.incomplete_since_step:
        return
    verb = statement.verb.value
    if turn.step == "untap":
        what = {"trigger": "a triggered ability", "activate": "an activated ability"}.get(
            verb, "a spell"
        )
        ctx.report(
            RULE,
            f"no player receives priority in the untap step, so {what} cannot go on the stack "
            "there (CR 502.4); abilities that trigger in it go on the stack in the upkeep "
            "(CR 503.1a): write `step upkeep` first",
            statement.verb.span,
        )
    elif turn.step == "cleanup" and verb != "trigger" and not turn.cleanup_priority:
        ctx.report(
            RULE,
            "no player receives priority in this cleanup step, so nothing can be cast or "
            "activated there (CR 514.3); players get priority only after an ability triggers or a "
            "state-based action is performed in it (CR 514.3a)",
            statement.verb.span,
        )
