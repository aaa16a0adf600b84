"""A permanent enters untapped though its text says it enters tapped.

## What it flags
A `play`, a `move ... -> battlefield` or a `resolve -> battlefield` without `tapped` for a
card whose text says it enters tapped with no condition ("Temple of Mystery enters
tapped.", "This creature enters tapped with three stun counters on it."), and for a shock
land ("As Steam Vents enters, you may pay 2 life. If you don't, it enters tapped.") with
no `pay life` line for it straight before. Silent without a card index, for a face the
line does not show, and when the lines show something that could let it enter untapped:
an effect or a permanent whose text says lands or permanents enter untapped, or one that
takes a land's abilities away (Blood Moon: "Nonbasic lands are Mountains."). A condition
("unless you control two or fewer other lands") keeps the rule silent.

## Why
"This permanent enters tapped" is a replacement effect that applies as the permanent
enters, whatever puts it there (CR 603.6d, 614.1c, 614.1d). A shock land's life is paid as
it enters, and the record writes that payment before the line that puts it onto the
battlefield (decision 0017 item 6): without it the land enters tapped. A land written
untapped and then tapped for mana makes mana the player did not have.

## Example
```mtgr
#4 play
#4 tap by #4
```

## Use instead
```mtgr
#4 pay life 2
#4 play
#4 tap by #4
```

## Rules basis
- Decision 0007 item 4: `tapped` says a permanent entered the battlefield tapped; without it, it entered untapped.
- Decision 0017 item 6: payments for how a permanent enters stand before the line that puts it onto the battlefield.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 603.6d: "Some permanents have text that reads "[This permanent] enters with . . . ," "As [this permanent] enters . . . ," "[This permanent] enters as . . . ," or "[This permanent] enters tapped." Such text is a static ability—not a triggered ability—whose effect occurs as part of the event that puts the permanent onto the battlefield."
- CR 614.1c: "Effects that read "[This permanent] enters with . . . ," "As [this permanent] enters . . . ," or "[This permanent] enters as . . . " are replacement effects."
"""

from __future__ import annotations

import re

from mtgr.cards.model import Face
from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "A109",
    "Entered untapped though its text says tapped",
    severity=Severity.ERROR,
    decisions=("0007.4", "0017.6", "0050.3"),
    cr=("603.6d", "614.1c"),
    doc=__doc__,
)

# what could let it enter untapped (Spelunking, Archelos) or take its text away (Blood Moon)
_UNTAPPED_BY = ("enter untapped", "enters untapped", "nonbasic lands are", "lose all abilities")


@RULE.on(
    t.Play,
    t.Move,
    t.Leave,
    stages=(Stage.PLAYING,),
    outside_gaps_and_keyframes=True,
    with_cards=True,
)
def check(ctx: Context, statement: t.Statement) -> None:
    if ctx.cards is None or statement.tapped is not None:  # type: ignore[attr-defined]
        return
    if isinstance(statement, t.Move) and statement.destination.zone.value != "battlefield":
        return
    if isinstance(statement, t.Leave) and (
        statement.destination is None or statement.destination.zone.value != "battlefield"
    ):
        return
    assert isinstance(statement, (t.Play, t.Move, t.Leave))
    if isinstance(statement, t.Move) and statement.face_down is not None:
        return  # turned face down before it enters: no text, no "enters tapped" (CR 708.3)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or (obj.face_down and statement.name is None):
        return
    card = ctx.card(obj, statement.name)
    if card is None:
        return
    back = statement.back is not None or (isinstance(statement, t.Leave) and obj.back_face)
    face = card.faces[1] if back and len(card.faces) > 1 else card.front
    how = _enters_tapped(face)
    unless_paid = how is not None and how.startswith("unless paid")
    if how is None or (unless_paid and ctx.state.paid_to_enter == obj.number):
        return
    if could_be_given(ctx, obj, _UNTAPPED_BY):
        return
    if unless_paid:
        life = how.removeprefix("unless paid ")
        advice = (
            f"its controller pays the life on a line before it (`#{obj.number} pay life "
            f"{life}`), or it enters tapped: write `tapped`"
        )
    else:
        advice = "write `tapped` on this line"
    ctx.report(
        RULE,
        f"{obj.label()} enters tapped by its own text: {advice} (CR 614.1c)",
        statement.verb.span,
        related=ctx.where(obj),
    )


def _enters_tapped(face: Face) -> str | None:
    """ "always" for a face that enters tapped with no condition, "unless paid N" for a
    shock land's "you may pay 2 life. If you don't, it enters tapped." (N: the life), else
    None."""
    name = re.escape(face.name.casefold())
    subject = rf"(?:{name}|this (?:land|creature|artifact|enchantment|permanent))"
    for line in face.rules_lines():
        if re.fullmatch(rf"{subject} enters tapped(?: with [^.]*)?\.", line):
            return "always"
        paid = re.fullmatch(
            rf"as {subject} enters, you may pay (\d+) life\. if you don't, it enters tapped\.", line
        )
        if paid:
            return f"unless paid {paid.group(1)}"
    return None
