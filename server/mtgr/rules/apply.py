"""How each statement changes the game. Never raises, never refuses.

A line that contradicts the state still changes it the way the line says (an unknown
object is created where the line puts it, a move from the wrong zone still lands), so one
mistake gives one diagnostic and not a cascade on every later line about that object.
Whether a line was legal is for the rules in `rules/checks/`, which see the state before.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch

from mtgr.rules.state import (
    GONE,
    STEP_ORDER,
    Effect,
    GameObject,
    GameState,
    Library,
    LineId,
    MarkedDamage,
    ObjectKind,
    PendingDamage,
    PlayerState,
    Stage,
    Turn,
    step_places,
)
from mtgr.rules.state import (
    evolve as replace,
)
from mtgr.syntax import tree as t


def apply(state: GameState, statement: t.Statement, line: LineId) -> GameState:
    first_after_end = state.after_end is None and is_event_after_end(state, statement)
    state = _before_any(state, statement)
    kind = type(statement)
    handler = _HANDLERS.get(kind)
    if handler is None:  # singledispatch's own lookup costs more than the walk can spare
        handler = _HANDLERS[kind] = _apply.dispatch(kind)
    state = handler(statement, state, line)
    state = _after_any(state, statement)
    return replace(state, after_end=line) if first_after_end else state


def is_event_after_end(state: GameState, statement: t.Statement) -> bool:
    """A line recording something that happens, in a game that is over (CR 104.1).

    Not events: `game N`, headers, markers and keyframe entries. A `win` of the player left
    is one: that player won without a line of their own (decision 0003 item 11)."""
    if state.stage is not Stage.OVER:
        return False
    quiet = (t.GameStart, t.Header, t.PlayerDeclaration, t.Marker)
    return not isinstance(statement, (*quiet, t.SnapshotObject, t.SnapshotPlayer))


# ---- bookkeeping around every statement ---------------------------------------------

_RESULTS = (t.Damage, t.Life, t.PlayerCounters, t.ObjectCounters)


def _before_any(state: GameState, statement: t.Statement) -> GameState:
    for ref in statement.players:
        if state.player(ref.name) is None:
            state = replace(state, players=(*state.players, PlayerState(ref.name)))
    if state.pending_damage and not isinstance(statement, _RESULTS):
        state = replace(state, pending_damage=())
    if state.resolving is not None and _ends_resolution(state, statement):
        state = replace(state, resolving=None)
    if state.hidden_this_step and isinstance(statement, _NEW_MOMENT):
        state = replace(state, hidden_this_step=frozenset())
    return state


_NEW_MOMENT = (t.Turn, t.PhaseOrStep, t.Marker, t.GameStart)


def _ends_resolution(state: GameState, statement: t.Statement) -> bool:
    """A resolution goes on (its choices, payments, damage and effects, CR 608.2c) until
    another object leaves the stack, a player acts, or the game moves on. A trigger written
    mid-resolution, or a spell the resolving object casts, does not end it."""
    if isinstance(statement, (t.Leave, t.Play, *_NEW_MOMENT)):
        return True
    if isinstance(statement, t.AbilityOf):
        return statement.verb.value == "activate"
    if isinstance(statement, t.Cast):
        agent = statement.cause.agent if statement.cause else None
        return not (isinstance(agent, t.ObjectRef) and agent.number == state.resolving)
    return False


def _after_any(state: GameState, statement: t.Statement) -> GameState:
    entered = state.last_entered
    if entered is not None:
        keeps = isinstance(statement, t.ObjectCounters) and statement.subject.number == entered
        if not keeps and not _entered_by(statement, state):
            state = replace(state, last_entered=None)
    if state.searching and isinstance(statement, (t.Turn, t.PhaseOrStep, t.Leave)):
        state = replace(state, searching=None)
    return state


def _entered_by(statement: t.Statement, state: GameState) -> bool:
    if not isinstance(statement, t.ObjectStatement):
        return False
    obj = state.obj(statement.subject.number)
    return (
        obj is not None
        and obj.zone == "battlefield"
        and state.last_entered == obj.number
        and isinstance(statement, (t.Move, t.Play, t.Leave, t.New))
    )


# ---- objects ----------------------------------------------------------------------


def _object(
    state: GameState, number: int, line: LineId, zone: str, owner: str | None
) -> GameObject:
    """The object a line is about; created where the line says if no line introduced it."""
    obj = state.obj(number)
    if obj is not None:
        return obj
    return GameObject(
        number=number,
        kind=ObjectKind.CARD,
        name=None,
        owner=owner,
        controller=owner if zone in ("battlefield", "stack") else None,
        zone=zone,
        introduced=line,
        introduced_zone=zone,
    )


def _named(obj: GameObject, name: t.Text | None) -> GameObject:
    return replace(obj, name=name.value) if name is not None and obj.name is None else obj


def _moved(
    state: GameState,
    obj: GameObject,
    zone: str,
    line: LineId,
    what: str,
    *,
    controller: str | None = None,
    tapped: bool = False,
    position: t.Position | None = None,
) -> GameState:
    """Moves an object to a zone: a new object as far as the rules go (CR 400.7)."""
    state = _untrack(state, obj)
    if obj.number in state.stack:
        state = replace(state, stack=tuple(n for n in state.stack if n != obj.number))
    ceases = (obj.kind is ObjectKind.TOKEN and zone != "battlefield") or (
        obj.kind in (ObjectKind.COPY, ObjectKind.ABILITY) and zone != "stack"
    )
    new_zone = GONE if ceases else zone
    stays = obj.zone == zone == "battlefield"
    moved = replace(
        obj,
        zone=new_zone,
        controller=(controller or obj.controller or obj.owner)
        if new_zone in ("battlefield", "stack")
        else None,
        tapped=tapped if not stays else obj.tapped,
        counters=obj.counters if stays else (),
        attacking=False,
        last_moved=line,
        entered_moment=obj.entered_moment if stays else state.moment,
        damage=obj.damage if stays else None,
        controlled_since=obj.controlled_since
        if stays
        else state.turn.line
        if new_zone == "battlefield" and state.stage is Stage.PLAYING
        else None,
    )
    state = state.with_object(moved)
    if new_zone == "stack":
        state = replace(state, stack=(*state.stack, obj.number))
    if new_zone == "library":
        state = _track(state, moved, position)
    if new_zone == "battlefield" and obj.zone != "battlefield":
        state = replace(state, last_entered=obj.number)
    return state


def _untrack(state: GameState, obj: GameObject) -> GameState:
    """Takes an object out of its library's tracked positions; the library shrinks."""
    if obj.zone != "library" or obj.owner is None:
        return state
    player = state.player(obj.owner)
    if player is None:
        return state
    library = player.library
    top, bottom = library.top, library.bottom
    if obj.number in top:
        i = top.index(obj.number)
        top = top[:i] + top[i + 1 :]
    elif obj.number in bottom:
        i = bottom.index(obj.number)
        bottom = bottom[:i] + bottom[i + 1 :]
    size = library.size - 1 if library.size else library.size
    return state.with_player(replace(player, library=Library(size, _trim(top), _trim(bottom))))


def _track(state: GameState, obj: GameObject, position: t.Position | None) -> GameState:
    """Puts an object into its owner's library: at a position, or into the untracked pool."""
    player = state.player(obj.owner or "")
    if player is None:
        return state
    library = player.library
    size = library.size + 1 if library.size is not None else None
    top, bottom = library.top, library.bottom
    if position is None:
        # a card put into a library at no known place is one of the untracked pool
        gone_by = f"put into {player.name}'s library at no known position"
        state = state.with_object(replace(obj, zone=GONE, gone_by=gone_by))
    elif position.end.value == "top":
        i = position.index - 1
        top = (*top[:i], *([None] * (i - len(top))), obj.number, *top[i:])
    else:
        i = position.index - 1
        bottom = (*bottom[:i], *([None] * (i - len(bottom))), obj.number, *bottom[i:])
    return state.with_player(replace(player, library=Library(size, top, bottom)))


def _place_known(state: GameState, obj: GameObject, position: t.Position | None) -> GameState:
    """A `new` line in a library: a card of the pool becomes tracked, the size unchanged."""
    player = state.player(obj.owner or "")
    if player is None or position is None:
        return state
    library = player.library
    i = position.index - 1
    if position.end.value == "top":
        top = list(library.top) + [None] * max(0, i + 1 - len(library.top))
        top[i] = obj.number
        library = replace(library, top=tuple(top))
    else:
        bottom = list(library.bottom) + [None] * max(0, i + 1 - len(library.bottom))
        bottom[i] = obj.number
        library = replace(library, bottom=tuple(bottom))
    return state.with_player(replace(player, library=library))


def _trim(positions: tuple[int | None, ...]) -> tuple[int | None, ...]:
    end = len(positions)
    while end and positions[end - 1] is None:
        end -= 1
    return positions[:end]


def _forget_library(state: GameState, owner: str, line: LineId | None = None) -> GameState:
    """Every tracked card of a library goes back to the untracked pool (a shuffle)."""
    player = state.player(owner)
    if player is None:
        return state
    for number in player.library.tracked():
        obj = state.obj(number)
        if obj is not None:
            state = state.with_object(
                replace(
                    obj,
                    zone=GONE,
                    last_moved=line if line is not None else obj.last_moved,
                    gone_by=f"shuffled into {owner}'s library",
                )
            )
    library = replace(player.library, top=(), bottom=())
    return state.with_player(replace(state.player(owner) or player, library=library))


def _counters(
    current: tuple[tuple[str, int], ...], kind: str, delta: int
) -> tuple[tuple[str, int], ...]:
    values = dict(current)
    values[kind] = max(0, values.get(kind, 0) + delta)
    return tuple(sorted((k, v) for k, v in values.items() if v))


def _controller_of(state: GameState, number: int | None) -> str | None:
    obj = state.obj(number) if number is not None else None
    return (obj.controller or obj.owner) if obj else None


# ---- one function a statement type --------------------------------------------------


@singledispatch
def _apply(statement: t.Statement, state: GameState, line: LineId) -> GameState:
    return state


_HANDLERS: dict[type, Callable[[t.Statement, GameState, LineId], GameState]] = {}


@_apply.register
def _(statement: t.Header, state: GameState, line: LineId) -> GameState:
    repeated = statement.verb.value in state.headers  # N101: the first one stands
    state = replace(state, headers=state.headers | {statement.verb.value})
    if statement.verb.value == "perspective" and not repeated:
        value = statement.value
        return replace(state, perspective=value.name if isinstance(value, t.PlayerRef) else "")
    return state


@_apply.register
def _(statement: t.PlayerDeclaration, state: GameState, line: LineId) -> GameState:
    deck = statement.deck.value if statement.deck else None
    if statement.player.name not in state.declared:
        state = replace(state, declared=(*state.declared, statement.player.name))
    existing = state.player(statement.player.name)
    player = PlayerState(statement.player.name, deck=deck, library=Library(size=deck))
    if existing is not None:
        return state.with_player(player)
    return replace(state, players=(*state.players, player))


@_apply.register
def _(statement: t.GameStart, state: GameState, line: LineId) -> GameState:
    # only declared players carry over: a misspelt name stays in the game it was written
    # in (so the incremental walk converges at the next game at the latest)
    players = tuple(
        PlayerState(p.name, deck=p.deck, library=Library(size=p.deck))
        for p in state.players
        if p.name in state.declared or not state.declared
    )
    return replace(
        GameState(),
        stage=Stage.PREGAME,
        game=statement.number.value,
        players=players,
        perspective=state.perspective,
        headers=state.headers,
        declared=state.declared,
        highest_number=state.highest_number,
        game_floor=state.highest_number,
        next_chooser=_next_chooser(state),
    )


def _next_chooser(state: GameState) -> str | None:
    """Who chooses the next game's starting player: the loser, or after a draw the same
    player as before (CR 103.1); None when the record does not tell."""
    losers = [p.name for p in state.players if p.lost]
    if len(losers) == len(state.players):
        return state.chooser  # a draw
    return losers[0] if len(losers) == 1 else None


def _to_pregame(state: GameState) -> GameState:
    return replace(state, stage=Stage.PREGAME) if state.stage is Stage.HEADER else state


@_apply.register
def _(statement: t.Roll, state: GameState, line: LineId) -> GameState:
    state = _to_pregame(state)
    player = state.player(statement.subject.name)
    assert player is not None
    state = replace(state, rolls=(*state.rolls, (player.name, statement.result.value)))
    return state.with_player(replace(player, roll=statement.result.value))


@_apply.register
def _(statement: t.Start, state: GameState, line: LineId) -> GameState:
    state = _to_pregame(state)
    agent = statement.cause.agent if statement.cause else None
    chooser = agent.name if isinstance(agent, t.PlayerRef) else None
    return replace(state, starting_player=statement.player.name, start_line=line, chooser=chooser)


@_apply.register
def _(statement: t.Draw, state: GameState, line: LineId) -> GameState:
    state = _to_pregame(state)
    name = statement.subject.name
    player = state.player(name)
    assert player is not None
    top = player.library.top
    number = statement.drawn.number
    obj = state.obj(number)
    if obj is None:
        # a card from the untracked pool becomes an object as it is drawn (0019 item 2)
        library = player.library
        size = library.size - 1 if library.size else library.size
        new_top = top[1:] if top and top[0] is None else top
        state = state.with_player(replace(player, library=Library(size, new_top, library.bottom)))
        obj = GameObject(
            number=number,
            kind=ObjectKind.CARD,
            name=None,
            owner=name,
            controller=None,
            zone="hand",
            introduced=line,
            introduced_zone="hand",
            introduced_after_gap=state.stage is Stage.GAP,
            last_moved=line,
            entered_moment=state.moment,
        )
        state = state.with_object(_named(obj, statement.card))
    else:
        state = _moved(state, _named(obj, statement.card), "hand", line, f"drawn by {name}")
    player = state.player(name)
    assert player is not None
    if state.stage is Stage.PREGAME and not player.kept:
        state = state.with_player(replace(player, opening_drawn=player.opening_drawn + 1))
    return _note_opening_action(state, statement)


@_apply.register
def _(statement: t.PlayerAction, state: GameState, line: LineId) -> GameState:
    verb = statement.verb.value
    player = state.player(statement.subject.name)
    assert player is not None
    if verb in ("mulligan", "keep") and player.kept:
        return state  # a player who kept declares no more (CR 103.5): the hand stays (P502)
    if verb == "mulligan":
        state = _to_pregame(state)
        hand = state.in_zone("hand", player.name)
        for obj in hand:
            state = state.with_object(
                replace(
                    obj,
                    zone=GONE,
                    last_moved=line,
                    gone_by=f"shuffled back into {player.name}'s library by a mulligan",
                )
            )
        library = player.library
        size = library.size + len(hand) if library.size is not None else None
        player = replace(
            player,
            mulligans=player.mulligans + 1,
            opening_drawn=0,
            bottomed=0,
            library=Library(size, (), ()),
        )
        return state.with_player(player)
    if verb == "keep":
        return _to_pregame(state).with_player(replace(player, kept=True, kept_line=line))
    if verb in ("concede", "lose"):
        state = state.with_player(replace(player, lost=True))
    elif verb == "win":
        for other in state.players:
            if other.name != player.name:
                state = state.with_player(replace(other, lost=True))
    if len(state.alive()) <= 1:
        state = replace(state, stage=Stage.OVER, ended_line=line)
    return state


@_apply.register
def _(statement: t.New, state: GameState, line: LineId) -> GameState:
    place = statement.place
    zone = place.zone.value
    what = statement.what.value
    owner = place.player.name if place.player else None
    if what == "copy" and statement.original is not None:
        owner = owner or _controller_of(state, statement.original.number)
    if owner is None and isinstance(statement.cause, t.Cause):
        agent = statement.cause.agent
        owner = (
            agent.name
            if isinstance(agent, t.PlayerRef)
            else _controller_of(state, agent.number if isinstance(agent, t.ObjectRef) else None)
        )
    kind = {"token": ObjectKind.TOKEN, "copy": ObjectKind.COPY}.get(what, ObjectKind.CARD)
    name = statement.card.value if statement.card else None
    if what == "copy" and statement.original is not None:
        original = state.obj(statement.original.number)
        name = original.name if original else None
    obj = GameObject(
        number=statement.subject.number,
        kind=kind,
        name=name,
        owner=owner,
        controller=owner if zone in ("battlefield", "stack") else None,
        zone=zone,
        introduced=line,
        introduced_zone=zone,
        introduced_hidden=what == "hidden",
        introduced_after_gap=state.stage is Stage.GAP,
        source=statement.original.number if statement.original else None,
        last_moved=line,
        entered_moment=state.moment,
    )
    state = state.with_object(obj)
    if what == "hidden" and state.stage is not Stage.GAP:
        state = replace(state, hidden_this_step=state.hidden_this_step | {obj.number})
    if zone == "stack":
        state = replace(state, stack=(*state.stack, obj.number))
    elif zone == "library":
        state = _place_known(state, obj, place.position)
    elif zone == "battlefield":
        state = replace(state, last_entered=obj.number)
    return state


@_apply.register
def _(statement: t.Move, state: GameState, line: LineId) -> GameState:
    source = statement.source.zone.value
    obj = _object(state, statement.subject.number, line, source, _player(statement.source))
    obj = _named(obj, statement.name)
    destination = statement.destination
    zone = destination.zone.value
    controller = destination.player.name if destination.player and zone == "battlefield" else None
    what = f"{source} -> {zone}" + (f" as {statement.kind.value}" if statement.kind else "")
    state = _moved(
        state,
        obj,
        zone,
        line,
        what,
        controller=controller,
        tapped=statement.tapped is not None,
        position=destination.position,
    )
    if zone == "battlefield" and source != "battlefield" and state.last_entered != obj.number:
        # the line says it entered, even if it was already there (O203): its entering
        # counters may follow (P505)
        state = replace(state, last_entered=obj.number)
    if state.stage is Stage.PREGAME and zone == "library" and source == "hand" and obj.owner:
        # London mulligan bottoming (by the player, not by a card), since the last mulligan
        player = state.player(obj.owner)
        if player is not None and _cause_object(statement) is None:
            state = state.with_player(replace(player, bottomed=player.bottomed + 1))
    return _note_opening_action(state, statement)


def _player(place: t.Place | None) -> str | None:
    return place.player.name if place and place.player else None


def _note_opening_action(state: GameState, statement: t.Statement) -> GameState:
    """Remembers who took opening hand actions, for their order (decision 0018 item 1):
    a player is added each time they act after another player (or first)."""
    if state.stage is not Stage.PREGAME or statement.cause is None:
        return state
    agent = statement.cause.agent
    if not isinstance(agent, t.ObjectRef):
        return state
    actor = state.obj(agent.number)
    if actor is None or actor.owner is None:
        return state
    player = state.player(actor.owner)
    if player is None or not player.kept or state.opening_actions_by[-1:] == (actor.owner,):
        return state
    return replace(state, opening_actions_by=(*state.opening_actions_by, actor.owner))


@_apply.register
def _(statement: t.Identify, state: GameState, line: LineId) -> GameState:
    obj = _object(state, statement.subject.number, line, "hand", None)
    named = replace(obj, name=statement.card.value)
    return state.with_object(named)


@_apply.register
def _(statement: t.Reveal, state: GameState, line: LineId) -> GameState:
    obj = _named(_object(state, statement.subject.number, line, "hand", None), statement.name)
    state = state.with_object(replace(obj))
    return _note_opening_action(state, statement)


@_apply.register
def _(statement: t.Cast, state: GameState, line: LineId) -> GameState:
    source = statement.source.zone.value if statement.source else "hand"
    obj = _named(_object(state, statement.subject.number, line, source, None), statement.name)
    caster = statement.caster.name if statement.caster else None
    modes = " ".join(m.value for m in statement.modes)
    what = f"cast from {source}" + (f" ({modes})" if modes else "")
    return _moved(state, obj, "stack", line, what, controller=caster or obj.owner)


@_apply.register
def _(statement: t.Play, state: GameState, line: LineId) -> GameState:
    source = statement.source.zone.value if statement.source else "hand"
    obj = _named(_object(state, statement.subject.number, line, source, None), statement.name)
    state = _moved(
        state,
        obj,
        "battlefield",
        line,
        f"played from {source}",
        tapped=statement.tapped is not None,
    )
    player = state.player(obj.owner or "")
    if player is not None:
        state = state.with_player(replace(player, lands_played=player.lands_played + 1))
    return state


@_apply.register
def _(statement: t.AbilityOf, state: GameState, line: LineId) -> GameState:
    source = statement.source.number
    controller = _controller_of(state, source)
    source_obj = state.obj(source)
    label = source_obj.name if source_obj and source_obj.name else f"#{source}"
    obj = GameObject(
        number=statement.subject.number,
        kind=ObjectKind.ABILITY,
        name=f"{statement.verb.value}d ability of {label}".replace("triggerd", "triggered"),
        owner=controller,
        controller=controller,
        zone="stack",
        introduced=line,
        introduced_zone="stack",
        source=source,
        last_moved=line,
        entered_moment=state.moment,
    )
    state = state.with_object(obj)
    return replace(state, stack=(*state.stack, obj.number))


@_apply.register
def _(statement: t.Pay, state: GameState, line: LineId) -> GameState:
    payer = None
    if statement.cause and isinstance(statement.cause.agent, t.PlayerRef):
        payer = statement.cause.agent.name
    payer = payer or _controller_of(state, statement.subject.number)
    player = state.player(payer or "")
    for cost in statement.costs:
        if isinstance(cost, t.LifeCost) and player is not None:
            player = replace(player, life=player.life - cost.amount.value)
    return state.with_player(player) if player is not None else state


@_apply.register
def _(statement: t.Leave, state: GameState, line: LineId) -> GameState:
    obj = _named(_object(state, statement.subject.number, line, "stack", None), statement.name)
    zone = statement.destination.zone.value if statement.destination else "graveyard"
    verb = statement.verb.value
    what = {"resolve": "resolved", "fizzle": "fizzled", "countered": "countered"}[verb]
    position = statement.destination.position if statement.destination else None
    what = f"{what} -> {zone}"
    state = _moved(state, obj, zone, line, what, controller=obj.controller, position=position)
    return replace(state, resolving=obj.number) if verb == "resolve" else state


@_apply.register
def _(statement: t.TapChange, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    return state.with_object(replace(obj, tapped=statement.verb.value == "tap"))


@_apply.register
def _(statement: t.Attack, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    tapped = obj.tapped or statement.untapped is None
    return state.with_object(replace(obj, attacking=True, tapped=tapped))


@_apply.register
def _(statement: t.Damage, state: GameState, line: LineId) -> GameState:
    recipient = statement.recipient
    source = statement.subject.number
    amount = statement.amount.value
    if isinstance(recipient, t.PlayerRef):
        pending = PendingDamage(line, source, amount, recipient.name, statement.span)
    else:
        target = state.obj(recipient.number)
        if target is not None and target.zone == "battlefield":
            state = state.with_object(_marked(target, amount, state))
        if target is None or not (target.counter("loyalty") or target.counter("defense")):
            return state
        pending = PendingDamage(line, source, amount, recipient.number, statement.span)
    return replace(state, pending_damage=(*state.pending_damage, pending))


def _marked(obj: GameObject, amount: int, state: GameState) -> GameObject:
    """Damage marked on a permanent adds up within a turn (CR 120.3e, 514.2)."""
    earlier = obj.damage.amount if obj.damage is not None else 0
    return replace(obj, damage=MarkedDamage(earlier + amount, state.moment))


def _settle(state: GameState, recipient: int | str, source: int | None, amount: int) -> GameState:
    """A life or loyalty line settles the damage it results from (0019 item 5)."""
    pending = state.pending_damage
    for match_source in (True, False):
        for i, damage in enumerate(pending):
            if damage.recipient != recipient:
                continue
            if match_source and damage.source != source:
                continue
            if not match_source and damage.amount != amount:
                continue
            return replace(state, pending_damage=pending[:i] + pending[i + 1 :])
    return state


def _cause_object(statement: t.Statement) -> int | None:
    if statement.cause and isinstance(statement.cause.agent, t.ObjectRef):
        return statement.cause.agent.number
    return None


@_apply.register
def _(statement: t.ObjectCounters, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    kind = statement.counter.value
    delta = statement.delta.value
    state = state.with_object(replace(obj, counters=_counters(obj.counters, kind, delta)))
    if delta < 0 and kind in ("loyalty", "defense"):
        state = _settle(state, obj.number, _cause_object(statement), -delta)
    return _note_opening_action(state, statement)


@_apply.register
def _(statement: t.Life, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    assert player is not None
    state = state.with_player(replace(player, life=player.life + statement.delta.value))
    if statement.delta.value < 0:
        state = _settle(state, player.name, _cause_object(statement), -statement.delta.value)
    return state


@_apply.register
def _(statement: t.PlayerCounters, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    assert player is not None
    counters = _counters(player.counters, statement.counter.value, statement.delta.value)
    state = state.with_player(replace(player, counters=counters))
    if statement.delta.value > 0 and statement.counter.value == "poison":
        state = _settle(state, player.name, _cause_object(statement), statement.delta.value)
    return state


@_apply.register
def _(statement: t.LibraryAction, state: GameState, line: LineId) -> GameState:
    actor = statement.subject.name
    owner = statement.owner.name if statement.owner else actor
    if statement.verb.value == "search":
        return replace(state, searching=(actor, owner, line))
    return replace(_forget_library(state, owner, line), searching=None)


@_apply.register
def _(statement: t.Effect, state: GameState, line: LineId) -> GameState:
    effect = Effect(
        line,
        statement.subject.number,
        statement.text.value,
        statement.on.number if statement.on else None,
        statement.until.value if statement.until else None,
    )
    return replace(state, effects=(*state.effects, effect))


@_apply.register
def _(statement: t.Control, state: GameState, line: LineId) -> GameState:
    obj = _object(state, statement.subject.number, line, "battlefield", None)
    controller = statement.controller.name
    # Not tracked for summoning sickness (controlled_since): the effects that change control
    # for a turn nearly all give haste, and the line does not say which card's text it was.
    return state.with_object(replace(obj, controller=controller))


@_apply.register
def _(statement: t.Turn, state: GameState, line: LineId) -> GameState:
    stage = Stage.GAP if state.stage is Stage.GAP else Stage.PLAYING
    players = tuple(replace(p, lands_played=0) for p in state.players)
    # damage marked wears off in the cleanup step (514.2): forgotten here, so that states converge
    objects = {
        n: replace(o, attacking=False, damage=None) if o.attacking or o.damage else o
        for n, o in state.objects.items()
    }
    effects = tuple(e for e in state.effects if e.until not in ("end-of-turn", "end-of-combat"))
    effects = tuple(
        e
        for e in effects
        if not (e.until == "next-turn" and _controller_of(state, e.source) == statement.player.name)
    )
    player = statement.player.name
    if statement.cause is not None:
        normal = state.turn.normal_player  # an extra turn: the turn order goes on after it
    elif state.incomplete_since_turn or state.stage is Stage.GAP:
        normal = player  # after a gap, whoever's turn it is
    else:
        # a turn given to the wrong player (T402) does not move the turn order with it
        expected = state.expected_turn_players(statement.number.value)
        normal = player if player in expected or not expected else expected[0]
    return replace(
        state,
        stage=stage,
        players=players,
        objects=objects,
        effects=effects,
        moment=line,
        incomplete_since_turn=False,
        incomplete_since_step=False,
        turn=Turn(
            statement.number.value,
            statement.player.name,
            line,
            -1,
            None,
            None,
            normal_player=normal or player,
        ),
    )


def step_index(name: str, is_phase: bool, current: int, extra: bool) -> int:
    """Where a phase or step stands in CR 500.1 order, seen from the current position."""
    candidates = step_places(name, is_phase)
    after = [i for i in candidates if i > current]
    if after and not extra:
        return after[0]
    if extra:
        return candidates[0] if not after else after[0]
    return candidates[-1]


@_apply.register
def _(statement: t.PhaseOrStep, state: GameState, line: LineId) -> GameState:
    is_phase = statement.verb.value == "phase"
    name = statement.name.value
    current = state.turn.position
    index = step_index(name, is_phase, current, extra=statement.cause is not None)
    phase, step = STEP_ORDER[index]
    turn = replace(state.turn, position=index, phase=phase, step=step, repeated=index <= current)
    state = replace(state, turn=turn, moment=line, incomplete_since_step=False)
    if step == "end-of-combat" or (is_phase and name in ("main", "ending") and current >= 5):
        state = replace(
            state,
            objects={
                n: replace(o, attacking=False) if o.attacking else o
                for n, o in state.objects.items()
            },
            effects=tuple(e for e in state.effects if e.until != "end-of-combat"),
        )
    if step == "cleanup":
        state = replace(state, effects=tuple(e for e in state.effects if e.until != "end-of-turn"))
    return state


@_apply.register
def _(statement: t.Marker, state: GameState, line: LineId) -> GameState:
    verb = statement.verb.value
    if verb == "incomplete":
        return replace(
            state,
            stage=Stage.GAP,
            gap_line=line,
            pending_damage=(),
            searching=None,
            incomplete_since_turn=True,
            incomplete_since_step=True,
        )
    if verb == "keyframe":
        if state.in_keyframe is not None:
            return state  # a keyframe inside a keyframe (F902): the open one goes on
        return replace(
            state, in_keyframe=line, keyframe_seen=frozenset(), keyframe_players=frozenset()
        )
    if state.in_keyframe is None:
        return state
    if state.stage is Stage.GAP:
        state = _settle_gap(state, line)
    return replace(state, in_keyframe=None)


def _settle_gap(state: GameState, line: LineId) -> GameState:
    """After a gap, the keyframe is the truth: objects it does not list have left play."""
    objects = dict(state.objects)
    for number, obj in state.objects.items():
        if obj.zone != GONE and number not in state.keyframe_seen:
            gone_by = "left out of the keyframe after a gap"
            objects[number] = replace(obj, zone=GONE, last_moved=line, gone_by=gone_by)
    stack = tuple(n for n in state.stack if n in state.keyframe_seen)
    stage = Stage.PLAYING if state.turn.number else Stage.PREGAME
    players = []
    for player in state.players:  # untracked: library positions not listed, sizes not given
        seen = state.keyframe_seen
        top = _trim(tuple(n if n in seen else None for n in player.library.top))
        bottom = _trim(tuple(n if n in seen else None for n in player.library.bottom))
        listed = (player.name, "library") in state.keyframe_players
        size = player.library.size if listed else None
        players.append(replace(player, library=Library(size, top, bottom)))
    return replace(
        state,
        objects=objects,
        stack=stack,
        stage=stage,
        gap_line=None,
        players=tuple(players),
    )


@_apply.register
def _(statement: t.SnapshotObject, state: GameState, line: LineId) -> GameState:
    number = statement.subject.number
    state = replace(state, keyframe_seen=state.keyframe_seen | {number})
    if state.stage is not Stage.GAP:
        return state
    place = statement.place
    zone = place.zone.value
    obj = _object(state, number, line, zone, _player(place))
    controller = place.player.name if place.player and zone == "battlefield" else obj.controller
    counters = tuple(sorted((kind.value, count.value) for count, kind in statement.counters))
    updated = replace(
        obj,
        zone=zone,
        controller=(controller or obj.owner) if zone in ("battlefield", "stack") else None,
        tapped=statement.tapped is not None,
        counters=counters,
    )
    if obj.zone != zone:
        updated = replace(updated, entered_moment=state.moment)
    state = state.with_object(updated)
    if zone == "stack" and number not in state.stack:
        state = replace(state, stack=(*state.stack, number))
    if zone == "library":
        state = _place_known(state, updated, place.position)
    return state


@_apply.register
def _(statement: t.SnapshotPlayer, state: GameState, line: LineId) -> GameState:
    field = statement.verb.value if statement.verb else "counters"
    name = statement.subject.name
    seen = {(name, field)}
    if statement.counter is not None:  # ("Alice", "counters poison"): which kinds are listed
        seen.add((name, f"counters {statement.counter.value}"))
    state = replace(state, keyframe_players=state.keyframe_players | seen)
    if state.stage is not Stage.GAP:
        return state
    player = state.player(name)
    assert player is not None
    value = statement.value.value
    if field == "life":
        player = replace(player, life=value)
    elif field == "library":
        player = replace(player, library=replace(player.library, size=value))
    elif statement.counter is not None:
        counters = dict(player.counters)
        counters[statement.counter.value] = value
        player = replace(player, counters=tuple(sorted((k, v) for k, v in counters.items() if v)))
    return state.with_player(player)
