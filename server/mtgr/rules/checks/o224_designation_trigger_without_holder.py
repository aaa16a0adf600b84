"""An inherent triggered ability of a designation no player has, or that cannot trigger now.

## What it flags
`#N trigger of monarch` when no player is the monarch, or `#N trigger of initiative`
when no player has the initiative, in the rebuilt state (decision 0026 item 3); a monarch
trigger in an end step of a player who is not the monarch, or in a step that is neither
an end step nor a combat damage step, unless a judge's line just before added it as a
missed trigger (decision 0106); and `#N trigger of speed` while the active player
has max speed (decision 0098). After a gap the checker knows a designation only from a
line that gave it since.

## Why
The monarch's and the initiative's triggered abilities are controlled by the player who
has the designation when they trigger (CR 725.2, 726.2); there is no monarch in a game
until an effect makes a player the monarch (CR 725.1), and likewise for the initiative
(CR 726.1). The monarch's two abilities trigger at the beginning of the monarch's own end
step and when a creature deals combat damage to the monarch (CR 725.2): at no other time.

## Example
```mtgr
step end
#60 trigger of monarch
```

## Use instead
```mtgr
"Alice" monarch by #40
step end
#60 trigger of monarch
```

## Rules basis
- Decision 0026 items 2 and 3: designations, and the inherent abilities that come with them.
- CR 725.1: "There is no monarch in a game until an effect instructs a player to become the monarch."
- CR 725.2: "These triggered abilities have no source and are controlled by the player who was the monarch at the time the abilities triggered."
- CR 725.2: "At the beginning of the monarch's end step, that player draws a card"
- CR 725.2: "Whenever a creature deals combat damage to the monarch, its controller becomes the monarch."
- CR 726.1: "There is no initiative in a game until an effect instructs a player to take the initiative."
- CR 726.2: "These triggered abilities have no source and are controlled by the player who had the initiative at the time the abilities triggered."
- Decision 0098 item 2: the speed ability is `#N trigger of speed`, controlled by the active player.
- CR 702.179d: "There is an inherent triggered ability associated with a player having 1 or more speed."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O224",
    "Designation trigger with no player who has it",
    severity=Severity.ERROR,
    decisions=("0026.2", "0026.3", "0098.2"),
    cr=("725.1", "725.2", "726.1", "726.2", "702.179d"),
    doc=__doc__,
)


@RULE.on(t.AbilityOf)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.AbilityOf)
    designation = statement.designation
    if designation is None or quiet(ctx):
        return
    state = ctx.state
    if designation.value == "speed":
        active = state.player(state.turn.player or "")
        if active is not None and active.speed is not None and active.speed >= 4:
            ctx.report(
                RULE,
                f'"{active.name}" has max speed (4): the speed ability triggers only "if your '
                'speed is less than 4" (CR 702.179d)',
                designation.span,
            )
        return  # a speed the lines never set may come from before a gap: not judged
    holder = state.monarch if designation.value == "monarch" else state.initiative
    if holder is not None:
        if designation.value == "monarch":
            _check_monarch_timing(ctx, holder, designation.span)
        return
    what = "is the monarch" if designation.value == "monarch" else "has the initiative"
    ctx.report(
        RULE,
        f"no player {what}, so its triggered abilities do not trigger; a line giving the "
        f'designation is missing above (`"P" {designation.value} by #N`)',
        designation.span,
    )


def _check_monarch_timing(ctx: Context, monarch: str, span: t.Span) -> None:
    """CR 725.2: the monarch's end step, or combat damage dealt to the monarch."""
    turn = ctx.state.turn
    if turn.step is None or turn.step == "combat-damage":
        return  # a step the lines do not give is not judged
    if ctx.state.judge_added == "monarch":
        return  # a missed trigger a judge had put on the stack now (decision 0106)
    if turn.step == "end" and turn.player == monarch:
        return
    when = (
        f"this is {turn.player}'s end step, and {monarch} is the monarch"
        if turn.step == "end"
        else f"this is the {turn.step} step"
    )
    ctx.report(
        RULE,
        f"the monarch's abilities trigger at the beginning of the monarch's own end step and "
        f"when a creature deals combat damage to the monarch (CR 725.2), but {when}; name "
        "the trigger's real source, or move the line where it triggered",
        span,
    )
