"""A creature with flying blocked by one without flying or reach.

## What it flags
A `block` line whose attacker has flying as a keyword of the face it has up, printed on its
own line of keywords (Serra Angel's "Flying, vigilance"), when the blocker's face has
neither flying nor reach. Silent without a card index, for a face-down creature (no text),
for a flying the card has only under a condition (Dragon's Rage Channeler's delirium), and
when the lines show something that could give the blocker flying or reach or let it block
fliers (a lasting effect, a permanent's text, an equipment or a token attached), or take
the attacker's flying away (any lasting effect on it: its text is the writer's words, an
Elk "with no abilities").

## Why
A creature with flying can't be blocked except by creatures with flying and/or reach (CR
702.9b, 702.17b); a declaration of blockers that disobeys a restriction is illegal (CR
509.1b).

## Example
```mtgr
step declare-attackers
#5 attack "Bob"
step declare-blockers
#7 block #5
```
(#5 Serra Angel, #7 Grizzly Bears.)

## Use instead
```mtgr
step declare-attackers
#5 attack "Bob"
step declare-blockers
#8 block #5
```
(#8 Giant Spider, which has reach.)

## Rules basis
- Decision 0012 item 2: `#N block #M`, one line per attacker blocked.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 702.9b: "A creature with flying can't be blocked except by creatures with flying and/or reach."
- CR 509.1b: "If any restrictions are being disobeyed, the declaration of blockers is illegal."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, face_up
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "A110",
    "Flier blocked by a creature without flying or reach",
    severity=Severity.ERROR,
    decisions=("0012.2", "0050.3"),
    cr=("702.9b", "702.17b", "509.1b"),
    doc=__doc__,
)

_CAN_BLOCK_FLIERS = ("flying", "reach")
_LOSES_FLYING = ("lose flying", "loses flying", "lose all abilities", "loses all abilities")


@RULE.on(t.Block, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Block)
    if ctx.cards is None:
        return
    state = ctx.state
    blocker = state.obj(statement.subject.number)
    attacker = state.obj(statement.blocked.number)
    if blocker is None or attacker is None:
        return
    if blocker.zone != "battlefield" or attacker.zone != "battlefield":
        return
    attacking_card = ctx.card(attacker)
    blocking_card = ctx.card(blocker, statement.name)
    if attacking_card is None or blocking_card is None:
        return
    if not face_up(attacking_card, attacker).lists_keyword("flying"):
        return
    blocking_face = face_up(blocking_card, blocker)
    if any(blocking_face.lists_keyword(word) for word in _CAN_BLOCK_FLIERS):
        return
    if could_be_given(ctx, blocker, _CAN_BLOCK_FLIERS, any_effect_on_it=True):
        return
    if could_be_given(ctx, attacker, _LOSES_FLYING, any_effect_on_it=True):
        return
    ctx.report(
        RULE,
        f"{attacker.label()} has flying, and {blocker.label()} has neither flying nor reach, "
        "so it cannot block it (CR 702.9b); the effect that let it is not on the lines",
        statement.verb.span,
        related=ctx.where(attacker),
    )
