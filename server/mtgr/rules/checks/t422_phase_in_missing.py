"""A phased-out permanent that did not phase in during its controller's untap step.

## What it flags
The first line after the untap step of a player's turn (any line that comes after a
player received priority, other than the turn line and `step untap`) while a permanent
that phased out under that player's control is still phased out, with no
`#N phase in` written in the untap step. A permanent that phased out with what it is
attached to phases in with it and is not flagged, nor is one that phased out `by` an
effect that may keep it out "until" something (Oubliette: "phases out until Oubliette
leaves the battlefield"): with a card index, when the card of that effect says "until";
without one, while that card is still on the battlefield. The checker cannot see an effect
that makes a player skip their untap step (CR 702.26m): write `// allow T422` there.

## Why
As the untap step begins, every phased-out permanent that phased out under the active
player's control phases in, a turn-based action written without cause before the
untaps (CR 502.1, 702.26a; decision 0025 item 2).

## Example
```mtgr
turn 8 "Alice"
step untap
step upkeep
```

## Use instead
```mtgr
turn 8 "Alice"
step untap
#30 phase in
step upkeep
```

## Rules basis
- Decision 0025 item 2: phasing in the untap step is a turn-based action, written without cause.
- CR 502.1: "First, all phased-in permanents with phasing that the active player controls phase out, and all phased-out permanents that the active player controlled when they phased out phase in."
- CR 702.26a: "During each player's untap step, before the active player untaps permanents" the permanents with phasing phase out, and "all phased-out permanents that had phased out under that player's control" phase in.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 101.1: "Whenever a card's text directly contradicts these rules, the card takes precedence."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, GameObject, ObjectKind, Stage, ends_untap_step
from mtgr.syntax import tree as t

RULE = define(
    "T422",
    "Phase in missing in the untap step",
    severity=Severity.ERROR,
    decisions=("0025.2", "0050.3"),
    cr=("502.1", "702.26a", "101.1"),
    doc=__doc__,
)


@RULE.on(
    *PRIORITY_LINES, stages=(Stage.PLAYING,), with_phased=True, outside_gaps_and_keyframes=True
)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if not ends_untap_step(statement):
        return
    for obj in state.phased_objects():
        if not obj.phase_in_due or _may_stay_out(ctx, obj):
            continue
        ctx.report(
            RULE,
            f"{obj.label()} phased out under {obj.phased_under}'s control and phases in as "
            f"{obj.phased_under}'s untap step begins: write `#{obj.number} phase in` there "
            "(CR 502.1, 702.26a)",
            statement.verb.span,
            related=ctx.where(obj),
        )


def _may_stay_out(ctx: Context, obj: GameObject) -> bool:
    """Whether the effect that phased it out may say "until" (CR 101.1: the card wins)."""
    cause = ctx.state.obj(obj.phased_by) if obj.phased_by is not None else None
    if cause is not None and cause.kind is ObjectKind.ABILITY and cause.source is not None:
        cause = ctx.state.obj(cause.source)
    if cause is None:
        return False
    card = ctx.card(cause)
    if card is None:
        return cause.zone == "battlefield"
    return card.text_mentions("out until")
