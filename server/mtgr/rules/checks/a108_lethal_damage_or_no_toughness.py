"""A creature with lethal damage, or with toughness 0 or less, left on the battlefield.

## What it flags
A turn, phase or step line, or the end of a record of a game not over that no player has
left, while a creature
card stays on the battlefield that, in the step just ending, was dealt damage (the lines' `damage` lines, added up over the turn) at
least equal to its toughness, or by a source whose card lists deathtouch (when the damage
line does not say `deathtouch`, which is B107's), or entered with toughness 0 or less:
state-based actions should have put it into a graveyard (`move battlefield -> graveyard by
sba`). Toughness is
the printed one with its +1/+1 counters. Silent without a card index, for a toughness
that is not a number (`*`) or differs between a card's faces, and whenever something the
lines show could change toughness or save it: a lasting effect on it, or on no object in
particular whose text gives toughness (`+1/+1`, "get +"), -1/-1 counters (infect and wither deal damage as counters), a permanent whose
text gives +N/+N, indestructible or regeneration, or prevents damage, an instant or sorcery
in a graveyard or exile whose text does (Boros Charm), or a lasting effect that says so in
the writer's words ("can't be destroyed"). Damage whose source
may have infect or wither is not read as marked: it becomes -1/-1 counters, and where
none could be put (Solemnity) nothing of it stays.

Reads: the front face's `toughness` and `type_line`, and the `oracle_text` of the
permanents on the battlefield, of the planeswalkers emblems are named after (an emblem's
abilities work in the command zone, CR 114.4), and of cards in graveyards whose text works
there; a permanent the index does not know may say anything, and keeps the rule silent.

## Why
State-based actions are checked whenever a player would get priority (CR 704.3): a
creature with toughness 0 or less is put into its owner's graveyard (CR 704.5f), and one
with damage marked at least equal to its toughness is destroyed (CR 704.5g). A record
that goes on with it on the battlefield has lost a line (decision 0012 item 5).

## Example
```mtgr
#4 "Lightning Bolt" cast
#4 target #9
#4 resolve
#4 damage 3 -> #9
step end
```

## Use instead
```mtgr
#4 "Lightning Bolt" cast
#4 target #9
#4 resolve
#4 damage 3 -> #9
#9 move battlefield -> graveyard by sba
step end
```

## Rules basis
- Decision 0012 item 5, decision 0050 item 3.
- CR 704.5f: "If a creature has toughness 0 or less, it's put into its owner's graveyard."
- CR 704.5g: "If a creature has toughness greater than 0, it has damage marked on it, and the total damage marked on it is greater than or equal to its toughness, that creature has been dealt lethal damage and is destroyed."
- CR 704.5h: "If a creature has toughness greater than 0, and it's been dealt damage by a source with deathtouch since the last time state-based actions were checked, that creature is destroyed."
- CR 120.3e: "Damage dealt to a creature by a source with neither wither nor infect causes that much damage to be marked on that creature."
- CR 120.3d: "Damage dealt to a creature by a source with wither and/or infect causes that source's controller to put that many -1/-1 counters on that creature."
- CR 704.3: "Whenever a player would get priority (see rule 117, "Timing and Priority"), the game checks for any of the listed conditions for state-based actions, then performs all applicable state-based actions simultaneously as a single event."
"""

from __future__ import annotations

import re

from mtgr.rules.card_facts import could_be_given, face_up, toughness_with_counters
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A108",
    "Creature with lethal damage or no toughness left on the battlefield",
    severity=Severity.ERROR,
    decisions=("0012.5", "0050.3"),
    cr=("704.5f", "704.5g", "704.5h", "120.3e", "120.3d", "704.3"),
    doc=__doc__,
)

# Oracle text that can change toughness, or keep a damaged creature on the battlefield.
SAVES_IT = (
    *("get +", "gets +", "indestructible", "can't be destroyed", "regenerate", "toughness"),
    "prevent",
)
_LOSES_DEATHTOUCH = (
    "lose deathtouch",
    "loses deathtouch",
    "lose all abilities",
    "loses all abilities",
)
# a lasting effect written in short, `+1/+1` or `+X/+X` (decision 0013), raises toughness
_RAISES_TOUGHNESS = re.compile(r"/\+(?:\d|x)", re.IGNORECASE)


@RULE.on(t.Turn, t.PhaseOrStep, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if not quiet(ctx):
        _report_left_on_the_battlefield(ctx)


@RULE.at_end
def at_end(ctx: Context) -> None:
    """A record that ends in a step where one was dealt lethal damage (a game over is not:
    its last state-based actions end it, CR 104.2a; nor one a player has left: a record
    may end with its player's concession)."""
    state = ctx.state
    if ctx.cards is None or state.stage is not Stage.PLAYING or quiet(ctx):
        return
    if not any(player.lost for player in state.players):
        _report_left_on_the_battlefield(ctx)


def _report_left_on_the_battlefield(ctx: Context) -> None:
    state = ctx.state
    for obj in sorted(state.objects.values(), key=lambda o: o.number):
        if obj.zone != "battlefield":
            continue
        damage = obj.damage
        marked_now = damage > 0 and obj.damaged_moment == state.moment
        entered_now = obj.entered_moment == state.moment
        if not (marked_now or entered_now):
            continue
        card = ctx.card(obj)
        toughness = toughness_with_counters(card, obj)
        if card is None or toughness is None:
            continue
        if toughness <= 0 and entered_now:
            problem = (
                f"its toughness is {toughness}, so it goes to its owner's graveyard (CR 704.5f)"
            )
        elif marked_now and 0 < toughness <= damage and not _dealt_as_counters(ctx, obj):
            problem = (
                f"it has {damage} damage marked this turn and toughness {toughness}, "
                "so it is destroyed (CR 704.5g)"
            )
        elif marked_now and toughness > 0 and _by_deathtouch(ctx, obj):
            problem = (
                "it was dealt damage by a source with deathtouch in this step, so it is "
                "destroyed (CR 704.5h)"
            )
        else:
            continue
        if (
            card.has_keyword("Indestructible")
            or could_be_given(ctx, obj, SAVES_IT, any_effect_on_it=True, from_spells=True)
            or any(e.on is None and _RAISES_TOUGHNESS.search(e.text) for e in ctx.state.effects)
        ):
            continue
        if ctx.statement is None:  # the end of the record: shown at the step's line
            ctx.report(
                RULE,
                f"the record ends with {obj.label()} on the battlefield, but {problem}; "
                "write `move battlefield -> graveyard by sba` after what happened in this step",
                line=state.moment,
                related=ctx.where(obj),
            )
            continue
        ctx.report(
            RULE,
            f"{obj.label()} is still on the battlefield, but {problem}; state-based actions "
            "come before this line: `move battlefield -> graveyard by sba`",
            related=ctx.where(obj),
        )


def _dealt_as_counters(ctx: Context, obj: GameObject) -> bool:
    """Whether the source of the damage last marked on it may have infect or wither: that
    damage is not marked but becomes -1/-1 counters (CR 120.3d, 702.90c), and where none
    could be put (Solemnity, a replacement halving one) nothing stays of it."""
    source = ctx.state.obj(obj.damaged_by) if obj.damaged_by is not None else None
    return source is not None and could_be_given(ctx, source, ("infect", "wither"))


def _by_deathtouch(ctx: Context, obj: GameObject) -> bool:
    """Whether the source of the damage last marked on it lists deathtouch, where the line
    did not say so (a `deathtouch` damage line is B107's)."""
    source = ctx.state.obj(obj.damaged_by) if obj.damaged_by is not None else None
    if obj.deathtouch is not None or source is None or source.face_down:
        return False
    card = ctx.card(source)
    if card is None or not face_up(card, source).lists_keyword("deathtouch"):
        return False
    return not could_be_given(
        ctx, source, _LOSES_DEATHTOUCH, any_effect_on_it=True, from_spells=True
    )
