"""A creature attacks, or taps for its own ability, in the turn it entered, without haste.

## What it flags
An `attack` line for a creature that the lines show entering the battlefield in this same
turn, and a `tap` line whose cause is the creature itself when its text has an ability
with {T} in its cost (its own ability, a mana ability too: Llanowar Elves cast this
turn), when the face it has up is a creature's, its card has no haste and nothing the
lines show could give it haste (its own text, as with dash; a lasting effect; a permanent
whose text mentions haste; an instant or sorcery in a graveyard or exile whose text does,
Expedite: a record may leave out the lasting effect a spell left). Silent without a card index, for tokens, for objects whose
arrival the lines do not show (a keyframe, a recording that starts late), after a change
of control (the spells that change control for a turn give haste, and the `control` line
does not say which text), for a modal double-faced card with its land face up, and for a
cost that taps creatures rather than {T} (Heritage Druid may tap itself among its three
Elves).

Reads: `keywords` and `oracle_text` of the attacker, and the `oracle_text` of the other
permanents on the battlefield, of the planeswalkers emblems are named after, and of cards
in graveyards whose text works there (Anger); a permanent the index does not know
may say anything, and keeps the rule silent.

## Why
A creature can attack, and activate an ability with the tap symbol in its cost, only if it
has been under its controller's control continuously since their most recent turn began,
unless it has haste (CR 302.6, 508.1a, 702.10b).

## Example
```mtgr
phase main
#5 "Tarmogoyf" cast
#5 resolve -> battlefield
phase combat
step beginning-of-combat
step declare-attackers
#5 attack "Bob"
```

## Use instead
```mtgr
phase main
#5 "Goblin Guide" cast
#5 resolve -> battlefield
phase combat
step beginning-of-combat
step declare-attackers
#5 attack "Bob"
```

## Rules basis
- Decision 0012 item 1, decision 0050 item 3.
- CR 302.6: "A creature can't attack unless it has been under its controller's control continuously since their most recent turn began."
- CR 508.1a: "each one must either have haste or have been controlled by the active player continuously since the turn began."
- CR 702.10b: "If a creature has haste, it can attack even if it hasn't been controlled by its controller continuously since their most recent turn began."
- CR 302.6: "A creature's activated ability with the tap symbol or the untap symbol in its activation cost can't be activated unless the creature has been under its controller's control continuously since their most recent turn began."
- CR 702.10c: "If a creature has haste, its controller can activate its activated abilities whose cost includes the tap symbol or the untap symbol even if that creature hasn't been controlled by that player continuously since their most recent turn began."
"""

from __future__ import annotations

from mtgr.rules.card_facts import could_be_given, face_up, may_gain_abilities
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject
from mtgr.syntax import tree as t

RULE = define(
    "A104",
    "Attack by a creature with summoning sickness",
    severity=Severity.ERROR,
    decisions=("0012.1", "0050.3"),
    cr=("302.6", "508.1a", "702.10b", "702.10c"),
    doc=__doc__,
)


@RULE.on(t.Attack, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Attack)
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or not _summoning_sick(ctx, obj, statement.name):
        return
    ctx.report(
        RULE,
        f"{obj.label()} entered the battlefield this turn and has no haste, so it cannot "
        "attack yet (CR 302.6)",
        statement.verb.span,
        related=ctx.where(obj),
    )


@RULE.on(t.TapChange, with_cards=True)
def check_tap(ctx: Context, statement: t.Statement) -> None:
    """`#N tap by #N`: the {T} in the cost of the creature's own ability (CR 302.6)."""
    assert isinstance(statement, t.TapChange)
    cause = statement.cause
    number = statement.subject.number
    if statement.verb.value != "tap" or cause is None:
        return
    agent = cause.agent
    if not isinstance(agent, t.ObjectRef) or agent.number != number:
        return
    obj = ctx.state.obj(number)
    if obj is None or obj.tapped or not _summoning_sick(ctx, obj, statement.name):
        return  # D804 reports a tapped one
    card = ctx.card(obj, statement.name)
    if card is None or not any(
        "{t}" in line.partition(":")[0] for line in face_up(card, obj).rules_lines()
    ):
        return  # its cost taps creatures, not {T} (Heritage Druid taps three Elves, itself too)
    ctx.report(
        RULE,
        f"{obj.label()} entered the battlefield this turn and has no haste, so an ability "
        "with the tap symbol in its cost, a mana ability too, cannot be activated yet "
        "(CR 302.6)",
        agent.span,
        related=ctx.where(obj),
    )


def _summoning_sick(ctx: Context, obj: GameObject, name: t.Text | None) -> bool:
    """A creature card the lines show entering this turn, with no haste it could have."""
    state = ctx.state
    if obj.zone != "battlefield" or obj.controlled_since is None:
        return False
    if obj.controlled_since != state.turn.line or obj.control_given:
        return False  # (a `control` line: Act of Treason gives haste, its line may not say so)
    card = ctx.card(obj, name)
    if card is None or card.has_keyword("Haste"):
        return False
    if "Creature" not in face_up(card, obj).types():
        return False  # a modal double-faced card played as its land face (CR 712.8f)
    if may_gain_abilities(ctx, obj.number):
        return False  # an Aura or effect on it may make it no creature (Imprisoned in the Moon)
    return not could_be_given(ctx, obj, ("haste",), from_spells=True)
