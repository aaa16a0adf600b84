"""A creature dealt damage by a source with deathtouch that stays on the battlefield.

## What it flags
The first line that comes only after a player received priority while a creature that
a `damage ... deathtouch` line (decision 0027) damaged since state-based actions were
last checked is still on the battlefield, not regenerated, with no lasting effect on
it, and with neither a lasting effect on no object in particular nor (with a card index)
a permanent whose text says "indestructible". An information, not an error: without card
data the checker cannot see a creature that is indestructible by its own text (Darksteel
Colossus) or that has 0 toughness anyway; for those nothing needs to be written.

## Why
A creature with toughness greater than 0 that has been dealt damage by a source with
deathtouch since state-based actions were last checked is destroyed (CR 704.5h, 702.2b),
unless it is indestructible (CR 702.12b) or a regeneration shield replaces the
destruction (CR 701.19a). When the lines show none of these, the move `by sba` is often
missing.

## Example
```mtgr
#30 damage 1 -> #41 deathtouch
phase main
```

## Use instead
```mtgr
#30 damage 1 -> #41 deathtouch
#41 move battlefield -> graveyard by sba
phase main
```

## Rules basis
- Decision 0027 items 1 and 3: `deathtouch` on a damage line, and what follows from it.
- CR 704.5h: "If a creature has toughness greater than 0, and it's been dealt damage by a source with deathtouch since the last time state-based actions were checked, that creature is destroyed."
- CR 702.12b: "A permanent with indestructible can't be destroyed."
- CR 701.19a: "If the effect of a resolving spell or ability regenerates a permanent, it creates a replacement effect that protects the permanent the next time it would be destroyed this turn."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context, Related
from mtgr.rules.describe import state_based_actions_checked
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PRIORITY_LINES, Stage
from mtgr.syntax import tree as t

RULE = define(
    "B107",
    "Creature dealt deathtouch damage stays",
    severity=Severity.INFORMATION,
    decisions=("0027.1", "0027.3"),
    cr=("704.5h", "702.12b", "701.19a"),
    doc=__doc__,
)


@RULE.on(*PRIORITY_LINES, stages=(Stage.PLAYING,), with_sba_due=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if not state_based_actions_checked(ctx):
        return
    state = ctx.state
    for obj in state.watched_objects():
        if obj.deathtouch is None or obj.zone != "battlefield":
            continue
        if any(e.on == obj.number for e in state.effects):
            continue  # an effect on it may make it indestructible
        if could_be_given(ctx, obj, ("indestructible",)):
            continue  # an effect on no object in particular, or a card's text
        ctx.report(
            RULE,
            f"{obj.label()} was dealt damage by a source with deathtouch, so it is destroyed "
            "when state-based actions are checked, before this line (CR 704.5h), unless it "
            f"is indestructible: `#{obj.number} move battlefield -> graveyard by sba`, or "
            f"`#{obj.number} regenerate by sba replacement #N`",
            statement.verb.span,
            related=(Related(obj.deathtouch, None, f"{obj.label()} dealt deathtouch damage"),),
        )
