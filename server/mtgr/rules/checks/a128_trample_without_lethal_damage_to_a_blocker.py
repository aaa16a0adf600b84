"""A trampling attacker's damage to the player while a blocker got less than lethal damage.

## What it flags
The line that ends a combat damage step (the next step, phase or turn; or the end of a
record whose game is not over and no player has left) when a blocked
attacker dealt `trample` damage to the player, planeswalker or battle it attacks in that
step, and a creature still blocking it survived the step with less damage marked than its
toughness: trample assigns lethal damage to every blocker before the rest goes on. Silent
without a card index, for a blocker the index does not know or whose toughness it cannot
tell (see A108), when the attacker's damage had deathtouch (1 damage is lethal: the
blocker was destroyed, or was indestructible), for a blocker whose damage line in the
step names a replacement (prevented by protection, a Healing Salve) or whose damage umbra
armor removed, for one whose toughness a text may lower (Death's Shadow's "gets -X/-X":
lethal damage is less), for one with a lasting effect on it or a permanent attached (Swift
Reconfiguration, Imprisoned in the Moon: it may have stopped being a creature and left
combat, CR 506.4), and when the lines show something that could raise the blocker's toughness
or prevent the damage (a lasting effect on it, a permanent's text, a pump spell in a
graveyard).

## Why
An attacking creature with trample assigns lethal damage to all its blockers first, and
only the rest to the player or permanent it attacks (CR 702.19b); lethal damage counts the
damage already marked and what other creatures assign in the same step (CR 702.19b), so a
blocker that ends the step with less damage than its toughness was assigned less than
lethal, and no damage could trample over.

## Example
```mtgr
step combat-damage
#5 damage 2 -> #9
#5 damage 2 -> "Bob" trample
"Bob" life -2 by #5
step end-of-combat
```
(#5 Ghor-Clan Rampager, 4/4 trample; #9 Canopy Spider, 1/3.)

## Use instead
```mtgr
step combat-damage
#5 damage 3 -> #9
#5 damage 1 -> "Bob" trample
"Bob" life -1 by #5
#9 move battlefield -> graveyard by sba
step end-of-combat
```

## Rules basis
- Decision 0073 item 3: `trample` on a combat damage line; the damage beyond lethal damage to its blockers.
- Decision 0050 item 3: a card-aware rule stays silent where the lines show something that could change what it reads.
- CR 702.19b: "The controller of an attacking creature with trample first assigns damage to the creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, any excess damage is assigned as its controller chooses among those blocking creatures and the player, planeswalker, or battle the creature is attacking."
- CR 702.19b: "When checking for assigned lethal damage, take into account damage already marked on the creature and damage from other creatures that's being assigned during the same combat damage step, but not any abilities or effects that might change the amount of damage that's actually dealt."
- CR 702.19b: "The attacking creature's controller need not assign lethal damage to all those blocking creatures but in that case can't assign any damage to the player or planeswalker it's attacking."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, may_gain_abilities, toughness_with_counters
from mtgr.rules.checks.a108_lethal_damage_or_no_toughness import SAVES_IT
from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "A128",
    "Trample damage beyond a blocker that got less than lethal damage",
    severity=Severity.ERROR,
    decisions=("0073.3", "0050.3"),
    cr=("702.19b",),
    doc=__doc__,
)


@RULE.on(t.Turn, t.PhaseOrStep, stages=(Stage.PLAYING,), with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    _report_short_blockers(ctx)


@RULE.at_end
def at_end(ctx: Context) -> None:
    """A record that ends in the combat damage step, its game not over (nor left by a
    player: a record may end with its player's concession)."""
    state = ctx.state
    if ctx.cards is not None and state.stage is Stage.PLAYING and not _someone_left(state):
        _report_short_blockers(ctx)


def _report_short_blockers(ctx: Context) -> None:
    state = ctx.state
    trampled = state.turn.trampled
    if not trampled or state.turn.step != "combat-damage" or quiet(ctx):
        return
    for blocker in sorted(state.objects.values(), key=lambda o: o.number):
        if blocker.zone != "battlefield" or blocker.deathtouch is not None:
            continue
        if blocker.number in state.turn.damage_changed:
            continue  # prevented, replaced or removed: what it was assigned is not on it
        if may_gain_abilities(ctx, blocker.number):
            continue  # an Aura or effect may have made it stop being a creature, which
            # removes it from combat (CR 506.4): its attacker tramples all over (702.19d)
        for number in sorted(trampled.intersection(blocker.blocking)):
            attacker = state.obj(number)
            if attacker is None or could_be_given(
                ctx, attacker, ("deathtouch",), any_effect_on_it=True, from_spells=True
            ):
                continue  # 1 damage is lethal (CR 702.2c): an indestructible blocker stays
            if _short_of_lethal(ctx, blocker):
                ctx.report(
                    RULE,
                    f"{attacker.label()} dealt trample damage past {blocker.label()}, which "
                    f"has {blocker.damage} damage marked and toughness "
                    f"{toughness_with_counters(ctx.card(blocker), blocker)}: it assigns "
                    "lethal damage to each blocker before the rest tramples over (CR "
                    "702.19b); move damage from the player to the blocker",
                    # at the end of the record, shown at the step's line
                    line=state.moment if ctx.statement is None else None,
                    related=ctx.where(attacker),
                )


# what may make a blocker's toughness lower than its card's (Death's Shadow's "gets -X/-X"),
# and lethal damage less, besides what raises it or saves it
_LOWERS_TOUGHNESS = ("get -", "gets -")


def _someone_left(state: GameState) -> bool:
    return any(player.lost for player in state.players)


def _short_of_lethal(ctx: Context, blocker: GameObject) -> bool:
    toughness = toughness_with_counters(ctx.card(blocker), blocker)
    if toughness is None or toughness <= 0 or blocker.damage >= toughness:
        return False
    changes = (*SAVES_IT, *_LOWERS_TOUGHNESS)
    return not could_be_given(ctx, blocker, changes, any_effect_on_it=True, from_spells=True)
