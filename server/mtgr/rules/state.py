"""The game as rebuilt up to a line: players, objects, zones, the stack, the turn.

States are values. Applying a line gives a new state and leaves the old one intact, so
the walk can keep checkpoints, and an incremental check can stop as soon as its state
equals the previous run's. Lines are referred to by their stable line id (`LineId`), never
by their number, so inserting a line above does not change any state below it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from operator import attrgetter
from typing import Any, TypeVar

from mtgr.rules.objects import FrozenObjects, ObjectTable
from mtgr.syntax import tree as t
from mtgr.syntax.tree import LineId, Span

_T = TypeVar("_T")

MAXIMUM_HAND_SIZE = 7  # CR 402.2, without effects that change it
ZONES = ("library", "hand", "graveyard", "battlefield", "stack", "exile", "command")
OWNED_ZONES = frozenset({"library", "hand", "graveyard"})
PUBLIC_ZONES = frozenset({"graveyard", "battlefield", "stack", "exile", "command"})
GONE = "gone"  # a token off the battlefield, a copy off the stack, a resolved ability
THE_RING = "The Ring"  # the emblem the Ring tempting a player gives (CR 701.54c)
# how GameState.keyframe_players records a keyframe's `day` or `night` entry (decision 0060)
DAY_NIGHT_ENTRY = ("", "day-night")
# the one empty set the walk's values hold: each `frozenset()` is a new 216-byte object, and
# the states a walk keeps held thousands of them (a turn's sets, emptied every step)
EMPTY_SET: frozenset[Any] = frozenset()


# Lines that come only after a player received priority, so after state-based actions were
# checked (CR 117.5, 704.3): what those actions did is written before them (decision 0024).
PRIORITY_LINES = (t.Cast, t.AbilityOf, t.Play, t.Leave, t.Turn, t.PhaseOrStep, t.Attack, t.Block)


def after_priority(state: GameState, statement: t.Statement) -> bool:
    """A line that comes only after a player received priority, so after state-based actions
    were checked (decision 0024 item 1): not a triggered ability, which is written as it
    triggers, nor what the resolving object does, whose resolution goes on: a spell it casts,
    a land it plays, a spell it counters (Mana Leak; Dash Hopes's trigger countering Dash
    Hopes after a player paid life for it), nor the play or move of a permanent whose cost
    of entering the line before paid (a shock land's 2 life)."""
    if not isinstance(statement, PRIORITY_LINES):
        return False
    if isinstance(statement, t.AbilityOf):
        return statement.verb.value == "activate"
    if state.paid_to_enter is not None and isinstance(statement, (t.Play, t.Leave, t.Move)):
        return statement.subject.number != state.paid_to_enter  # within the play (CR 117.3c)
    if (
        state.resolving is not None
        and statement.cause is not None
        and isinstance(statement, _DONE_IN_A_RESOLUTION)
        and (not isinstance(statement, t.Leave) or statement.verb.value == "countered")
    ):
        agent = statement.cause.agent
        return not (isinstance(agent, t.ObjectRef) and agent.number == state.resolving)
    return True


_DONE_IN_A_RESOLUTION = (t.Cast, t.Play, t.Leave)


def keyframe_entry(state: GameState, statement: t.Statement) -> bool:
    """A designation or day and night without cause inside a keyframe is one of its entries
    (decision 0060 item 2), not an event."""
    return state.in_keyframe is not None and statement.cause is None


def ends_untap_step(statement: t.Statement) -> bool:
    """A line that comes after the untap step of its turn (decision 0025): any priority line
    but the turn line and `step untap` themselves."""
    if isinstance(statement, t.Turn):
        return False
    return not (isinstance(statement, t.PhaseOrStep) and statement.name.value == "untap")


class ObjectKind(Enum):
    CARD = "card"
    TOKEN = "token"
    COPY = "copy"
    ABILITY = "ability"
    EMBLEM = "emblem"


class Stage(Enum):
    """Where the game is: before the first turn, playing, in a gap, or over."""

    HEADER = "header"
    PREGAME = "pregame"
    PLAYING = "playing"
    GAP = "gap"
    OVER = "over"

    # The walk looks a line's checks up by stage on every line: hashed by identity, in C,
    # not by Enum's own `__hash__` (Python code). Members are singletons, equal only to
    # themselves, so this hash agrees with equality.
    __hash__ = object.__hash__


# every stage but the end of a game: where the checks of what happens in a game run
NOT_OVER = frozenset(Stage) - {Stage.OVER}


@dataclass(frozen=True, slots=True)
class ControlEffect:
    """A control change that ends with a duration (decision 0021): who had control before
    it, so that control goes back when it ends (CR 613.1b, 514.2)."""

    until: str  # end-of-turn, end-of-combat, next-turn, leaves
    source: int
    holder: str | None  # the source's controller: "until your next turn" is theirs
    previous: str | None
    line: LineId
    # `previous` had control by a `control` line without a duration (Control Magic), not by
    # default: it loses it as they leave the game (CR 800.4a), where a default controller
    # leaving exiles the permanent as the change ends (CR 800.4c)
    previous_given: bool = False


@dataclass(frozen=True, slots=True)
class ObjectDetails:
    """The parts of a GameObject that most of its versions leave at their defaults: combat,
    damage, counters, attachments, faces, phasing. An object keeps them in one value that
    its versions share (`GameObject.details`), so a card drawn, played and tapped is a
    small object; the walk's checkpoints kept some 20,000 versions of objects on 50,000
    lines, each with every field."""

    introduced_hidden: bool = False
    # the object whose effect let this ability be activated beyond the normal rules
    # (`activate of #M by #P`: Oath of Teferi, The Chain Veil; decision 0070)
    permission: int | None = None
    counters: tuple[tuple[str, int], ...] = ()
    attacking: bool = False
    # what it attacks (a player's name or a permanent's number); put onto the battlefield
    # attacking rather than declared (decision 0020, CR 508.4); blocked; what it blocks
    attack_target: str | int | None = None
    entered_attacking: bool = False
    blocked: bool = False
    blocking: tuple[int, ...] = ()
    # control-changing effects with a duration, oldest first (decision 0021), and whether a
    # `control` line changed who controls it since it entered: control an effect gave ends
    # as its holder leaves the game, control it entered with does not (decision 0084)
    control_effects: tuple[ControlEffect, ...] = ()
    control_given: bool = False
    # who controlled it before the first `control` line changed that: the player it goes
    # back to when the one an effect gave it to leaves the game (CR 110.2, 800.4a)
    control_taken_from: str | None = None
    # what it is attached to (a permanent's number or a player's name, decision 0023), and
    # the moment it became unattached because that left the battlefield (CR 704.5m, 704.5n)
    attached_to: int | str | None = None
    detached_moment: LineId | None = None
    # since it entered, something that held its toughness or defense up left it: an
    # attachment moved away, unattached or gone (a Germ token without Batterskull), or
    # counters removed (Walking Ballista's last +1/+1 counter, a battle's defense), so a
    # move `by sba` may follow (CR 701.3d, 704.5f, 704.5v)
    weakened: bool = False
    # damage marked on it until the cleanup step (CR 514.2), and whether a line took its
    # last loyalty counter (decision 0024: CR 704.5g, 704.5i)
    damage: int = 0
    deathtouch: LineId | None = None  # dealt damage by a source with deathtouch (0027)
    loyalty_gone: LineId | None = None
    # the player chose it to keep under the legend rule in the state-based actions still
    # being performed (decision 0061, CR 704.5j)
    kept_by_legend: LineId | None = None
    ring_bearer: bool = False  # its controller's Ring-bearer (decision 0062, CR 701.54a)
    face_down: bool = False  # a face-down spell, permanent or exiled card (decision 0028)
    turned_up_moment: LineId | None = None  # the step it was last turned face up in
    back_face: bool = False  # a double-faced card with its back face up (decision 0029)
    # split, flip and adventurer cards (decision 0064): the half of a split card cast, while
    # on the stack; cast as an Adventure, or on an adventure in exile after resolving; flipped
    half: str | None = None
    adventure: bool = False
    # cast bestowed or mutating: with its target illegal it becomes a creature spell and
    # resolves (CR 608.3b), rather than not resolving
    creature_if_target_illegal: bool = False
    # cast with flashback, jump-start, harmonize or aftermath: exiled whenever it would leave
    # the stack (CR 702.34a, 702.133a, 702.180a, 702.127a)
    exiled_from_stack: bool = False
    flipped: bool = False
    # a Room's doors with the unlocked designation (decision 0099, CR 709.5c); with
    # `through_gap`, a door not among them may be unlocked too
    unlocked: tuple[str, ...] = ()
    # a Class's level (decision 0108, CR 716.2b); None: never given one (level 1, 716.2d),
    # or, with `through_gap`, given none since a gap
    level: int | None = None
    # on the battlefield at a keyframe after a gap: its level and doors, which a keyframe
    # does not list (decisions 0099, 0108), are known only where a line since gave them
    through_gap: bool = False
    # a melded permanent (decision 0065): on the permanent, the other card of its meld pair;
    # on that other card, the permanent it is part of while it stays on the battlefield
    melded_with: int | None = None
    melded_into: int | None = None
    # phased out (decision 0025, CR 702.26): under whose control, directly or with what it
    # is attached to, and whether its controller's untap step this turn must phase it in
    phased_out: bool = False
    phased_under: str | None = None
    phased_indirectly: bool = False
    phase_in_due: bool = False
    # the object whose effect phased it out directly (`phase out by #N`): an effect that
    # phases it out "until" something keeps it out through its untap steps (Oubliette)
    phased_by: int | None = None
    gone_by: str | None = None  # how a card went back to the untracked pool ("shuffled into ...")
    damaged_moment: LineId | None = None  # GameState.moment when damage was last marked
    # the source of the damage last marked (decision 0060); None when it was face down,
    # with no abilities (no deathtouch, no wither: CR 708.2a)
    damaged_by: int | None = None
    # a spell's or ability's targets as they stood when chosen: (object number, its zone, its
    # last move) or (player name, None, None); a target is illegal once that changed (608.2b)
    targets: tuple[tuple[int | str, str | None, LineId | None], ...] = ()
    # who controlled it as it left the battlefield, until it moves again: an ability that
    # triggers on its leaving looks back at it, and is that player's (CR 603.10a, 603.3a)
    left_controller: str | None = None
    # "countered" or "fizzle": how it last left the stack without resolving, until it moves
    # again; none of its effects happened (CR 701.6a, 608.2b)
    unresolved: str | None = None
    # a loyalty ability's cost (+1, -2): which of its planeswalker's abilities it is (A123)
    loyalty_cost: int | None = None
    # an instant or sorcery that resolved in an earlier casting this game: the extra turns
    # it gave still come after a later casting is countered (Time Walk recast, K347)
    resolved_before: bool = False


NO_DETAILS = ObjectDetails()
DETAIL_FIELDS = frozenset(f.name for f in fields(ObjectDetails))


@dataclass(frozen=True, slots=True, init=False)
class GameObject:
    """A card, token, copy, ability or emblem as it stands between two lines. The fields
    most versions set are its own; the rarer ones (ObjectDetails' fields) are read through
    it as if they were too (`obj.attacking`), and are given to it and to `evolve` by name
    like its own (`evolve(obj, tapped=True, attacking=True)`)."""

    number: int
    kind: ObjectKind
    name: str | None  # None while hidden
    owner: str | None
    controller: str | None
    zone: str
    introduced: LineId
    introduced_zone: str
    introduced_after_gap: bool = False
    source: int | None = None  # an ability's source, a copy's original
    tapped: bool = False
    # the `tap` or `attack` line that tapped it, while it stays tapped: where a finding
    # about a tapped permanent points (a creature that attacked without `untapped`)
    tapped_at: LineId | None = None
    last_moved: LineId | None = None
    entered_moment: LineId | None = None  # GameState.moment as it entered its current zone
    # the turn line of the turn in which it entered the battlefield, when the lines show it
    # (CR 302.6); None: not known (a keyframe, a gap) or not on the battlefield
    controlled_since: LineId | None = None
    details: ObjectDetails = NO_DETAILS  # shared by the versions whose details are equal

    def __init__(
        self,
        number: int,
        kind: ObjectKind,
        name: str | None,
        owner: str | None,
        controller: str | None,
        zone: str,
        introduced: LineId,
        introduced_zone: str,
        **more: Any,
    ) -> None:
        """The fields by name, ObjectDetails' among them; the walk builds objects with
        `new_object` and `evolve` instead, which skip this."""
        values = {f.name: f.default for f in _OWN_FIELDS}
        values.update(
            number=number,
            kind=kind,
            name=name,
            owner=owner,
            controller=controller,
            zone=zone,
            introduced=introduced,
            introduced_zone=introduced_zone,
        )
        for key in [key for key in more if key in values]:
            values[key] = more.pop(key)
        if more:
            unknown = more.keys() - DETAIL_FIELDS
            if unknown:
                raise TypeError(f"GameObject has no field {', '.join(sorted(unknown))}")
            values["details"] = _with_details(values["details"], more)  # type: ignore[arg-type]
        for key, value in values.items():
            object.__setattr__(self, key, value)

    @property
    def hidden(self) -> bool:
        return self.name is None

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    def label(self) -> str:
        return f"#{self.number} ({self.name})" if self.name else f"#{self.number}"

    @property
    def in_combat(self) -> bool:
        return self.attacking or bool(self.blocking)


_OWN_FIELDS = fields(GameObject)
# ObjectDetails' fields read through the object: `obj.damage` is `obj.details.damage`
for _name in DETAIL_FIELDS:
    setattr(GameObject, _name, property(attrgetter(f"details.{_name}")))


def _with_details(details: ObjectDetails, changes: dict[str, object]) -> ObjectDetails:
    """`details` with `changes` (details only); NO_DETAILS when that is what it comes back
    to (a creature's damage removed in the cleanup step), compared as a tuple in C; and
    `details` itself when no change makes a difference (a move resets some twenty details
    that most objects never had)."""
    for name, change in changes.items():
        if getattr(details, name) is not change:
            break
    else:
        return details
    changed = evolve(details, **changes)
    return NO_DETAILS if _detail_values(changed) == _NO_DETAIL_VALUES else changed


_detail_values = attrgetter(*(f.name for f in fields(ObjectDetails)))
_NO_DETAIL_VALUES = _detail_values(NO_DETAILS)


@dataclass(frozen=True, slots=True)
class Library:
    """Tracked cards at known positions; the rest is the untracked pool (CR 400.5)."""

    size: int | None = None  # None: unknown (no deck size given, or after a gap)
    top: tuple[int | None, ...] = ()  # top[0] is the top card; None: an untracked card
    bottom: tuple[int | None, ...] = ()  # bottom[0] is the bottom card

    def tracked(self) -> set[int]:
        return {n for n in (*self.top, *self.bottom) if n is not None}

    def top_card(self) -> int | None:
        """The tracked card on top, where the lines tell it: the first of `top`, or, once
        the library holds only its tracked bottom cards, the highest of them (a card put on
        the bottom comes to the top as the cards above it go: CR 121.1)."""
        if self.top:
            return self.top[0]
        if self.size is not None and 0 < self.size == len(self.bottom):
            return self.bottom[-1]
        return None


@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    life: int = 20
    counters: tuple[tuple[str, int], ...] = ()
    library: Library = field(default_factory=Library)
    deck: int | None = None
    roll: int | None = None
    mulligans: int = 0
    kept: bool = False
    bottomed: int = 0
    opening_drawn: int = 0  # cards drawn for the current opening hand
    lost: bool = False
    # why and since which line the player loses the next time state-based actions are
    # checked, until that happens (decision 0024: CR 704.5a, 704.5b, 704.5c)
    loses: tuple[str, LineId] | None = None
    # the lands played this turn that count against the one a turn: without cause, or during
    # a resolution (Djinn of Wishes); one an effect allowed (`by #N`) does not (K304)
    lands_played: int = 0
    citys_blessing: bool = False  # for the rest of the game (decision 0026)
    speed: int | None = None  # start your engines! (decision 0098): None until a line sets it
    # how often the Ring tempted the player and their Ring-bearer (decision 0062, CR 701.54)
    ring_tempted: int = 0
    ring_bearer: int | None = None
    # the room of their dungeon their venture marker is in, and the dungeons they completed
    # (decision 0063, CR 309.4, 309.7)
    venture_room: str | None = None
    dungeons_completed: int = 0
    kept_line: LineId | None = None

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)


@dataclass(frozen=True, slots=True)
class PendingDamage:
    """Damage whose life or loyalty line must follow (decision 0019 item 5)."""

    line: LineId
    source: int
    amount: int
    recipient: int | str  # a planeswalker's number or a player's name
    span: Span | None = None  # the damage line's columns, for reporting on it later
    # the poison counters its source gave the player for it, at least the damage: infect's
    # result, and toxic's beside it (decision 0111 item 2); D801 reads whether the source
    # may have infect and toxic where a card index tells
    poison: int = 0


@dataclass(frozen=True, slots=True)
class Effect:
    line: LineId
    source: int
    text: str
    on: int | None
    until: str | None


@dataclass(frozen=True, slots=True)
class Turn:
    number: int = 0
    player: str | None = None
    line: LineId | None = None
    # index into STEP_ORDER of where the turn is; -1 before the untap step
    position: int = -1
    step: str | None = None
    phase: str | None = None
    starting_player_skipped_draw: bool = False
    normal_player: str | None = None  # the player of the last turn that was not an extra turn
    # a gap ended in this turn's combat: who attacks and who blocks the lines do not show
    # (a keyframe does not record combat, decision 0020 item 6)
    combat_unseen: bool = False
    repeated: bool = False  # the current phase or step came again (510.4, 514.3a, 500.8)
    # while added phases run (500.8): where the turn stood when the first was added; the
    # regular phases that follow them are placed from there (505.1a, decision 0043)
    added_after: int | None = None
    # this cleanup step gives priority: something triggered or a state-based action was
    # performed in it (514.3a, decision 0044 item 1)
    cleanup_priority: bool = False
    # permanents whose loyalty ability was activated this turn (606.3, decision 0044 item 2)
    loyalty_used: frozenset[int] = EMPTY_SET
    # permanents with an `activate of` line this turn that no effect allowed (decision
    # 0070): a [0] loyalty ability pays nothing, so only its card tells it apart (A117)
    activated: frozenset[int] = EMPTY_SET
    # creatures that dealt combat damage in this combat's first combat damage step: in a
    # second one only those with double strike deal it again (510.4, decision 0073)
    struck_first: frozenset[int] = EMPTY_SET
    # the active player's draw of this draw step is written: a second draw needs a cause
    # (CR 504.1: the turn-based action draws one card)
    turn_draw_done: bool = False
    # the combat damage each source has dealt in this combat damage step, and the life its
    # controller has gained by it since, (source, dealt, gained): lifelink's (CR 702.15b)
    combat_damage: tuple[tuple[int, int, int], ...] = ()
    # blocked attackers that dealt `trample` damage to what they attack in this step: each
    # of their blockers was assigned lethal damage first (CR 702.19b, A128)
    trampled: frozenset[int] = EMPTY_SET
    # creatures whose damage in this step is not what was assigned to them: a prevention
    # or replacement on its line, or umbra armor's removal (decision 0085)
    damage_changed: frozenset[int] = EMPTY_SET


# CR 500.1: the phases and steps in order. A main phase appears twice.
STEP_ORDER: tuple[tuple[str, str | None], ...] = (
    ("beginning", None),
    ("beginning", "untap"),
    ("beginning", "upkeep"),
    ("beginning", "draw"),
    ("main", None),
    ("combat", None),
    ("combat", "beginning-of-combat"),
    ("combat", "declare-attackers"),
    ("combat", "declare-blockers"),
    ("combat", "combat-damage"),
    ("combat", "end-of-combat"),
    ("main", None),
    ("ending", None),
    ("ending", "end"),
    ("ending", "cleanup"),
)


def _step_places() -> dict[tuple[str, bool], tuple[int, ...]]:
    places: dict[tuple[str, bool], tuple[int, ...]] = {}
    for index, (phase, step) in enumerate(STEP_ORDER):
        key = (phase, True) if step is None else (step, False)
        places[key] = (*places.get(key, ()), index)
    return places


_STEP_PLACES = _step_places()


# The parts of casting a spell or activating an ability, in the order of CR 601.2 and
# 602.2b (decision 0045 item 1): the announcement, choices (modes, X), targets, mana
# abilities, the `pay` lines, then the actions that pay costs.
CASTING_STAGES = ("announced", "choices", "targets", "mana abilities", "payments", "cost actions")
_PAYMENTS = 4


@dataclass(frozen=True, slots=True)
class Casting:
    """The spell or ability being cast or activated, how far its lines have got, and the
    first line of each part written so far (to move a line written too late)."""

    number: int
    stage: int
    starts: tuple[LineId | None, ...]


def casting_stage(state: GameState, casting: Casting, statement: t.Statement) -> int | None:
    """Which part of casting `casting.number` a line is, or None if it is none of them.

    Once costs are paid the spell is cast (601.2i): a `choose` after that is made later
    (as a permanent enters, 614.12a, decision 0017 item 6), and a mana ability after the
    `pay` line, or after an action that pays a cost (Daze's returned Island, an evoked
    Grief's exiled card: costs with no `pay` line), makes mana for what comes next; neither
    is part of this casting. Nor is
    another player's mana ability: only the caster activates them while casting (601.2g),
    so it comes after, in response (a land tapped for mana in response to Wasteland). Nor
    is the reveal of the card whose ability is activated from a hidden zone (602.2a)."""
    number = casting.number
    paid = casting.starts[_PAYMENTS] is not None  # a `pay` line
    cast = paid or casting.stage > _PAYMENTS  # or an action that pays a cost
    if isinstance(statement, t.ObjectStatement) and statement.subject.number == number:
        if isinstance(statement, t.Choose):
            return None if cast else 1
        if isinstance(statement, t.Target):
            return 2
        if isinstance(statement, t.Pay):
            return 4
    cause = statement.cause
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return None
    if cause.agent.number == number:
        if isinstance(statement, t.Reveal) and _is_source_of(state, statement, number):
            return None  # a card revealed as its ability is announced from a hidden zone (602.2a)
        return 5
    if (
        isinstance(statement, (t.TapChange, t.Move))
        and statement.subject.number == cause.agent.number
    ):
        # a mana ability: the permanent taps or sacrifices itself (decision 0005 item 2)
        if cast or _controlled_by_another(state, cause.agent.number, number):
            return None
        return 3
    return None


def _is_source_of(state: GameState, reveal: t.Reveal, ability: int) -> bool:
    activated = state.obj(ability)
    return activated is not None and activated.source == reveal.subject.number


def _controlled_by_another(state: GameState, source: int, cast: int) -> bool:
    permanent = state.obj(source)
    casting = state.obj(cast)
    if permanent is None or casting is None or casting.controller is None:
        return False
    return (permanent.controller or permanent.owner) != casting.controller


def loyalty_cost_of(state: GameState, statement: t.Statement) -> int | None:
    """The ability a `counters ... loyalty by #A` line pays the loyalty cost of, if it does:
    A is an ability of that permanent being activated, on top of the stack and not
    resolving (CR 606.4, decision 0017 item 3); else None."""
    if not isinstance(statement, t.ObjectCounters) or statement.counter.value != "loyalty":
        return None
    cause = statement.cause
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return None
    number = cause.agent.number
    ability = state.obj(number)
    if ability is None or ability.kind is not ObjectKind.ABILITY:
        return None
    if ability.source != statement.subject.number or state.resolving == number:
        return None
    if not state.stack or state.stack[-1] != number:
        return None
    activated = ability.name is not None and ability.name.startswith("activated ")
    return number if activated else None


def target_illegal(state: GameState, mark: tuple[int | str, str | None, LineId | None]) -> bool:
    """A target, as its `target` line gave it, that has since left the zone it was in (or
    ceased to exist), or a player who has left the game (CR 608.2b, decision 0044 item 3)."""
    what, zone, moved = mark
    if isinstance(what, str):
        player = state.player(what)
        return player is None or player.lost
    obj = state.obj(what)
    return obj is None or obj.zone == GONE or obj.zone != zone or obj.last_moved != moved


def apnap_place(state: GameState, player: str | None) -> int | None:
    """A player's place in APNAP order: the active player 0, then the others in turn order
    (CR 101.4); None when not known."""
    active = state.turn.player
    names = state.player_names()
    if active is None or player is None or active not in names or player not in names:
        return None
    return (names.index(player) - names.index(active)) % len(names)


def source_controller(state: GameState, obj: GameObject) -> str | None:
    """Who controls an ability of `obj` (CR 113.8): its controller; for a permanent that
    left the battlefield in this step, who controlled it then (a "dies" or "leaves" trigger
    looks back in time, CR 603.10a); else its owner (a card in a graveyard or a hand)."""
    if obj.controller is not None:
        return obj.controller
    if obj.left_controller is not None and obj.entered_moment == state.moment:
        return obj.left_controller
    return obj.owner


def _controller_uncertain(state: GameState, source: GameObject) -> bool:
    """A source off the battlefield that another player than its owner controlled when it
    left: a delayed trigger it set up is its creator's (CR 603.7e), a card's own ability
    its owner's, and the line does not say which."""
    return (
        source.controller is None
        and source.left_controller is not None
        and source.left_controller != source.owner
        and source.entered_moment != state.moment
    )


def trigger_place(state: GameState, statement: t.AbilityOf) -> tuple[bool, int] | None:
    """Where a `trigger` line stands in the order of CR 603.3b, from the state before it:
    whether it triggered on another ability triggering (`by #A`, the second part), then its
    controller's place in APNAP order; None when its controller is not known."""
    if statement.source is not None:
        source = state.obj(statement.source.number)
        if source is None or _controller_uncertain(state, source):
            return None
        controller = source_controller(state, source)
    elif statement.designation is not None and statement.designation.value == "initiative":
        controller = state.initiative
    elif statement.designation is not None and statement.designation.value == "speed":
        controller = state.turn.player  # it triggers during its controller's turn (702.179d)
    else:
        controller = state.monarch
    place = apnap_place(state, controller)
    return None if place is None else (statement.cause is not None, place)


def step_places(name: str, is_phase: bool) -> tuple[int, ...]:
    """Where a phase or step stands in STEP_ORDER; the main phase stands there twice."""
    return _STEP_PLACES.get((name, is_phase), ())


@dataclass(slots=True)
class GameState:
    """The game between two lines. The walk changes one working state in place, line after
    line, and keeps a `checkpoint()` of it every few lines; a checkpoint is never changed."""

    stage: Stage = Stage.HEADER
    game: int = 1
    players: tuple[PlayerState, ...] = ()
    perspective: str | None = None  # None: not declared; "" : all
    starting_player: str | None = None
    start_line: LineId | None = None
    objects: ObjectTable = field(default_factory=ObjectTable)
    # Numbers only increase through the file (decision 0004 item 3), so two integers say
    # which numbers are taken: no set of every number, which an edit would make differ
    # for the rest of the file and so stop the incremental walk from ever converging.
    highest_number: int = 0  # the highest number introduced so far in the file
    game_floor: int = 0  # the highest number of the earlier games
    stack: tuple[int, ...] = ()  # bottom first; stack[-1] is the top
    turn: Turn = field(default_factory=Turn)
    pending_damage: tuple[PendingDamage, ...] = ()
    effects: tuple[Effect, ...] = ()
    in_keyframe: LineId | None = None
    keyframe_seen: frozenset[int] = EMPTY_SET
    keyframe_players: frozenset[tuple[str, str]] = EMPTY_SET
    gap_line: LineId | None = None
    searching: tuple[str, str, LineId] | None = None  # (searcher, library owner, line)
    opening_actions_by: tuple[str, ...] = ()  # players who took opening hand actions
    # the object whose move onto the battlefield, or turning face up, was the last line
    last_entered: int | None = None
    # the designation whose missed trigger the last line, a judge's, had put on the stack now
    # (decision 0106): its `trigger of` line comes where the judge ruled, not where it
    # triggered
    judge_added: int | str | None = None  # an object's number, or a designation
    # the object not on the stack that the last line paid for: a cost of how it enters
    # (a shock land's life, decision 0017 item 6), paid within the line that puts it there
    paid_to_enter: int | None = None
    ended_line: LineId | None = None
    declarations_done: bool = False
    # which step an event is in: the last turn, phase or step line (-1 before the first; a
    # line id, not a count, so that an edit above leaves the states below equal)
    moment: LineId = -1
    incomplete_since_turn: bool = False  # an `incomplete` since the last turn line, or pregame
    incomplete_since_step: bool = False  # an `incomplete` since the last turn, phase or step line
    # a judge's backup since the last turn line: the next may go back to an earlier turn (0094)
    backed_up_since_turn: bool = False
    rolls: tuple[tuple[str, int], ...] = ()  # pregame rolls in order (103.1), re-rolls included
    chooser: str | None = None  # the player who chose the starting player (`start ... by "Q"`)
    next_chooser: str | None = None  # who chooses in this game, from the previous one (103.1)
    after_end: LineId | None = None  # the first event line after the game ended
    headers: frozenset[str] = EMPTY_SET  # header keywords seen: mtgr, title, rules, perspective
    declared: tuple[str, ...] = ()  # players declared by `player` lines
    resolving: int | None = None  # the object that resolved last, while its resolution goes on
    hidden_this_step: frozenset[int] = EMPTY_SET  # `new hidden` since the last turn, phase, step
    # what a player who lost `by sba` took out of the game with them, while the other
    # state-based actions of that one event are still written (CR 704.3, 800.4a)
    left_with_sba: frozenset[int] = EMPTY_SET
    # how this game ended (decision 0030): the winner's name, "" for a draw, None while not
    # known. Earlier games' results are not kept: an edit to one game's end would otherwise
    # make every later state differ, and the walk could not stop re-checking early.
    result: str | None = None
    # the Commander variant (decision 0031)
    variant: str | None = None  # "commander", "brawl" (decision 0104), or None for a normal game
    commanders: tuple[int, ...] = ()  # the numbers of this game's commanders
    commander_casts: tuple[
        tuple[int, str, int], ...
    ] = ()  # (commander, caster, casts from command)
    # commanders that may have been cast in a gap: how often is not known until the next cast
    # from the command zone, whose tax says it (CR 903.8)
    commander_casts_unknown: frozenset[int] = EMPTY_SET
    commander_damage: tuple[tuple[str, int, int], ...] = ()  # (player, commander, combat damage)
    # players dealt 21 or more combat damage by one commander, who must lose next (704.6c):
    # (player, commander, damage line, its columns)
    commander_losses: tuple[tuple[str, int, LineId, Span | None], ...] = ()
    # time called for the round (decision 0033): (the turn it was called in, turns after it,
    # the judge line)
    time_called: tuple[int, int, LineId] | None = None
    attached: frozenset[int] = EMPTY_SET  # objects attached to something (decision 0023)
    casting: Casting | None = None  # the spell or ability being cast or activated (0045)
    # objects with damage marked or a loyalty counter just gone (decision 0024), phased out
    # (0025), under a control change with a duration (0021): the few that turn, step and
    # priority lines look at, instead of every object; and whether a state-based action is
    # owed at the next priority line
    watched: frozenset[int] = EMPTY_SET
    phased: frozenset[int] = EMPTY_SET
    control_changed: frozenset[int] = EMPTY_SET
    in_combat: frozenset[int] = EMPTY_SET  # attacking, blocking or blocked (decision 0020)
    sba_due: bool = False
    # designations (decision 0026): the monarch, who has the initiative, day or night; the
    # spells the active player cast this turn and last turn, and the change of day or night
    # the untap step owes (CR 502.2)
    monarch: str | None = None
    initiative: str | None = None
    day_night: str | None = None
    spells_this_turn: int = 0
    spells_counted: bool = False  # the turn began outside a gap: its casts are all written
    spells_last_turn: int | None = None
    day_night_due: str | None = None
    # mana pools as the `mana` lines of this step state them (decision 0071, rules/mana.py):
    # (player, bounds); players with a mana ability whose mana no line states; and the
    # mana ability whose cost was the last line, until its `mana` line
    mana_pools: tuple[tuple[str, tuple[int, ...]], ...] = ()
    mana_unstated: frozenset[str] = EMPTY_SET
    mana_pending: tuple[str, int] | None = None
    # the object whose `mana` line came last, while the lines after it are about it: what a
    # mana ability deals as it resolves (a Talisman, a painland) is not combat damage
    mana_made_by: int | None = None
    # spells cast with split second (decision 0072), while any may be on the stack
    split_second: frozenset[int] = EMPTY_SET
    # the last of a run of `trigger` lines: whether it triggered on another ability
    # triggering, and its controller's place in APNAP order (603.3b, decision 0074)
    triggers_put: tuple[bool, int] | None = None
    # a triggered ability's target or cost since a player last had priority: what it set
    # off goes on the stack in a later round, so the order is no longer judged
    triggers_tainted: bool = False
    # permanents an effect kept from untapping in this step (decision 0075)
    kept_tapped: frozenset[int] = EMPTY_SET

    # -- lookups
    def player(self, name: str) -> PlayerState | None:
        for player in self.players:
            if player.name == name:
                return player
        return None

    def starting_life(self) -> int:
        """40 in a Commander game (CR 903.7); in Brawl 25 between two players and 30 among
        more (CR 903.12f); 20 otherwise (CR 103.4)."""
        if self.variant == "brawl":
            return 30 if len(self.players) > 2 else 25
        return 40 if self.variant == "commander" else 20

    def decides_who_chooses(self, roll: t.Roll) -> bool:
        """Whether a roll is the pregame's, deciding who chooses the starting player (CR
        103.1), rather than one an effect instructs during the game (decision 0110)."""
        return roll.cause is None and self.stage in (Stage.HEADER, Stage.PREGAME)

    def commander_variant(self) -> bool:
        """Commanders, their tax and the command zone: Commander and its Brawl option."""
        return self.variant in ("commander", "brawl")

    def free_mulligan(self) -> bool:
        """The first mulligan is free in a multiplayer game and in any Brawl game (CR
        103.5c)."""
        return len(self.players) > 2 or self.variant == "brawl"

    def commander_cast_count(self, commander: int, caster: str | None) -> int:
        """How often `caster` cast this commander from the command zone this game (903.8)."""
        for number, who, count in self.commander_casts:
            if number == commander and who == caster:
                return count
        return 0

    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def obj(self, number: int) -> GameObject | None:
        return self.objects.get(number)

    def in_zone(self, zone: str, owner: str | None = None) -> list[GameObject]:
        return [
            o
            for o in self.objects.values()
            if o.zone == zone and (owner is None or o.owner == owner)
        ]

    def hand_size(self, player: str) -> int:
        return sum(1 for o in self.objects.values() if o.zone == "hand" and o.owner == player)

    def hand_size_effect(self) -> bool:
        """Whether a lasting effect on the lines speaks of a hand size (Praetor's Counsel:
        "You have no maximum hand size for the rest of the game")."""
        return any("hand size" in effect.text.casefold() for effect in self.effects)

    def maximum_hand_size_unsure(self) -> bool:
        """Whether the lines alone leave a maximum hand size (CR 402.2) open: an effect
        about it, an emblem (whose text they never give), or a Commander game, where
        Reliquary Tower and Thought Vessel are common."""
        return (
            self.hand_size_effect()
            or self.commander_variant()
            or any(o.kind is ObjectKind.EMBLEM for o in self.objects.values())
        )

    def hidden_in_hand(self, owner: str | None) -> list[int]:
        return sorted(
            o.number
            for o in self.objects.values()
            if o.zone == "hand" and o.hidden and o.owner == owner
        )

    def watched_objects(self) -> list[GameObject]:
        return [self.objects[n] for n in sorted(self.watched) if n in self.objects]

    def phased_objects(self) -> list[GameObject]:
        """The permanents phased out, by number."""
        found = (self.objects.get(n) for n in sorted(self.phased))
        return [o for o in found if o is not None and o.phased_out]

    def dungeon_of(self, player: str) -> GameObject | None:
        """The dungeon a player owns in the command zone (CR 309.3): a card there that is not
        a commander (decision 0063 item 1)."""
        for obj in self.objects.values():
            if (
                obj.zone == "command"
                and obj.owner == player
                and obj.kind is ObjectKind.CARD
                and obj.number not in self.commanders
            ):
                return obj
        return None

    def attachments_of(self, host: int | str) -> list[GameObject]:
        """What is attached to a permanent or player, by number."""
        found = (self.objects[n] for n in self.attached if n in self.objects)
        return sorted((o for o in found if o.attached_to == host), key=lambda o: o.number)

    def top_of_stack(self) -> int | None:
        return self.stack[-1] if self.stack else None

    def number_used(self, number: int) -> bool:
        """Taken by an object of this game, or by one of an earlier game."""
        return number in self.objects or number <= self.game_floor

    def next_free_number(self) -> int:
        return self.highest_number + 1

    def turn_order(self) -> tuple[str, ...]:
        """Seating order starting with the starting player (CR 103.1, 101.4)."""
        names = self.player_names()
        if self.starting_player in names:
            i = names.index(self.starting_player)
            return names[i:] + names[:i]
        return names

    def alive(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if not p.lost)

    def next_player(self, after: str, steps: int = 1) -> str | None:
        """The player `steps` seats after `after`, skipping players who left the game.

        Counted round the players still in the game, so a turn number far ahead (T401's)
        costs no more than the next one."""
        names = self.player_names()
        alive = self.alive()
        if after not in names or not alive:
            return None
        if steps <= 0:
            return after if after in alive else self.next_player(after)
        i = names.index(after) + 1
        while names[i % len(names)] not in alive:  # the first one still in the game
            i += 1
        following = alive.index(names[i % len(names)])
        return alive[(following + steps - 1) % len(alive)]

    def expected_turn_players(self, number: int) -> tuple[str, ...]:
        """Whose turn `turn number` may be without a cause (decision 0010 item 1): the next
        player in turn order after the last turn that was not an extra one, and, with a
        number that skips (T401's), the player whose turn that number would be; after an
        extra turn also the player after it. Empty when nothing is known to go by."""
        turn = self.turn
        if turn.line is None:
            if self.starting_player is None:
                return ()
            base, first = self.starting_player, 0
        else:
            last = turn.normal_player or turn.player
            if last is None:
                return ()
            base, first = last, 1
        steps = max(number - turn.number, 1)
        found = [self.next_player(base, first), self.next_player(base, steps - 1 + first)]
        if turn.line is not None and turn.player is not None:
            found.append(self.next_player(turn.player))
        return tuple(dict.fromkeys(p for p in found if p is not None))

    # -- updates
    def with_object(self, obj: GameObject) -> GameState:
        self.objects[obj.number] = obj
        if obj.number > self.highest_number:
            self.highest_number = obj.number
        return self

    def with_player(self, player: PlayerState) -> GameState:
        self.players = tuple(player if p.name == player.name else p for p in self.players)
        return self

    def snapshot(self) -> GameState:
        """A copy that later changes to this state do not reach (objects are values)."""
        copy = object.__new__(GameState)
        for name in _STATE_FIELDS:
            setattr(copy, name, getattr(self, name))
        copy.objects = self.objects.copy()
        return copy

    def checkpoint(self, before: Checkpoint | None = None) -> Checkpoint:
        """This state as the walk keeps it: it shares with the checkpoint `before` it every
        object page that did not change in between (see `mtgr.rules.objects`), and the
        parts that seldom change while they equal that one's."""
        settled = _settled_parts(self)
        if before is not None and settled == before.settled:
            settled = before.settled
        return Checkpoint(_often_parts(self), settled, self.objects.frozen())


@dataclass(frozen=True, slots=True, eq=False)
class Checkpoint:
    """A state kept by the walk: its parts but the objects (immutable values, shared with
    the state) and its objects frozen. Equal to a state with the same parts and objects.

    The parts come in two tuples: those that change between most checkpoints (the turn,
    the moment, the stack), and the rest (the game's players' seats, variant, designations,
    ...), one tuple that checkpoints share while it stays equal: a tuple of every part in
    each checkpoint cost 520 bytes, 1.6 MB at 50,000 lines."""

    parts: tuple[object, ...]
    settled: tuple[object, ...]
    objects: FrozenObjects

    def snapshot(self) -> GameState:
        """The state as a working state, for a walk to go on from."""
        state = object.__new__(GameState)
        for name, value in zip(_OFTEN_FIELDS, self.parts, strict=True):
            setattr(state, name, value)
        for name, value in zip(_SETTLED_FIELDS, self.settled, strict=True):
            setattr(state, name, value)
        state.objects = self.objects.thawed()
        return state

    def renewed(self, state: GameState) -> Checkpoint | None:
        """None if `state` equals this checkpoint; else `state` as a checkpoint that shares
        with this one every part and object page it equals, and the state goes on sharing
        them. For a walk done again after an edit, at a line where the walk before kept this
        one: the states of the two walks often differ in a number or two and no object."""
        parts, settled = _often_parts(state), _settled_parts(state)
        objects = state.objects.frozen()
        same_parts = parts == self.parts
        parts = self.parts if same_parts else _sharing_sets(parts, self.parts, _OFTEN_SETS)
        same_settled = settled == self.settled
        if same_settled:
            settled = self.settled
        else:
            settled = _sharing_sets(settled, self.settled, _SETTLED_SETS)
        shared = objects.sharing(self.objects)
        if shared is self.objects and same_parts and same_settled:
            return None
        if shared is not objects:
            state.objects.rebase(shared)
        return Checkpoint(parts, settled, shared)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameState):
            return (
                self.parts == _often_parts(other)
                and self.settled == _settled_parts(other)
                and self.objects == other.objects
            )
        if isinstance(other, Checkpoint):
            return (
                self.parts == other.parts
                and self.settled == other.settled
                and self.objects == other.objects
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def evolve(value: _T, **changes: object) -> _T:
    """`dataclasses.replace` for our frozen values, without its per-call overhead; the
    working GameState is changed in place instead (see GameState).

    The walk changes the state and an object or two on every line: its hottest path.
    """
    if isinstance(value, GameState):
        for name, change in changes.items():
            setattr(value, name, change)
        return value
    copy = _COPIES.get(type(value))
    if copy is None:
        copy = _COPIES[type(value)] = _copier(type(value))
    return copy(value, changes)  # type: ignore[no-any-return]


def new_object(
    *,
    number: int,
    kind: ObjectKind,
    name: str | None,
    owner: str | None,
    controller: str | None,
    zone: str,
    introduced: LineId,
    introduced_zone: str,
    **more: Any,
) -> GameObject:
    """A new GameObject, the fields not given at their defaults. Built as a copy of a blank
    one: the class's own `__init__` sorts its fields from its details and sets them one
    `object.__setattr__` at a time, and every drawn card, token and ability is a new object."""
    return evolve(
        _BLANK_OBJECT,
        number=number,
        kind=kind,
        name=name,
        owner=owner,
        controller=controller,
        zone=zone,
        introduced=introduced,
        introduced_zone=introduced_zone,
        **more,
    )


_BLANK_OBJECT = GameObject(0, ObjectKind.CARD, None, None, None, "", 0, "")
_Copier = Callable[[object, dict[str, object]], object]
_COPIES: dict[type, _Copier] = {}


def _copier(cls: type) -> _Copier:
    """A function that copies a frozen value of `cls` with some fields changed, written out
    field by field: a GameObject has some 45 fields, and a loop over them (or the frozen
    class's own `__init__`, which goes through `object.__setattr__` for each) cost the walk
    more than checking the line. The copy is built as an instance of a plain class with the
    same slots, whose fields are set at the speed of any attribute, and then becomes an
    instance of `cls` (`__class__` assignment between classes with the same `__slots__`)."""
    assert cls.__bases__ == (object,), f"{cls.__name__}: only a value without a base class"
    names = [f.name for f in fields(cls)]
    builder = type(f"{cls.__name__}Builder", (), {"__slots__": cls.__slots__})
    scope: dict[str, object] = {
        "cls": cls,
        "builder": builder,
        "new_instance": object.__new__,
        "detail_fields": DETAIL_FIELDS,
        "own_fields": frozenset(names),
        "with_details": _with_details,
    }
    body = "".join(f"    new.{name} = value.{name}\n" for name in names)
    if cls is GameObject:  # a change to a detail makes new details; the others are shared
        changes = (
            "    if changes.keys() <= own_fields:\n"  # most changes, told apart in C
            "        for name, change in changes.items():\n"
            "            setattr(new, name, change)\n"
            "    else:\n"
            "        details = {}\n"
            "        for name, change in changes.items():\n"
            "            if name in detail_fields:\n"
            "                details[name] = change\n"
            "            else:\n"
            "                setattr(new, name, change)\n"
            "        new.details = with_details(new.details, details)\n"
        )
    else:
        changes = "    for name, change in changes.items():\n        setattr(new, name, change)\n"
    source = (
        "def copy(value, changes):\n"
        "    new = new_instance(builder)\n"
        f"{body}"
        f"{changes}"
        "    new.__class__ = cls\n"
        "    return new\n"
    )
    exec(source, scope)
    return scope["copy"]  # type: ignore[return-value]


_STATE_FIELDS = tuple(f.name for f in fields(GameState))
# the parts that changed between a tenth or more of the checkpoints of the generated or the
# assembled 50,000-line record (measured); the others changed less often
_OFTEN_FIELDS = (
    "players",
    "turn",
    "moment",
    "highest_number",
    "spells_this_turn",
    "stack",
    "casting",
    "mana_unstated",
    "resolving",
    "in_combat",
    "spells_last_turn",
    "watched",
    "keyframe_seen",
    "last_entered",
    "stage",
    "in_keyframe",
    "keyframe_players",
    "spells_counted",
    "effects",
    "mana_pending",
    "mana_made_by",
    "attached",
    "pending_damage",
)
_SETTLED_FIELDS = tuple(
    name for name in _STATE_FIELDS if name != "objects" and name not in _OFTEN_FIELDS
)
_often_parts = attrgetter(*_OFTEN_FIELDS)
_settled_parts = attrgetter(*_SETTLED_FIELDS)


def _set_places(names: tuple[str, ...]) -> tuple[int, ...]:
    """Where the parts named hold sets."""
    types = {f.name: str(f.type) for f in fields(GameState)}
    return tuple(at for at, name in enumerate(names) if types[name].startswith("frozenset"))


_OFTEN_SETS = _set_places(_OFTEN_FIELDS)
_SETTLED_SETS = _set_places(_SETTLED_FIELDS)


def _sharing_sets(
    parts: tuple[object, ...], kept: tuple[object, ...], places: tuple[int, ...]
) -> tuple[object, ...]:
    """`parts` with the sets equal to `kept`'s taken from it: a walk builds new ones on every
    turn, and a walk done again after an edit makes them anew but equal. Compared in C."""
    renewed = list(parts)
    for at in places:
        value = kept[at]
        if value is not renewed[at] and value == renewed[at]:
            renewed[at] = value
    return tuple(renewed)
