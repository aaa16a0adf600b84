"""An event with no cause that is not a turn-based action.

## What it flags
A line with no `by` that needs one: a move, a life change, mana added, counters, a reveal, a
search or shuffle, a control change, an attach or unattach, a new token or copy, the Ring
tempting a player (`ring-bearer`), a player's speed, a Class's level, a tap, an untap outside the
untap step, a phase in or out outside the untap step, a draw outside the draw step or a
second one in it. Turn-based actions have no cause and are not flagged: the active
player's one draw in the draw step (any draw of the step after a gap in it), the untaps
of the untap step (an untap of the active player's permanent written after the `turn` line
but before `step untap` is reported with that line missing), the cleanup step's discard
from the active player's hand while it holds more than seven cards (or a maximum the lines
cannot tell, or, with a card index, one a permanent's text may lower: Cursed Rack), a
Saga's lore counter as the precombat main phase begins, and in the pregame the opening
hands' draws (those of a player who has not kept yet) and the shuffles of the decks.
Without a card index, a discard to a maximum a permanent lowered names it: `by #N`. Nor is a control change back to the owner, or, once
an effect has changed who controls the permanent, to another player: control returns
without cause when the effect that took it ends (decision 0013 item 4), to the owner or to
the player an earlier effect still gives it (Mind Flayer's "for as long as"). A replaced
event with no cause is N104's.

## Why
Every event in a record has one cause (decisions 0001 and 0005): the object whose
ability or effect did it (`by #N`), the player who chose to do it (`by "Alice"`,
decision 0017), or a state-based action (`by sba`). Turn-based actions happen
automatically and are controlled by no player (CR 703.1, 703.2), so they alone are
written without one. Casting, playing, activating, triggering, targets, choices,
payments, resolving, attacks, blocks and damage say who acts in their own form, and
need no `by`.

## Example
```mtgr
"Bob" life -3
#16 tap
```

## Use instead
```mtgr
"Bob" life -3 by #5
#16 tap by "Alice"
```

## Rules basis
- Decision 0005 items 5 and 9, decision 0001 item 3, decision 0013 item 4, decision 0062
  item 1, decision 0010 items 3 and 5 (a step with something recorded is written, and its
  turn-based actions stand in it).
- CR 703.1: "Turn-based actions are game actions that happen automatically when certain steps or phases begin, or when each step and phase ends. Turn-based actions don't use the stack."
- CR 703.2: "Turn-based actions are not controlled by any player."
- CR 703.4c: "the active player determines which permanents they control will untap. Then they untap them all simultaneously."
- CR 703.4d: "Immediately after the draw step begins, the active player draws a card."
- CR 504.1: "First, the active player draws a card. This turn-based action doesn't use the stack."
- CR 703.4f: "Immediately after a player's precombat main phase begins, that player puts a lore counter on each Saga enchantment they control with one or more chapter abilities."
- CR 703.4n: "Immediately after the cleanup step begins, if the active player's hand contains more cards than their maximum hand size (normally seven), they discard enough cards to reduce their hand size to that number."
- CR 514.1: "First, if the active player's hand contains more cards than their maximum hand size (normally seven), they discard enough cards to reduce their hand size to that number."
- CR 103.3: "After the starting player has been determined and any additional steps performed, each player shuffles their deck so that the cards are in a random order."
- CR 103.5: "Each player draws a number of cards equal to their starting hand size, which is normally seven."
"""

from __future__ import annotations

from mtgr.rules.card_facts import maximum_hand_size_may_differ
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import MAXIMUM_HAND_SIZE, GameObject, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "N103",
    "Missing cause",
    severity=Severity.ERROR,
    decisions=(
        "0005.9",
        "0005.5",
        "0001.3",
        "0013.4",
        "0023.1",
        "0025.2",
        "0062.1",
        "0010.3",
        "0010.5",
    ),
    cr=(
        "703.1",
        "703.2",
        "703.4c",
        "703.4d",
        "504.1",
        "703.4f",
        "703.4n",
        "514.1",
        "103.3",
        "103.5",
    ),
    doc=__doc__,
)

_PREGAME = (Stage.HEADER, Stage.PREGAME)
_PRECOMBAT_MAIN = 4  # index of the precombat main phase in STEP_ORDER


# The statements that record an event with a cause (or a turn-based action without one).
EVENTS = (
    t.New,
    t.LibraryAction,
    t.TapChange,
    t.Move,
    t.Life,
    t.PlayerCounters,
    t.ObjectCounters,
    t.Reveal,
    t.Control,
    t.Draw,
    t.Attach,
    t.Phasing,
    t.ManaAdded,
    t.StaysTapped,
    t.LeavesCombat,
    t.RingTempts,
    t.Venture,
    t.Complete,
    t.Speed,
    t.ClassLevel,
)


def event_name(statement: t.Statement) -> str | None:
    """What the line records, if it is a kind of event that has a cause; else None."""
    if isinstance(statement, t.New):
        return f"new {statement.what.value}" if statement.what.value in ("token", "copy") else None
    if isinstance(statement, t.StaysTapped):
        return "stays tapped"
    if isinstance(statement, t.LeavesCombat):
        return "leaves combat"
    return statement.verb.value if isinstance(statement, EVENTS) else None


def causeless(state: GameState, statement: t.Statement) -> bool:
    """An event written without cause: a turn-based action (CR 703.4), a step of the pregame,
    or control going back as an effect ends: to the owner, or, once a `control` line has
    changed it, to a player an earlier effect still gives it (CR 611.2b, 613.7)."""
    turn = state.turn
    if isinstance(statement, t.Draw):
        if state.stage in _PREGAME:
            player = state.player(statement.subject.name)
            return player is None or not player.kept  # opening hands, mulligans (103.5)
        # 703.4d, 504.1: the active player's one draw; unknown after a gap in the step
        return (
            turn.step == "draw"
            and statement.subject.name == turn.player
            and (not turn.turn_draw_done or state.incomplete_since_step)
        )
    if isinstance(statement, t.TapChange):
        return statement.verb.value == "untap" and turn.step == "untap"  # 703.4c
    if isinstance(statement, t.Phasing):
        return turn.step == "untap"  # phasing in the untap step, 502.1 (decision 0025)
    if isinstance(statement, t.Move):
        discard = statement.kind is not None and statement.kind.value == "discard"
        to_graveyard = statement.destination.zone.value == "graveyard"
        from_hand = statement.source.zone.value == "hand"
        if turn.step != "cleanup" or not from_hand or not (discard or to_graveyard):
            return False
        return _discards_to_hand_size(state, statement.subject.number)  # 703.4n, 514.1
    if isinstance(statement, t.ObjectCounters):
        lore = statement.counter.value == "lore" and statement.delta.value > 0
        return lore and turn.position == _PRECOMBAT_MAIN  # 703.4f
    if isinstance(statement, t.LibraryAction):
        return statement.verb.value == "shuffle" and state.stage in _PREGAME  # 103.3
    if isinstance(statement, t.Control):
        obj = state.obj(statement.subject.number)  # control returns as an effect ends (0013.4)
        return obj is None or obj.owner == statement.controller.name or obj.control_given
    return False


def _discards_to_hand_size(state: GameState, number: int) -> bool:
    """Whether a card leaving a hand in the cleanup step may be its turn-based discard:
    the active player's, while they hold more than seven cards (CR 514.1), or more than a
    maximum the lines cannot tell (an effect or emblem about it, a Commander game)."""
    obj = state.obj(number)
    active = state.turn.player
    if obj is None or active is None or obj.owner != active:
        return obj is None
    return state.hand_size(active) > MAXIMUM_HAND_SIZE or (
        state.incomplete_since_turn or state.maximum_hand_size_unsure()
    )


def _discard_to_a_maximum_the_cards_may_lower(
    ctx: Context, statement: t.Statement, obj: GameObject | None
) -> bool:
    """With a card index, the active player's cleanup discard while a permanent's text may
    lower their maximum hand size (Cursed Rack, a static ability: no line says it)."""
    return (
        ctx.cards is not None
        and isinstance(statement, t.Move)
        and ctx.state.turn.step == "cleanup"
        and statement.source.zone.value == "hand"
        and obj is not None
        and obj.owner == ctx.state.turn.player
        and maximum_hand_size_may_differ(ctx)
    )


def _untap_before_its_step(
    state: GameState, statement: t.Statement, obj: GameObject | None
) -> bool:
    """An untap of the active player's permanent after the turn line, before any step."""
    turn = state.turn
    return (
        isinstance(statement, t.TapChange)
        and statement.verb.value == "untap"
        and turn.number > 0
        and turn.position == -1
        and obj is not None
        and obj.controller == turn.player
    )


# Steps whose turn-based actions a replacement effect can change, and the lines that the
# changed action can become (CR 703.4c, 703.4d, 703.4n): an untap (or a stun counter removed
# instead, 122.1d), the draw (or the mill and return of dredge, or life), the cleanup discard.
_TURN_BASED_STEPS: dict[str, tuple[type, ...]] = {
    "untap": (t.TapChange, t.Phasing, t.ObjectCounters),
    "draw": (t.Draw, t.Move, t.Life),
    "cleanup": (t.Move,),
}


def replaces_turn_based(state: GameState, statement: t.Statement) -> bool:
    """A replaced event with no cause that stands for a turn-based action (decision 0040):
    dredge or Laboratory Maniac replacing the draw step's draw, a replaced cleanup discard,
    a replaced untap, a replaced Saga lore counter. Turn-based actions happen as the step
    begins, before anyone has priority, so the stack is empty and nothing resolves."""
    if not statement.replacements or state.stage in _PREGAME:
        return False
    turn = state.turn
    if turn.step is not None and turn.step in _TURN_BASED_STEPS:
        kinds = _TURN_BASED_STEPS[turn.step]
    elif turn.position == _PRECOMBAT_MAIN:
        kinds = (t.ObjectCounters,)  # a Saga's lore counter (703.4f)
    else:
        return False
    return isinstance(statement, kinds) and not state.stack and state.resolving is None


@RULE.on(*EVENTS, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if statement.cause is not None or statement.replacements:
        return
    state = ctx.state
    if state.stage is Stage.OVER:
        return
    event = event_name(statement)
    if event is None or causeless(state, statement):
        return
    subject = statement.subject
    who = f"#{subject.number}" if isinstance(subject, t.ObjectRef) else f'"{subject.name}"'
    obj = state.obj(subject.number) if isinstance(subject, t.ObjectRef) else None
    label = obj.label() if obj is not None else who
    if _untap_before_its_step(state, statement, obj):
        ctx.report(
            RULE,
            f"{label} untaps before `step untap`: the untap step's untaps are its turn-based "
            "action, written without cause after that line (decision 0010 items 3 and 5); "
            "write `step untap` above this line",
            statement.verb.span,
        )
        return
    turn = state.turn
    if _discard_to_a_maximum_the_cards_may_lower(ctx, statement, obj):
        return
    again = ""
    if isinstance(statement, t.Draw) and turn.step == "draw" and subject.name == turn.player:
        again = " (the draw step's turn-based draw is one card, and it is written above: CR 504.1)"
    elif isinstance(statement, t.Move) and turn.step == "cleanup":
        again = (
            " (the cleanup step's discard is the active player's, down to their maximum hand "
            "size, seven unless an effect changes it: CR 514.1; name a permanent that lowers it "
            "with `by #N`)"
        )
    ctx.report(
        RULE,
        f"{label} {event} has no cause{again}: write `by #N` (the object whose ability or effect "
        'did it), `by "Player"` (a player\'s choice) or `by sba`; only turn-based actions go '
        "without one (decisions 0001, 0005; CR 703.1)",
        statement.verb.span,
    )
