"""Two legendary permanents with one name under one player, left on the battlefield.

## What it flags
A turn, phase or step line, or a `cast` line without a cause (each comes after a moment
when state-based actions were checked), while one player controls two or more legendary
permanents with the same name: the legend rule should have put all but one into their
owners' graveyards, with a `move ... by sba` line. Silent without a card index, and
while a permanent whose text mentions the legend rule is on the battlefield; hidden
permanents and tokens are not looked up. A phased-out permanent is not counted (CR
702.26b), and the line that ends the untap step is not flagged: no player gets priority
in that step (CR 502.4), so a legend phased in there goes by the upkeep's first lines.

Reads: the front face's `type_line` (the supertype Legendary), the card's `name`, and
the `oracle_text` of the permanents on the battlefield.

## Why
State-based actions are checked whenever a player would receive priority (CR 704.3); the
legend rule is one of them (CR 704.5j). A record that goes on with both on the
battlefield has lost a line.

## Example
```mtgr
#8 "Thalia, Guardian of Thraben" resolve -> battlefield
#9 "Thalia, Guardian of Thraben" cast
```

## Use instead
```mtgr
#8 "Thalia, Guardian of Thraben" resolve -> battlefield
#3 move battlefield -> graveyard by sba
#9 "Lightning Bolt" cast
```

## Rules basis
- Decision 0012 item 5, decision 0050 item 3.
- CR 704.5j: "If two or more legendary permanents with the same name are controlled by the same player, that player chooses one of them, and the rest are put into their owners' graveyards."
- CR 704.3: "Whenever a player would get priority (see rule 117, "Timing and Priority"), the game checks for any of the listed conditions for state-based actions, then performs all applicable state-based actions simultaneously as a single event."
"""

from __future__ import annotations

from mtgr.rules.card_facts import face_up
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A107",
    "Legend rule not applied",
    severity=Severity.ERROR,
    decisions=("0012.5", "0050.3"),
    cr=("704.5j", "704.3"),
    doc=__doc__,
)


@RULE.on(t.Turn, t.PhaseOrStep, t.Cast, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    if quiet(ctx):
        return
    if isinstance(statement, t.Cast) and statement.cause is not None:
        return  # cast while a spell resolves: no player has had priority since
    if state.turn.step == "untap" and not isinstance(statement, t.Cast):
        return  # no player gets priority in the untap step (502.4): the upkeep's first lines
    legends: dict[tuple[str | None, str], list[GameObject]] = {}
    # a phased-out permanent is treated as though it does not exist (702.26b)
    permanents = [
        obj for obj in state.objects.values() if obj.zone == "battlefield" and not obj.phased_out
    ]
    for obj in permanents:
        card = ctx.card(obj)
        face = face_up(card, obj) if card is not None else None
        if face is not None and "Legendary" in face.types():
            legends.setdefault((obj.controller, face.name), []).append(obj)
    doubled = sorted(
        ((key, objs) for key, objs in legends.items() if len(objs) > 1),
        key=lambda item: (item[0][1], item[0][0] or ""),
    )
    if not doubled:
        return
    for obj in permanents:
        card = ctx.card(obj)
        if card is not None and card.text_mentions("legend rule"):
            return  # a permanent that says the legend rule does not apply (Mirror Gallery)
    for (controller, name), objects in doubled:
        labels = ", ".join(f"#{o.number}" for o in sorted(objects, key=lambda o: o.number))
        ctx.report(
            RULE,
            f'"{controller}" controls {labels}, each {name}: the legend rule puts all but one '
            "into their owners' graveyards (`move battlefield -> graveyard by sba`) before "
            "anyone gets priority (CR 704.5j)",
            related=tuple(r for o in objects for r in ctx.where(o)[:1]),
        )
