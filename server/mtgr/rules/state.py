"""The game as rebuilt up to a line: players, objects, zones, the stack, the turn.

States are values. Applying a line gives a new state and leaves the old one intact, so
the walk can keep checkpoints, and an incremental check can stop as soon as its state
equals the previous run's. Lines are referred to by their stable line id (`LineId`), never
by their number, so inserting a line above does not change any state below it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TypeVar

from mtgr.syntax.tree import Span

LineId = int
_T = TypeVar("_T")

ZONES = ("library", "hand", "graveyard", "battlefield", "stack", "exile", "command")
OWNED_ZONES = frozenset({"library", "hand", "graveyard"})
PUBLIC_ZONES = frozenset({"graveyard", "battlefield", "stack", "exile", "command"})
GONE = "gone"  # a token off the battlefield, a copy off the stack, a resolved ability


class ObjectKind(Enum):
    CARD = "card"
    TOKEN = "token"
    COPY = "copy"
    ABILITY = "ability"


class Stage(Enum):
    """Where the game is: before the first turn, playing, in a gap, or over."""

    HEADER = "header"
    PREGAME = "pregame"
    PLAYING = "playing"
    GAP = "gap"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class MarkedDamage:
    """Damage marked on a permanent this turn (CR 120.3e), as the lines record it; the next
    turn line forgets it (CR 514.2)."""

    amount: int
    moment: LineId  # GameState.moment when it was last dealt


@dataclass(frozen=True, slots=True)
class GameObject:
    number: int
    kind: ObjectKind
    name: str | None  # None while hidden
    owner: str | None
    controller: str | None
    zone: str
    introduced: LineId
    introduced_zone: str
    introduced_hidden: bool = False
    introduced_after_gap: bool = False
    source: int | None = None  # an ability's source, a copy's original
    tapped: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    attacking: bool = False
    last_moved: LineId | None = None
    entered_moment: LineId | None = None  # GameState.moment as it entered its current zone
    gone_by: str | None = None  # how a card went back to the untracked pool ("shuffled into ...")
    # the turn line of the turn in which it entered the battlefield, when the lines show it
    # (CR 302.6); None: not known (a keyframe, a gap) or not on the battlefield
    controlled_since: LineId | None = None
    damage: MarkedDamage | None = None

    @property
    def hidden(self) -> bool:
        return self.name is None

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    def label(self) -> str:
        return f"#{self.number} ({self.name})" if self.name else f"#{self.number}"


@dataclass(frozen=True, slots=True)
class Library:
    """Tracked cards at known positions; the rest is the untracked pool (CR 400.5)."""

    size: int | None = None  # None: unknown (no deck size given, or after a gap)
    top: tuple[int | None, ...] = ()  # top[0] is the top card; None: an untracked card
    bottom: tuple[int | None, ...] = ()  # bottom[0] is the bottom card

    def tracked(self) -> set[int]:
        return {n for n in (*self.top, *self.bottom) if n is not None}


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
    lands_played: int = 0
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
    repeated: bool = False  # the current phase or step came again (510.4, 514.3a, 500.8)


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


def step_places(name: str, is_phase: bool) -> tuple[int, ...]:
    """Where a phase or step stands in STEP_ORDER; the main phase stands there twice."""
    return _STEP_PLACES.get((name, is_phase), ())


@dataclass(slots=True)
class GameState:
    """The game between two lines. The walk changes one working state in place, line after
    line, and keeps `snapshot()` copies as checkpoints; a snapshot is never changed."""

    stage: Stage = Stage.HEADER
    game: int = 1
    players: tuple[PlayerState, ...] = ()
    perspective: str | None = None  # None: not declared; "" : all
    starting_player: str | None = None
    start_line: LineId | None = None
    objects: dict[int, GameObject] = field(default_factory=dict)
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
    keyframe_seen: frozenset[int] = frozenset()
    keyframe_players: frozenset[tuple[str, str]] = frozenset()
    gap_line: LineId | None = None
    searching: tuple[str, str, LineId] | None = None  # (searcher, library owner, line)
    opening_actions_by: tuple[str, ...] = ()  # players who took opening hand actions
    last_entered: int | None = None  # the object whose move onto the battlefield was the last line
    ended_line: LineId | None = None
    declarations_done: bool = False
    # which step an event is in: the last turn, phase or step line (-1 before the first; a
    # line id, not a count, so that an edit above leaves the states below equal)
    moment: LineId = -1
    incomplete_since_turn: bool = False  # an `incomplete` since the last turn line, or pregame
    incomplete_since_step: bool = False  # an `incomplete` since the last turn, phase or step line
    rolls: tuple[tuple[str, int], ...] = ()  # pregame rolls in order (103.1), re-rolls included
    chooser: str | None = None  # the player who chose the starting player (`start ... by "Q"`)
    next_chooser: str | None = None  # who chooses in this game, from the previous one (103.1)
    after_end: LineId | None = None  # the first event line after the game ended
    headers: frozenset[str] = frozenset()  # header keywords seen: mtgr, title, rules, perspective
    declared: tuple[str, ...] = ()  # players declared by `player` lines
    resolving: int | None = None  # the object that resolved last, while its resolution goes on
    hidden_this_step: frozenset[int] = frozenset()  # `new hidden` since the last turn, phase, step

    # -- lookups
    def player(self, name: str) -> PlayerState | None:
        for player in self.players:
            if player.name == name:
                return player
        return None

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

    def hidden_in_hand(self, owner: str | None) -> list[int]:
        return sorted(
            o.number
            for o in self.objects.values()
            if o.zone == "hand" and o.hidden and o.owner == owner
        )

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
        """The player `steps` seats after `after`, skipping players who left the game."""
        names = self.player_names()
        alive = set(self.alive())
        if after not in names or not alive:
            return None
        i = names.index(after)
        for _ in range(steps):
            i = (i + 1) % len(names)
            while names[i] not in alive:
                i = (i + 1) % len(names)
        return names[i]

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
        copy.objects = dict(self.objects)
        return copy


_FIELDS: dict[type, tuple[str, ...]] = {}


def evolve(value: _T, **changes: object) -> _T:
    """`dataclasses.replace` for our frozen values, without its per-call overhead; the
    working GameState is changed in place instead (see GameState).

    The walk changes the state and an object or two on every line: its hottest path.
    """
    if isinstance(value, GameState):
        for name, change in changes.items():
            setattr(value, name, change)
        return value
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in names:
        setter(new, name, changes[name] if name in changes else getattr(value, name))
    return new


_STATE_FIELDS = tuple(f.name for f in fields(GameState))
