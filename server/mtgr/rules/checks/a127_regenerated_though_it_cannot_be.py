"""A permanent regenerated from a destruction that says it can't be regenerated.

## What it flags
`#N regenerate by C replacement #R` when C's text (a spell's, or the card whose ability C
is) destroys and says of what it destroys "It can't be regenerated" or "They can't be
regenerated": Wrath of God, Terminate, Putrefy. Silent without a card index, for a card
the index does not know, for a destruction by a state-based action (`by sba`; its
damage's source may say "can't be regenerated this turn", which no line ties to it), and
for a text that says it only under a condition, and for a modal spell (Crosis's Charm
says it of one mode only: which the caster chose, the rule does not read).

## Why
An effect that says a permanent can't be regenerated does not stop a regeneration shield
from being made, but the shield is not applied (CR 701.19c): the permanent is destroyed.
Terminate on a River Boa with a shield puts the Boa into the graveyard.

## Example
```mtgr
#5 resolve
#6 regenerate by #5 replacement #12
```
(#5 Wrath of God; #12 River Boa's regeneration shield.)

## Use instead
```mtgr
#5 resolve
#6 move battlefield -> graveyard as destroy by #5
```

## Rules basis
- Decision 0027 item 2: a regeneration names the destruction it replaced and the shield.
- Decision 0050 item 3: a card-aware rule stays silent where it cannot be sure.
- CR 701.19c: "Effects that say that a permanent can't be regenerated don't preclude such abilities from being activated or such spells from being cast; rather, they cause regeneration shields to not be applied."
- CR 608.2c: "In some cases, later text on the card may modify the meaning of earlier text"
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import face_up, whose_text
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A127",
    "Regenerated though the destruction says it can't be",
    severity=Severity.ERROR,
    decisions=("0027.2", "0050.3"),
    cr=("701.19c", "608.2c"),
    doc=__doc__,
)

# "Destroy target creature. It can't be regenerated." as a sentence of its own, straight
# after the sentence that destroys (Oracle writes a curly apostrophe)
_NO_REGENERATION = re.compile(
    r"\bdestroy[^.]*\.\s*(?:it|they) can['\u2019]t be regenerated\.", re.IGNORECASE
)


_MODAL = re.compile(
    r"\bchoose (?:one|two|three|one or more|one or both|any number)\b", re.IGNORECASE
)


@RULE.on(t.Regenerate, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    cause = statement.cause
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return
    destroying = ctx.state.obj(cause.agent.number)
    regenerated = ctx.state.obj(statement.subject.number)
    if destroying is None or regenerated is None:
        return
    text_of = whose_text(ctx, destroying)
    card = ctx.card(text_of) if text_of is not None else None
    if text_of is None or card is None or text_of.face_down:
        return
    text = face_up(card, text_of).oracle_text
    if _MODAL.search(text) or not _NO_REGENERATION.search(text):
        return  # a modal spell's other mode may say it (Crosis's Charm, CR 700.2)
    ctx.report(
        RULE,
        f"{text_of.label()} says what it destroys can't be regenerated: the shield is not "
        f"applied, and {regenerated.label()} is destroyed; write its move to the graveyard "
        "(CR 701.19c)",
        statement.verb.span,
        related=ctx.where(destroying),
    )
