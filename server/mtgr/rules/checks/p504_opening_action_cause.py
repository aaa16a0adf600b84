"""An opening hand card begins the game on the battlefield or is revealed, not by itself.

## What it flags
A pregame `#N move hand -> battlefield` or `#N reveal` whose cause is not `by #N`: a
player, another object, or `sba`. (A line with no cause at all is N103's.)

## Why
The card itself gives the permission to begin the game on the battlefield or to reveal
it from the opening hand (CR 103.6a, 103.6b), so the card is the cause of that line,
and only the card can be (decision 0018 item 2). `by "Alice"` would say a player chose
to do something no rule lets a player do on their own.

## Example
```mtgr
#15 move hand -> battlefield by "Alice"
```

## Use instead
```mtgr
#15 move hand -> battlefield by #15
```

## Rules basis
- Decision 0018 item 2.
- CR 103.6a: "If a card allows a player to begin the game with that card on the battlefield, the player taking this action puts that card onto the battlefield."
- CR 103.6b: "If a card allows a player to reveal it from their opening hand, the player taking this action does so. The card remains revealed until the first turn begins. Each card may be revealed this way only once."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P504",
    "Opening hand action not caused by the card that allows it",
    severity=Severity.ERROR,
    decisions=("0018.2",),
    cr=("103.6a", "103.6b"),
    doc=__doc__,
)


@RULE.on(t.Move, t.Reveal, stages=(Stage.PREGAME,))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.Move, t.Reveal))
    if statement.cause is None:
        return
    if isinstance(statement, t.Move) and not (
        statement.source.zone.value == "hand" and statement.destination.zone.value == "battlefield"
    ):
        return
    subject = statement.subject.number
    agent = statement.cause.agent
    if isinstance(agent, t.ObjectRef) and agent.number == subject:
        return
    obj = ctx.state.obj(subject)
    if obj is None:
        return
    what = "begins the game on the battlefield" if isinstance(statement, t.Move) else "is revealed"
    label = (
        f"#{obj.number} ({statement.name.value})" if obj.hidden and statement.name else obj.label()
    )
    ctx.report(
        RULE,
        f"{label} {what} from the opening hand by its own permission: write `by #{subject}` "
        "(decision 0018 item 2, CR 103.6a, 103.6b)",
        statement.cause.agent.span,
        related=ctx.where(obj),
    )
