"""How each statement changes the game. Never raises, never refuses.

A line that contradicts the state still changes it the way the line says (an unknown
object is created where the line puts it, a move from the wrong zone still lands), so one
mistake gives one diagnostic and not a cascade on every later line about that object.
Whether a line was legal is for the rules in `rules/checks/`, which see the state before.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch

from mtgr.rules.mana import MANA_LINES, mana_step
from mtgr.rules.state import (
    CASTING_STAGES,
    DAY_NIGHT_ENTRY,
    EMPTY_SET,
    GONE,
    OWNED_ZONES,
    PRIORITY_LINES,
    STEP_ORDER,
    Casting,
    ControlEffect,
    Effect,
    GameObject,
    GameState,
    Library,
    LineId,
    ObjectKind,
    PendingDamage,
    PlayerState,
    Stage,
    Turn,
    after_priority,
    casting_stage,
    ends_untap_step,
    keyframe_entry,
    loyalty_cost_of,
    new_object,
    source_controller,
    step_places,
    trigger_place,
)
from mtgr.rules.state import (
    evolve as replace,
)
from mtgr.syntax import tree as t


def apply(state: GameState, statement: t.Statement, line: LineId) -> GameState:
    kind = type(statement)
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = _Plan(kind)
    first_after_end = (
        state.after_end is None
        and state.stage is Stage.OVER
        and is_event_after_end(state, statement)
    )
    priority = state.sba_due and after_priority(state, statement)  # as the checks see it
    named_players = statement.players
    if named_players:
        state = _players_named(state, named_players)
    if (
        (state.pending_damage and not plan.result)
        or state.resolving is not None
        or state.hidden_this_step
        or state.commander_losses
        or state.left_with_sba
    ):
        state = _before_any(state, statement, plan.result)
    if plan.mana or state.mana_pending is not None or state.mana_made_by is not None:
        state = mana_step(state, statement)
    if plan.names_subject:
        state = _subject_named(state, statement)
    state = plan.handler(statement, state, line)
    if state.paid_to_enter is not None and kind is not t.Pay:
        state = replace(state, paid_to_enter=None)  # only for the line straight after
    if state.judge_added is not None and kind is not t.JudgeEvent:
        state = replace(state, judge_added=None)
    if plan.puts_trigger or state.triggers_put is not None or state.triggers_tainted:
        state = _triggers_put(state, statement)
    if plan.ends_split_second and state.split_second:
        state = _split_second_left(state)
    if (
        state.commander_losses
        or state.last_entered is not None
        or state.searching
        or state.turn.step == "cleanup"
    ):
        state = _after_any(state, statement)
    if plan.opens_casting or state.casting is not None:
        state = _casting_step(state, statement, line, plan)
    if priority:
        state = _state_based_actions_checked(state)
    if (
        plan.priority
        and (state.phased or state.day_night_due is not None)
        and ends_untap_step(statement)
    ):
        state = _untap_step_over(state)
        if state.day_night_due is not None:
            state = replace(state, day_night_due=None)  # reported once (T423)
    return replace(state, after_end=line) if first_after_end else state


class _Plan:
    """What `apply` needs to know of a statement type, worked out once a type rather than
    by `isinstance` on every line (the walk applies every line of every record)."""

    __slots__ = (
        "ends_casting",
        "ends_split_second",
        "handler",
        "mana",
        "names_subject",
        "opens_casting",
        "priority",
        "puts_trigger",
        "result",
    )

    def __init__(self, kind: type) -> None:
        # singledispatch's own lookup costs more than the walk can spare
        self.handler: Callable[[t.Statement, GameState, LineId], GameState] = _apply.dispatch(kind)
        self.mana = issubclass(kind, MANA_LINES)
        self.puts_trigger = issubclass(kind, (t.AbilityOf, t.Target, t.Pay))
        self.ends_split_second = issubclass(kind, (t.Leave, t.Move, t.Turn, t.PhaseOrStep))
        self.opens_casting = issubclass(kind, _OPENS_CASTING)
        self.ends_casting = issubclass(kind, _ENDS_CASTING)
        self.priority = issubclass(kind, PRIORITY_LINES)
        self.result = issubclass(kind, _RESULTS)
        self.names_subject = issubclass(kind, _NAMING_ONLY)


# lines whose subject keeps its zone, and whose handlers read the object without naming it:
# a name written on them identifies a hidden card as well (`#1 "Breeding Pool" pay life 2`)
_NAMING_ONLY = (t.Target, t.Pay, t.Damage, t.Effect)


def _subject_named(state: GameState, statement: t.Statement) -> GameState:
    if not isinstance(statement, t.ObjectStatement) or statement.name is None:
        return state
    obj = state.obj(statement.subject.number)
    if obj is None or obj.name is not None:
        return state
    return state.with_object(_named(obj, statement.name))


def _triggers_put(state: GameState, statement: t.Statement) -> GameState:
    """Follows a run of `trigger` lines, put on the stack together (decision 0074): a mode
    chosen for one of them does not end the run, any other line does. A target or cost of
    a triggered ability can set off others, which go on the stack in a later round
    (603.3b): from there until a player has priority, runs are not followed."""
    if isinstance(statement, t.AbilityOf) and statement.verb.value == "trigger":
        place = None if state.triggers_tainted else trigger_place(state, statement)
        return replace(state, triggers_put=place)
    if isinstance(statement, t.Choose):
        return state
    tainted = state.triggers_tainted
    if isinstance(statement, PRIORITY_LINES):
        tainted = False
    elif isinstance(statement, (t.Target, t.Pay)) and _is_trigger(state, statement.subject):
        tainted = True
    elif statement.cause is not None and isinstance(statement.cause.agent, t.ObjectRef):
        agent = statement.cause.agent  # an action that pays a triggered ability's cost
        tainted = tainted or (agent.number != state.resolving and _is_trigger(state, agent))
    if state.triggers_put is None and tainted == state.triggers_tainted:
        return state
    return replace(state, triggers_put=None, triggers_tainted=tainted)


def _is_trigger(state: GameState, ref: t.ObjectRef) -> bool:
    return _is_trigger_number(state, ref.number)


def _split_second_left(state: GameState) -> GameState:
    """Forgets the split second of spells no longer on the stack (decision 0072)."""
    staying = frozenset(n for n in state.split_second if (o := state.obj(n)) and o.zone == "stack")
    return replace(state, split_second=staying) if staying != state.split_second else state


def is_event_after_end(state: GameState, statement: t.Statement) -> bool:
    """A line recording something that happens, in a game that is over (CR 104.1).

    Not events: `game N`, headers, markers, keyframe entries, the match result,
    sideboarding (which P509 places after the next `game N` line), a judge's lines,
    which are tournament events (decision 0033), and moves `by sba` straight after the
    end, performed with the loss that ended the game, and `identify` and `new card` without
    a cause, what the perspective player learns (the face-down cards every player sees as
    the game ends, CR 708.9; the top card of a library shown after it). A
    `win` of the player left is one: that player won without a line of their own (decision
    0003 item 11)."""
    if state.stage is not Stage.OVER:
        return False
    quiet = (
        t.GameStart,
        t.Header,
        t.PlayerDeclaration,
        t.Marker,
        t.MatchResult,
        t.Sideboard,
        t.JudgeEvent,
        t.Identify,
    )
    if isinstance(statement, (t.Designation, t.DayNight, t.Venture)):
        return not keyframe_entry(state, statement)  # entries of a keyframe (0060, 0063)
    if state.after_end is None and isinstance(statement, t.Move) and by_sba(statement):
        return False  # performed in the same event as the loss that ended it (CR 704.3)
    if isinstance(statement, t.New) and statement.what.value in ("card", "hidden"):
        return statement.cause is not None  # a card shown after the end: no event (0004.2)
    return not isinstance(statement, (*quiet, t.SnapshotObject, t.SnapshotPlayer))


def by_sba(statement: t.Statement) -> bool:
    """Whether the line's cause is `by sba`."""
    return statement.cause is not None and isinstance(statement.cause.agent, t.Sba)


# ---- bookkeeping around every statement ---------------------------------------------


def _state_based_actions_checked(state: GameState) -> GameState:
    """State-based actions were checked before this line: the conditions B101 to B104 judge
    are reported once, at the first such line, and not again."""
    if not state.sba_due:
        return state
    for player in state.players:
        if player.loses is not None:
            state = state.with_player(replace(player, loses=None))
    for obj in state.watched_objects():
        if obj.loyalty_gone is not None or obj.deathtouch is not None or obj.kept_by_legend:
            state.objects[obj.number] = replace(
                obj, loyalty_gone=None, deathtouch=None, kept_by_legend=None
            )
    return replace(state, sba_due=False)


def _watch(state: GameState, number: int) -> GameState:
    """Adds an object to the few that turn, step and priority lines look at."""
    return state if number in state.watched else replace(state, watched=state.watched | {number})


def _untap_step_over(state: GameState) -> GameState:
    """The untap step is over: phase-ins it missed are reported once (T422), not again."""
    if not state.phased:
        return state
    for obj in state.phased_objects():
        if obj.phase_in_due:
            state.objects[obj.number] = replace(obj, phase_in_due=False)
    return state


def _may_lose(state: GameState, player: PlayerState, line: LineId) -> GameState:
    """A player at 0 or less life or with ten or more poison counters loses the next time
    state-based actions are checked (CR 704.5a, 704.5c); life regained first saves them."""
    reason = None
    if player.life <= 0:
        reason = "life"
    elif player.counter("poison") >= 10:
        reason = "poison"
    loses = player.loses
    if reason is not None and (loses is None or loses[0] != "draw"):
        loses = (reason, loses[1] if loses and loses[0] == reason else line)
    elif reason is None and loses is not None and loses[0] != "draw":
        loses = None
    if loses == player.loses:
        return state
    state = state.with_player(replace(player, loses=loses))
    return replace(state, sba_due=True) if loses is not None else state


_RESULTS = (t.Damage, t.Life, t.PlayerCounters, t.ObjectCounters)


def _players_named(state: GameState, named: tuple[t.PlayerRef, ...]) -> GameState:
    """A player the line names and no line declared takes part from here on (N102 reports
    the name once)."""
    for ref in named:
        name = ref.name
        for player in state.players:
            if player.name == name:
                break
        else:
            state = replace(state, players=(*state.players, PlayerState(name)))
    return state


def _before_any(state: GameState, statement: t.Statement, result: bool) -> GameState:
    """What a line ends before it happens; `result`: the line is one of _RESULTS (see
    _Plan). `apply` calls this only where one of the parts it looks at is set."""
    if state.pending_damage and not result:
        state = replace(state, pending_damage=())
    if state.resolving is not None and _ends_resolution(state, statement):
        state = replace(state, resolving=None)
    if state.hidden_this_step and isinstance(statement, _NEW_MOMENT):
        state = replace(state, hidden_this_step=EMPTY_SET)
    if state.commander_losses and not at_sba_time(statement):
        state = replace(state, commander_losses=())  # M902 reported the game going on
    if state.left_with_sba and not by_sba(statement):
        state = replace(state, left_with_sba=EMPTY_SET)  # that state-based event is over
    return state


def at_sba_time(statement: t.Statement) -> bool:
    """A line that may stand between damage and the state-based actions it brings about:
    the damage's results, other state-based actions, a player leaving, the game's end."""
    if isinstance(statement, (*_RESULTS, t.PlayerAction, t.GameDrawn)):
        return True
    return isinstance(statement, t.Move) and by_sba(statement)


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
    """What a line ends once it happened; `apply` calls this only where one of the parts it
    looks at is set."""
    if state.commander_losses:  # a player who lost or left owes no loss any more
        alive = state.alive()
        losses = tuple(loss for loss in state.commander_losses if loss[0] in alive)
        if losses != state.commander_losses:
            state = replace(state, commander_losses=losses)
    entered = state.last_entered
    if entered is not None:
        keeps = isinstance(statement, t.ObjectCounters) and statement.subject.number == entered
        if not keeps and not _entered_by(statement, state):
            state = replace(state, last_entered=None)
    if state.searching and isinstance(statement, (t.Turn, t.PhaseOrStep, t.Leave)):
        state = replace(state, searching=None)
    turn = state.turn
    if turn.step == "cleanup" and not turn.cleanup_priority and _gives_cleanup_priority(statement):
        state = replace(state, turn=replace(turn, cleanup_priority=True))
    return state


_OPENS_CASTING = (t.Cast, t.AbilityOf)
# Lines after which the spell or ability being cast is cast: another object goes on the
# stack or leaves it, a land is played, the game moves on.
_ENDS_CASTING = (t.Cast, t.AbilityOf, t.Leave, t.Play, t.Turn, t.PhaseOrStep, t.Marker)


def _casting_step(state: GameState, statement: t.Statement, line: LineId, plan: _Plan) -> GameState:
    """Follows the parts of casting a spell or activating an ability (decision 0045)."""
    if plan.opens_casting:
        starts: tuple[LineId | None, ...] = (line, *(None,) * (len(CASTING_STAGES) - 1))
        return replace(state, casting=Casting(statement.subject.number, 0, starts))
    casting = state.casting
    assert casting is not None
    if plan.ends_casting:
        return replace(state, casting=None)
    stage = casting_stage(state, casting, statement)
    if stage is None:
        return state
    starts = casting.starts
    if starts[stage] is None:
        starts = (*starts[:stage], line, *starts[stage + 1 :])
    elif stage <= casting.stage:
        return state  # a part already begun, and no further than the casting got
    return replace(state, casting=Casting(casting.number, max(stage, casting.stage), starts))


def _gives_cleanup_priority(statement: t.Statement) -> bool:
    """A trigger or a state-based action in a cleanup step: players get priority (514.3a)."""
    if isinstance(statement, t.AbilityOf):
        return statement.verb.value == "trigger"
    return by_sba(statement)


def _entered_by(statement: t.Statement, state: GameState) -> bool:
    if not isinstance(statement, t.ObjectStatement):
        return False
    obj = state.obj(statement.subject.number)
    return (
        obj is not None
        and obj.zone == "battlefield"
        and state.last_entered == obj.number
        and isinstance(statement, (t.Move, t.Play, t.Leave, t.New, t.TurnFaceUp))
    )


# ---- objects ----------------------------------------------------------------------


def _object(
    state: GameState, number: int, line: LineId, zone: str, owner: str | None
) -> GameObject:
    """The object a line is about; created where the line says if no line introduced it."""
    obj = state.objects.get(number)
    if obj is not None:
        return obj
    return new_object(
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
    *,
    controller: str | None = None,
    tapped: bool = False,
    position: t.Position | None = None,
    face_down: bool = False,
    back_face: bool = False,
) -> GameState:
    """Moves an object to a zone: a new object as far as the rules go (CR 400.7)."""
    state = _untrack(state, obj)
    if obj.number in state.stack:
        state = replace(state, stack=tuple(n for n in state.stack if n != obj.number))
    kind = obj.kind
    if kind is ObjectKind.COPY and obj.zone == "stack" and zone == "battlefield":
        kind = ObjectKind.TOKEN  # a copy of a permanent spell becomes a token (CR 608.3f)
    ceases = (kind is ObjectKind.TOKEN and zone != "battlefield") or (
        kind in (ObjectKind.COPY, ObjectKind.ABILITY) and zone != "stack"
    )
    new_zone = GONE if ceases else zone
    stays = obj.zone == zone == "battlefield"
    moved = replace(
        _out_of_combat(obj) if not stays else obj,
        kind=kind,
        zone=new_zone,
        controller=(controller or obj.controller or obj.owner)
        if new_zone in ("battlefield", "stack")
        else None,
        tapped=tapped if not stays else obj.tapped,
        tapped_at=obj.tapped_at if stays else None,
        counters=obj.counters if stays else (),
        control_effects=obj.control_effects if stays else (),
        control_given=obj.control_given and stays,
        control_taken_from=obj.control_taken_from if stays else None,
        damage=obj.damage if stays else 0,
        deathtouch=obj.deathtouch if stays else None,
        loyalty_gone=obj.loyalty_gone if stays else None,
        weakened=obj.weakened and stays,
        kept_by_legend=obj.kept_by_legend if stays else None,
        ring_bearer=obj.ring_bearer if stays else False,
        # chosen anew when it is cast again (CR 400.7); kept as a spell leaves the stack, for
        # the rest of its resolution (CR 608.2b, K344)
        targets=obj.targets if stays or obj.zone == "stack" else (),
        left_controller=obj.left_controller
        if stays or _to_the_command_zone_at_once(state, obj, new_zone)
        else obj.controller
        if obj.zone == "battlefield"
        else None,
        half=None,
        adventure=False,
        creature_if_target_illegal=False,
        exiled_from_stack=False,
        flipped=obj.flipped if stays else False,  # CR 710.4
        # a Room cast as one door enters with it unlocked (CR 709.5d)
        unlocked=obj.unlocked
        if stays
        else (obj.half,)
        if obj.half is not None and obj.zone == "stack" and new_zone == "battlefield"
        else (),
        melded_with=obj.melded_with if stays else None,
        level=obj.level if stays else None,
        through_gap=obj.through_gap and stays,
        face_down=face_down if new_zone in ("battlefield", "exile", "stack") else False,
        # the front face, except on the stack and the battlefield (CR 712.8a)
        back_face=back_face if new_zone in ("battlefield", "stack") else False,
        phased_out=False,
        phased_under=None,
        phased_indirectly=False,
        phase_in_due=False,
        unresolved=None,
        last_moved=line,
        entered_moment=obj.entered_moment if stays else state.moment,
        damaged_moment=obj.damaged_moment if stays else None,
        damaged_by=obj.damaged_by if stays else None,
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
    if obj.zone == "battlefield" and not stays and state.control_changed:
        state = _end_control(state, lambda e: e.until == "leaves" and e.source == obj.number, line)
    if not stays:
        state = _detach(state, obj.number)
        state = _end_effects_of(state, obj, left_battlefield=obj.zone == "battlefield")
        turn = state.turn
        # a new object may activate again (CR 400.7)
        if obj.number in turn.activated or obj.number in turn.loyalty_used:
            state = replace(
                state,
                turn=replace(
                    turn,
                    loyalty_used=turn.loyalty_used - {obj.number},
                    activated=turn.activated - {obj.number},
                ),
            )
        if obj.melded_with is not None:
            state = _unmeld(state, obj.melded_with, new_zone, line)
    return state


def _unmeld(state: GameState, number: int, zone: str, line: LineId) -> GameState:
    """A melded permanent left the battlefield: its other card goes to the same zone, as a
    card of its own (CR 712.21, 400.7); into a library, at no known position."""
    card = state.obj(number)
    if card is None or card.melded_into is None:
        return state
    card = replace(
        card,
        zone=zone,
        melded_into=None,
        gone_by=None,
        last_moved=line,
        entered_moment=state.moment,
    )
    state = state.with_object(card)
    return _track(state, card, None) if zone == "library" else state


def _meld(
    state: GameState, number: int, other: int, controller: str | None, line: LineId
) -> GameState:
    """Two cards become one permanent, #number, back face up (CR 701.42a, 712.4a); the other
    card is part of it until it leaves the battlefield."""
    first, second = state.obj(number), state.obj(other)
    if first is None or second is None or first is second:
        return state  # O201, O233
    if any(
        o.kind is not ObjectKind.CARD or o.melded_with or o.melded_into for o in (first, second)
    ):
        return state  # they stay where they are (CR 701.42c, O233)
    state = _untrack(state, second)
    if second.number in state.stack:
        state = replace(state, stack=tuple(n for n in state.stack if n != second.number))
    state = _detach(state, second.number)
    state = _end_effects_of(state, second, left_battlefield=second.zone == "battlefield")
    gone_by = f"melded into #{number}"
    melded = replace(
        _out_of_combat(second),
        zone=GONE,
        gone_by=gone_by,
        melded_into=number,
        last_moved=line,
        controller=None,
        tapped=False,
        tapped_at=None,
        counters=(),
        damage=0,
    )
    state = state.with_object(melded)
    if first.zone != "battlefield":
        state = _moved(state, first, "battlefield", line, controller=controller)
    entered = state.objects[number]
    return state.with_object(replace(entered, back_face=True, melded_with=other))


def _end_effects_of(state: GameState, obj: GameObject, *, left_battlefield: bool) -> GameState:
    """Effects on an object end when it leaves its zone (decision 0013 item 7, CR 400.7), and
    effects that last until their source leaves end when it leaves the battlefield
    (decision 0044 item 5)."""
    if not state.effects:
        return state
    number = obj.number

    def ends(effect: Effect) -> bool:
        if effect.on == number:
            return True
        return left_battlefield and effect.until == "leaves" and effect.source == number

    if not any(ends(e) for e in state.effects):
        return state
    return replace(state, effects=tuple(e for e in state.effects if not ends(e)))


def _attached(state: GameState, number: int, host: t.ObjectRef | t.PlayerRef | None) -> GameState:
    """Attaches an object to a permanent or player, or unattaches it (decision 0023)."""
    obj = state.obj(number)
    if obj is None:
        return state
    value = None if host is None else host.number if isinstance(host, t.ObjectRef) else host.name
    if (
        obj.attached_to == value
        and obj.detached_moment is None
        and (number in state.attached) == (value is not None)
    ):
        return state  # as it was: a keyframe's entry for a permanent attached to nothing
    if obj.attached_to != value:
        state = _left_its_host(state, obj)
    state = state.with_object(replace(obj, attached_to=value, detached_moment=None))
    if value is None:
        return replace(state, attached=state.attached - {number})
    return replace(state, attached=state.attached | {number})


def _detach(state: GameState, leaving: int) -> GameState:
    """An object changed zones: it is attached to nothing any more, and what was attached
    to it becomes unattached (CR 701.3d), an Aura then to be put into its owner's
    graveyard and an Equipment or Fortification to stay (CR 704.5m, 704.5n)."""
    if not state.attached:
        return state
    left = set()
    for number in state.attached:
        obj = state.obj(number)
        if obj is None:
            left.add(number)
        elif number == leaving:
            state = _left_its_host(state, obj)
            state = state.with_object(replace(obj, attached_to=None, detached_moment=None))
            left.add(number)
        elif obj.attached_to == leaving:
            state = state.with_object(replace(obj, attached_to=None, detached_moment=state.moment))
            left.add(number)
    return replace(state, attached=state.attached - left) if left else state


def _left_its_host(state: GameState, attachment: GameObject) -> GameState:
    """The permanent an attachment leaves remembers it: its toughness may fall to 0."""
    host = state.obj(attachment.attached_to) if isinstance(attachment.attached_to, int) else None
    if host is None or host.weakened:
        return state
    return state.with_object(replace(host, weakened=True))


def _out_of_combat(obj: GameObject) -> GameObject:
    """Removed from combat (CR 506.4): no longer attacking, blocked or blocking."""
    if not (obj.attacking or obj.blocking or obj.blocked):
        return obj
    return replace(
        obj,
        attacking=False,
        attack_target=None,
        entered_attacking=False,
        blocked=False,
        blocking=(),
    )


def _end_combat(state: GameState) -> GameState:
    """The combat phase ends: every creature leaves combat (CR 506.4, 511.3)."""
    if not state.in_combat:
        return state
    for number in state.in_combat:
        obj = state.obj(number)
        if obj is not None:
            state.objects[number] = _out_of_combat(obj)
    return replace(state, in_combat=EMPTY_SET)


def _fighting(state: GameState, *numbers: int) -> GameState:
    """Objects that are now in combat, for the end of combat to find (CR 506.4)."""
    return replace(state, in_combat=state.in_combat.union(numbers))


def _enter_in_combat(
    state: GameState, number: int, combat: t.CombatEntry | None, tapped: bool
) -> GameState:
    """A permanent put onto the battlefield attacking or blocking (decision 0020): it is
    attacking or blocking, but was never declared (CR 508.4)."""
    obj = state.obj(number)
    if combat is None or obj is None or obj.zone != "battlefield":
        return state
    target = combat.target
    if combat.keyword.value == "attacking":
        what = target.name if isinstance(target, t.PlayerRef) else target.number
        state = state.with_object(
            replace(obj, attacking=True, attack_target=what, entered_attacking=True, tapped=tapped)
        )
        return _fighting(state, obj.number)
    if not isinstance(target, t.ObjectRef):
        return state
    state = state.with_object(replace(obj, blocking=(*obj.blocking, target.number)))
    blocked = state.obj(target.number)
    if blocked is not None and blocked.attacking:
        state = state.with_object(replace(blocked, blocked=True))
    return _fighting(state, obj.number, target.number)


def _remove_damage(state: GameState) -> GameState:
    """Damage marked on permanents is removed in the cleanup step (CR 514.2)."""
    for obj in state.watched_objects():
        if obj.damage:
            state.objects[obj.number] = replace(obj, damage=0, damaged_moment=None)
    keep = frozenset(
        o.number
        for o in state.watched_objects()
        if o.damage or o.loyalty_gone is not None or o.kept_by_legend is not None
    )
    return replace(state, watched=keep) if keep != state.watched else state


def _end_control(
    state: GameState, ends: Callable[[ControlEffect], bool], line: LineId
) -> GameState:
    """Control-changing effects that end give control back to whoever had it before
    (decision 0021; CR 613.1b): a later effect still in force keeps control instead. When
    the player it would go back to has left the game, the permanent is exiled (CR 800.4c)."""
    if not state.control_changed:
        return state
    for number in sorted(state.control_changed):
        obj = state.obj(number)
        if obj is None or not obj.control_effects:
            continue
        if not any(ends(e) for e in obj.control_effects):
            continue
        effects = list(obj.control_effects)
        controller = obj.controller
        i = len(effects) - 1
        while i >= 0:
            effect = effects[i]
            if ends(effect):
                if i == len(effects) - 1:
                    controller = effect.previous
                else:
                    effects[i + 1] = replace(
                        effects[i + 1],
                        previous=effect.previous,
                        previous_given=effect.previous_given,
                    )
                del effects[i]
            i -= 1
        updated = replace(obj, control_effects=tuple(effects), controller=controller)
        if controller != obj.controller:
            updated = replace(_out_of_combat(updated), ring_bearer=False)  # CR 701.54a
        state = state.with_object(updated)
        if controller is not None and obj.zone == "battlefield" and controller not in state.alive():
            state = _moved(state, updated, "exile", line)
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
    return source_controller(state, obj) if obj else None


# ---- one function a statement type --------------------------------------------------


@singledispatch
def _apply(statement: t.Statement, state: GameState, line: LineId) -> GameState:
    return state


_PLANS: dict[type, _Plan] = {}


@_apply.register
def _(statement: t.Header, state: GameState, line: LineId) -> GameState:
    repeated = statement.verb.value in state.headers  # N101: the first one stands
    state = replace(state, headers=state.headers | {statement.verb.value})
    if statement.verb.value == "perspective" and not repeated:
        value = statement.value
        return replace(state, perspective=value.name if isinstance(value, t.PlayerRef) else "")
    if statement.verb.value == "variant" and not repeated and isinstance(statement.value, t.Word):
        state = replace(state, variant=statement.value.value)
        life = state.starting_life()  # players declared above it (N101) start with it too
        state = replace(state, players=tuple(replace(p, life=life) for p in state.players))
    return state


@_apply.register
def _(statement: t.PlayerDeclaration, state: GameState, line: LineId) -> GameState:
    deck = statement.deck.value if statement.deck else None
    if statement.player.name not in state.declared:
        state = replace(state, declared=(*state.declared, statement.player.name))
    existing = state.player(statement.player.name)
    player = PlayerState(
        statement.player.name, life=state.starting_life(), deck=deck, library=Library(size=deck)
    )
    if existing is not None:
        state = state.with_player(player)
    else:
        state = replace(state, players=(*state.players, player))
    if state.variant == "brawl":  # 25 life between two players, 30 among more (903.12f)
        life = state.starting_life()
        state = replace(state, players=tuple(replace(p, life=life) for p in state.players))
    return state


@_apply.register
def _(statement: t.GameStart, state: GameState, line: LineId) -> GameState:
    number = statement.number.value
    # only declared players carry over: a misspelt name stays in the game it was written
    # in (so the incremental walk converges at the next game at the latest)
    players = tuple(
        PlayerState(p.name, life=state.starting_life(), deck=p.deck, library=Library(size=p.deck))
        for p in state.players
        if p.name in state.declared or not state.declared
    )
    # who chooses is known only from the game just before (decision 0030): not when the
    # record starts with this game, nor after games it skips
    follows = state.stage is not Stage.HEADER and number == state.game + 1
    chooser = _next_chooser(state) if follows else None
    return replace(
        GameState(),
        stage=Stage.PREGAME,
        game=number,
        players=players,
        perspective=state.perspective,
        headers=state.headers,
        declared=state.declared,
        highest_number=state.highest_number,
        game_floor=state.highest_number,
        next_chooser=chooser,
        variant=state.variant,
    )


def _next_chooser(state: GameState) -> str | None:
    """Who chooses the next game's starting player: the loser, or after a draw the same
    player as before (CR 103.1); None when the record does not tell."""
    if state.result == "":
        return state.chooser  # a draw
    losers = [p.name for p in state.players if p.lost]
    if len(losers) == len(state.players):
        return state.chooser  # everyone lost: a draw (CR 104.4a)
    return losers[0] if len(losers) == 1 else None


def _to_pregame(state: GameState) -> GameState:
    return replace(state, stage=Stage.PREGAME) if state.stage is Stage.HEADER else state


@_apply.register
def _(statement: t.Roll, state: GameState, line: LineId) -> GameState:
    if not state.decides_who_chooses(statement):
        return state  # an effect's roll (decision 0110)
    state = _to_pregame(state)
    player = state.player(statement.subject.name)
    assert player is not None
    state = replace(state, rolls=(*state.rolls, (player.name, statement.result.value)))
    return state.with_player(replace(player, roll=statement.result.value))


@_apply.register
def _(statement: t.CoinFlip, state: GameState, line: LineId) -> GameState:
    if statement.cause is None and state.stage in (Stage.HEADER, Stage.PREGAME):
        # the players' agreed method (CR 103.1): the flip decides, not the rolls before it
        return replace(state, rolls=())
    return state


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
    if (
        state.turn.step == "draw"
        and name == state.turn.player
        and statement.cause is None
        and not statement.replacements
    ):
        state = replace(state, turn=replace(state.turn, turn_draw_done=True))
    player = state.player(name)
    assert player is not None
    empty = player.library.size == 0
    if empty and state.stage is Stage.PLAYING and player.loses is None:
        player = replace(player, loses=("draw", line))  # CR 704.5b
        state = replace(state.with_player(player), sba_due=True)
    top = player.library.top
    number = statement.drawn.number
    obj = state.obj(number)
    if obj is None and empty:
        return state  # an attempt to draw: no card is drawn (CR 121.4, decision 0087)
    if obj is None:
        # a card from the untracked pool becomes an object as it is drawn (0019 item 2)
        library = player.library
        size = library.size - 1 if library.size else library.size
        new_top = top[1:] if top and top[0] is None else top
        state = state.with_player(replace(player, library=Library(size, new_top, library.bottom)))
        obj = new_object(
            number=number,
            kind=ObjectKind.CARD,
            name=statement.card.value if statement.card is not None else None,
            owner=name,
            controller=None,
            zone="hand",
            introduced=line,
            introduced_zone="hand",
            introduced_after_gap=state.stage is Stage.GAP,
            last_moved=line,
            entered_moment=state.moment,
        )
        state = state.with_object(obj)
    else:
        state = _moved(state, _named(obj, statement.card), "hand", line)
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
        state = state.with_player(replace(player, lost=True, loses=None))
        if not player.lost and len(state.alive()) > 1:
            state = _leave_game(state, player.name, line)
            if by_sba(statement):  # the rest of that event may still move what they owned
                left = {
                    n for n, o in state.objects.items() if o.zone == GONE and o.last_moved == line
                }
                state = replace(state, left_with_sba=state.left_with_sba | left)
    elif verb == "win":
        for other in state.players:
            if other.name != player.name:
                state = state.with_player(replace(other, lost=True, loses=None))
    return _maybe_over(state, line)


def _maybe_over(state: GameState, line: LineId) -> GameState:
    """The game ends when at most one player is left in it (CR 104.2a)."""
    alive = state.alive()
    if len(alive) <= 1:
        result = alive[0] if alive else ""  # all players lost at once: a draw (CR 104.4a)
        state = replace(state, stage=Stage.OVER, ended_line=line, result=result)
    return state


@_apply.register
def _(statement: t.JudgeEvent, state: GameState, line: LineId) -> GameState:
    """A judge's line changes the game only by a game or match loss, time being called, or
    a backup (decision 0033)."""
    event = statement.event.value
    designation = statement.trigger_designation
    remedy = statement.remedy.value if statement.remedy is not None else None
    if event == "missed-trigger" and remedy == "added":
        source = statement.trigger_source
        added = designation.value if designation is not None else None
        return replace(state, judge_added=source.number if source is not None else added)
    if event == "penalty" and statement.penalty is not None and statement.player is not None:
        player = state.player(statement.player.name)
        if statement.penalty.value == "warning" or player is None or player.lost:
            return state
        state = state.with_player(replace(player, lost=True))
        if len(state.alive()) > 1:
            state = _leave_game(state, player.name, line)
        return _maybe_over(state, line)
    if event == "time" and statement.turns is not None:
        return replace(state, time_called=(state.turn.number, statement.turns.value, line))
    if event == "backup":
        return replace(_begin_gap(state, line), backed_up_since_turn=True)
    return state


def _leave_game(state: GameState, name: str, line: LineId) -> GameState:
    """A player leaves a game that goes on (CR 800.4a, decision 0084): what they own leaves
    with them, control effects gave them ends, their abilities and copies on the stack
    cease to exist, and what they still control is exiled."""
    objects = state.objects  # the working state's table, changed in place (see GameState)
    gone = []
    for number, obj in list(objects.items()):
        if obj.zone == GONE:
            continue
        ceases = obj.zone == "stack" and obj.controller == name and obj.kind is not ObjectKind.CARD
        if obj.owner == name or ceases:
            objects[number] = replace(
                obj,
                zone=GONE,
                controller=None,
                # a creature of theirs another player controlled, dying in the state-based
                # actions in which they lose: its dies trigger is that player's (603.3a)
                left_controller=obj.controller
                if obj.zone == "battlefield"
                else obj.left_controller,
                last_moved=line,
                gone_by=f"taken out of the game as {name} left it (CR 800.4a)",
            )
            gone.append(number)
    stack = tuple(n for n in state.stack if objects[n].zone == "stack")
    state = replace(state, stack=stack)
    for number in gone:  # an Aura of theirs leaves what it enchants, and theirs lose theirs
        state = _detach(state, number)
    state = _end_control(state, lambda effect: _gives_control_to(state, effect, name), line)
    for obj in list(state.objects.values()):
        effects = obj.control_effects
        if effects and effects[0].previous == name and effects[0].previous_given:
            # beneath a timed control change, a `control` line without a duration gave them
            # control (Control Magic under Act of Treason): control goes back from there to
            # the player who had it before the lines changed it (decision 0096)
            back = _given_back(state, obj, name)
            effects = (replace(effects[0], previous=back, previous_given=False), *effects[1:])
            state = state.with_object(replace(obj, control_effects=effects))
        if obj.controller != name or obj.zone not in ("battlefield", "stack"):
            continue
        if obj.zone == "battlefield" and (obj.control_given or obj.controlled_since is None):
            # a `control` line without a duration, or a permanent whose arrival the lines do
            # not show: control most likely came from an effect, and goes back to the player
            # who had it before the lines changed it (CR 110.2), or else the owner
            back = _given_back(state, obj, name)
            state = state.with_object(replace(_out_of_combat(obj), controller=back))
        else:
            state = _moved(state, obj, "exile", line)
    if name in (state.monarch, state.initiative):
        heir = _heir(state, name)
        if state.monarch == name:
            state = replace(state, monarch=heir)
        if state.initiative == name:
            state = replace(state, initiative=heir)
    return state


def _given_back(state: GameState, obj: GameObject, leaving: str) -> str | None:
    """Who gets control of a permanent back as the player an untimed effect gave it to
    leaves: the player who had it before the lines changed it, or else its owner."""
    back = obj.control_taken_from
    if back is None or back == leaving or back not in state.alive():
        back = obj.owner
    return back


def _gives_control_to(state: GameState, effect: ControlEffect, name: str) -> bool:
    """Whether a control-changing effect gave the player control: the player who had it
    after the effect, before any later one (decision 0021)."""
    for number in state.control_changed:
        obj = state.objects[number]
        effects = obj.control_effects
        if effect in effects:
            i = effects.index(effect)
            after = effects[i + 1].previous if i + 1 < len(effects) else obj.controller
            return after == name
    return False


def _heir(state: GameState, leaving: str) -> str | None:
    """Who becomes the monarch or takes the initiative as its holder leaves the game: the
    active player, or when they are the one leaving, the next player in turn order
    (CR 725.4, 726.4)."""
    active = state.turn.player
    if active is not None and active != leaving and active in state.alive():
        return active
    heir = state.next_player(active or leaving)
    return heir if heir != leaving else None


@_apply.register
def _(statement: t.GameDrawn, state: GameState, line: LineId) -> GameState:
    return replace(state, stage=Stage.OVER, ended_line=line, result="")


@_apply.register
def _(statement: t.Sideboard, state: GameState, line: LineId) -> GameState:
    """The deck changes for this game and the later ones; cards not recorded leave its
    size unknown (decision 0030)."""
    player = state.player(statement.subject.name)
    assert player is not None
    if statement.deck is not None:
        deck: int | None = statement.deck.value
    elif statement.way is None or player.deck is None:
        deck = None
    else:
        deck = player.deck + statement.cards
    # sideboarding comes before the opening draws (P509): the library is the whole deck
    return state.with_player(replace(player, deck=deck, library=Library(size=deck)))


_NEW_KINDS = {"token": ObjectKind.TOKEN, "copy": ObjectKind.COPY, "emblem": ObjectKind.EMBLEM}


@_apply.register
def _(statement: t.New, state: GameState, line: LineId) -> GameState:
    place = statement.place
    zone = place.zone.value
    what = statement.what.value
    owner = place.player.name if place.player else None
    # a copy is controlled by the player under whose control it was put on the stack: the
    # controller of what made it, unless the line names another (CR 707.10, decision 0014)
    if owner is None and isinstance(statement.cause, t.Cause):
        agent = statement.cause.agent
        owner = (
            agent.name
            if isinstance(agent, t.PlayerRef)
            else _controller_of(state, agent.number if isinstance(agent, t.ObjectRef) else None)
        )
    kind = _NEW_KINDS.get(what, ObjectKind.CARD)
    name = statement.card.value if statement.card else None
    targets: tuple[tuple[int | str, str | None, LineId | None], ...] = ()
    if what == "copy" and statement.original is not None:
        owner = owner or _controller_of(state, statement.original.number)
        original = state.obj(statement.original.number)
        name = original.name if original else None
        # on the stack it has its original's targets until a `target` line for it (0014.2)
        if original is not None and zone == "stack":
            targets = original.targets
    controller = owner
    if statement.owner is not None and zone == "battlefield":
        owner = statement.owner.name  # `battlefield "P" owner "Q"` (decision 0021)
    obj = new_object(
        number=statement.subject.number,
        kind=kind,
        name=name,
        owner=owner,
        controller=controller if zone in ("battlefield", "stack") else None,
        tapped=statement.tapped is not None and zone == "battlefield",
        face_down=statement.face_down is not None,
        back_face=statement.back is not None,
        zone=zone,
        introduced=line,
        introduced_zone=zone,
        introduced_hidden=what == "hidden",
        introduced_after_gap=state.stage is Stage.GAP,
        source=statement.original.number if statement.original else None,
        last_moved=line,
        entered_moment=state.moment,
        targets=targets,
    )
    state = state.with_object(obj)
    if what == "commander":
        state = _new_commander(state, obj)
    if what == "hidden" and state.stage is not Stage.GAP:
        state = replace(state, hidden_this_step=state.hidden_this_step | {obj.number})
    if zone == "stack":
        state = replace(state, stack=(*state.stack, obj.number))
    elif zone == "library":
        state = _place_known(state, obj, place.position)
    elif zone == "battlefield":
        state = replace(state, last_entered=obj.number)
        state = _enter_in_combat(state, obj.number, statement.combat, obj.tapped)
        if statement.attached is not None:
            state = _attached(state, obj.number, statement.attached)
    return state


def _new_commander(state: GameState, obj: GameObject) -> GameState:
    """A commander comes from its owner's deck (CR 903.6): the library is a card smaller."""
    state = replace(state, commanders=(*state.commanders, obj.number))
    if state.stage is Stage.GAP:  # a record that began late: earlier casts are not known
        unknown = state.commander_casts_unknown | {obj.number}
        state = replace(state, commander_casts_unknown=unknown)
    player = state.player(obj.owner or "")
    if player is None or player.library.size is None:
        return state
    library = replace(player.library, size=player.library.size - 1)
    return state.with_player(replace(player, library=library))


@_apply.register
def _(statement: t.Move, state: GameState, line: LineId) -> GameState:
    if statement.subject.number in state.left_with_sba and by_sba(statement):
        return state  # it died in the event its owner lost in, and left the game with them
    source = statement.source.zone.value
    obj = _object(state, statement.subject.number, line, source, _player(statement.source))
    obj = _named(obj, statement.name)
    destination = statement.destination
    zone = destination.zone.value
    controller = destination.player.name if destination.player and zone == "battlefield" else None
    if source == "battlefield" != zone and any(
        r.number == obj.number for r in statement.replacements
    ):
        state = _umbra_armor(state, obj)
    state = _moved(
        state,
        obj,
        zone,
        line,
        controller=controller,
        tapped=statement.tapped is not None,
        position=destination.position,
        face_down=statement.face_down is not None
        or (obj.face_down and source == zone == "battlefield"),
        # onto the battlefield "transformed" (CR 712.14a), or staying there as it was
        back_face=(statement.back is not None and zone == "battlefield")
        or (obj.back_face and source == zone == "battlefield"),
    )
    state = _enter_in_combat(state, obj.number, statement.combat, statement.tapped is not None)
    if statement.attached is not None and zone == "battlefield":
        state = _attached(state, obj.number, statement.attached)
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


def _umbra_armor(state: GameState, aura: GameObject) -> GameState:
    """An Aura that leaves the battlefield by its own replacement effect, attached to a
    permanent, took the place of that permanent's destruction: its damage is removed
    (decision 0085, CR 702.89a)."""
    host = state.obj(aura.attached_to) if isinstance(aura.attached_to, int) else None
    if host is None or host.zone != "battlefield":
        return state
    return _damage_changed(state.with_object(replace(host, damage=0, deathtouch=None)), host.number)


def _damage_changed(state: GameState, number: int) -> GameState:
    turn = state.turn
    return replace(state, turn=replace(turn, damage_changed=turn.damage_changed | {number}))


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


_FACE_DOWN_CAST_MODES = frozenset({"face-down", "morph", "megamorph", "disguise"})
# cast modes whose spell, cast from a graveyard, is exiled instead of going anywhere else as
# it leaves the stack
_EXILED_FROM_STACK = frozenset({"flashback", "jump-start", "harmonize", "aftermath"})
# a bestowed Aura spell, a mutating creature spell (CR 702.103e, 702.140b)
_CREATURE_IF_TARGET_ILLEGAL = frozenset({"bestow", "mutate"})


@_apply.register
def _(statement: t.Cast, state: GameState, line: LineId) -> GameState:
    source = statement.source.zone.value if statement.source else "hand"
    obj = _named(_object(state, statement.subject.number, line, source, None), statement.name)
    caster = statement.caster.name if statement.caster else None
    if obj.number in state.commanders and obj.zone == "command":
        state = _commander_cast(state, obj.number, caster or obj.owner or "", statement.tax)
    if (caster or obj.owner) == state.turn.player:  # for day and night (CR 502.2)
        state = replace(state, spells_this_turn=state.spells_this_turn + 1)
    # CR 708.4; casting with morph or disguise is casting face down (CR 702.37c, 702.168b)
    face_down = any(m.value in _FACE_DOWN_CAST_MODES for m in statement.modes)
    if statement.split_second is not None:
        state = replace(state, split_second=state.split_second | {obj.number})
    state = _moved(
        state,
        obj,
        "stack",
        line,
        controller=caster or obj.owner,
        face_down=face_down,
        back_face=statement.back is not None,  # CR 712.11a, 712.11b
    )
    modes = {m.value for m in statement.modes}
    adventure = "adventure" in modes  # CR 715.3
    creature_if_target_illegal = not modes.isdisjoint(_CREATURE_IF_TARGET_ILLEGAL)
    exiled_from_stack = obj.zone == "graveyard" and not modes.isdisjoint(_EXILED_FROM_STACK)
    if (
        statement.half is None
        and not adventure
        and not creature_if_target_illegal
        and not exiled_from_stack
    ):
        return state
    cast = state.objects[obj.number]
    half = statement.half.value if statement.half is not None else None
    return state.with_object(
        replace(
            cast,
            half=half,
            adventure=adventure,
            creature_if_target_illegal=creature_if_target_illegal,
            exiled_from_stack=exiled_from_stack,
        )
    )


def _commander_cast(
    state: GameState, commander: int, caster: str, tax: t.Number | None
) -> GameState:
    """Counts a cast from the command zone, for the next cast's tax (CR 903.8); the first
    after a gap counts the casts its tax shows."""
    count = state.commander_cast_count(commander, caster) + 1
    if commander in state.commander_casts_unknown:
        count = (tax.value if tax is not None else 0) // 2 + 1
        state = replace(state, commander_casts_unknown=state.commander_casts_unknown - {commander})
    casts = tuple(c for c in state.commander_casts if c[:2] != (commander, caster))
    return replace(state, commander_casts=(*casts, (commander, caster, count)))


@_apply.register
def _(statement: t.Play, state: GameState, line: LineId) -> GameState:
    source = statement.source.zone.value if statement.source else "hand"
    obj = _named(_object(state, statement.subject.number, line, source, None), statement.name)
    who = statement.player.name if statement.player else obj.owner
    state = _moved(
        state,
        obj,
        "battlefield",
        line,
        controller=who,
        tapped=statement.tapped is not None,
        back_face=statement.back is not None,  # CR 712.12
    )
    player = state.player(who or "")
    if player is not None and (
        statement.cause is None or played_during_resolution(state, statement)
    ):
        state = state.with_player(replace(player, lands_played=player.lands_played + 1))
    return state


def played_during_resolution(state: GameState, statement: t.Play) -> bool:
    """A land played as part of a resolution (Djinn of Wishes): not the special action, so
    neither a main phase nor an empty stack (decision 0090, CR 305.2a). The cause is the
    resolving object, or the permanent whose ability it is."""
    agent = statement.cause.agent if statement.cause is not None else None
    if state.resolving is None or not isinstance(agent, t.ObjectRef):
        return False
    if agent.number == state.resolving:
        return True
    resolving = state.obj(state.resolving)
    return resolving is not None and resolving.source == agent.number


@_apply.register
def _(statement: t.AbilityOf, state: GameState, line: LineId) -> GameState:
    if statement.source is None:
        return _designation_trigger(statement, state, line)
    source = statement.source.number
    controller = _activator(statement) or _controller_of(state, source)
    source_obj = state.obj(source)
    label = source_obj.name if source_obj and source_obj.name else f"#{source}"
    obj = new_object(
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
        permission=_permission(statement),
    )
    state = state.with_object(obj)
    turn = state.turn
    if statement.verb.value == "activate" and obj.permission is None:
        state = replace(state, turn=replace(turn, activated=turn.activated | {source}))
    return replace(state, stack=(*state.stack, obj.number))


def _activator(statement: t.AbilityOf) -> str | None:
    """The player named by `activate of #M by "P"`: an ability any player may activate is
    controlled by the player who activated it (decision 0111, CR 113.8)."""
    agent = statement.cause.agent if statement.cause is not None else None
    if statement.verb.value != "activate" or not isinstance(agent, t.PlayerRef):
        return None
    return agent.name


def _permission(statement: t.AbilityOf) -> int | None:
    """The object named by `activate of #M by #P`: its effect allows the activation
    (decision 0070)."""
    if statement.verb.value != "activate":
        return None
    agent = statement.cause.agent if statement.cause is not None else None
    return agent.number if isinstance(agent, t.ObjectRef) else None


def _designation_trigger(statement: t.AbilityOf, state: GameState, line: LineId) -> GameState:
    """An inherent triggered ability of the monarch or the initiative: no source, controlled
    by the player who has the designation (CR 725.2, 726.2; decision 0026 item 3)."""
    word = statement.designation.value if statement.designation else "monarch"
    if word == "speed":  # whose turn it is: it triggers during its controller's (702.179d)
        controller, the = state.turn.player, "speed"
    else:
        controller = state.monarch if word == "monarch" else state.initiative
        the = "the monarch" if word == "monarch" else "the initiative"
    obj = new_object(
        number=statement.subject.number,
        kind=ObjectKind.ABILITY,
        name=f"triggered ability of {the}",
        owner=controller,
        controller=controller,
        zone="stack",
        introduced=line,
        introduced_zone="stack",
        last_moved=line,
        entered_moment=state.moment,
    )
    state = state.with_object(obj)
    return replace(state, stack=(*state.stack, obj.number))


@_apply.register
def _(statement: t.Transform, state: GameState, line: LineId) -> GameState:
    """It turns over to its other face (CR 701.27a, 701.28a)."""
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    if obj.melded_with is not None:
        return state  # a melded permanent does not transform (CR 712.4c, O233)
    return state.with_object(replace(obj, back_face=not obj.back_face))


@_apply.register
def _(statement: t.Meld, state: GameState, line: LineId) -> GameState:
    controller = _controller_of(state, _cause_object(statement))
    if controller is None and isinstance(statement.cause, t.Cause):
        agent = statement.cause.agent
        controller = agent.name if isinstance(agent, t.PlayerRef) else None
    return _meld(state, statement.subject.number, statement.other.number, controller, line)


@_apply.register
def _(statement: t.Flip, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return state  # O232
    return state.with_object(replace(obj, flipped=True))


@_apply.register
def _(statement: t.Unlock, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return state  # O235
    door = statement.door.value
    others = tuple(d for d in obj.unlocked if d != door)
    unlocked = (*others, door) if statement.verb.value == "unlock" else others
    return state.with_object(replace(obj, unlocked=unlocked))


@_apply.register
def _(statement: t.ClassLevel, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return state  # O236
    return state.with_object(replace(obj, level=statement.value.value))


@_apply.register
def _(statement: t.Hidden, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "hand" or state.perspective in ("", obj.owner):
        return state  # V707
    return state.with_object(replace(obj, name=None))


@_apply.register
def _(statement: t.TurnFaceUp, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    # the counters it gets as it is turned face up (megamorph, CR 702.37b) may follow, as
    # entering counters do (P505)
    turned = replace(obj, face_down=False, turned_up_moment=state.moment)
    return replace(state.with_object(turned), last_entered=obj.number)


@_apply.register
def _(statement: t.Regenerate, state: GameState, line: LineId) -> GameState:
    """Instead of being destroyed: its damage is removed, it is tapped, it leaves combat
    (CR 701.19a)."""
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    regenerated = replace(
        _out_of_combat(obj), damage=0, deathtouch=None, tapped=True, tapped_at=None
    )
    return state.with_object(regenerated)


@_apply.register
def _(statement: t.Designation, state: GameState, line: LineId) -> GameState:
    name = statement.subject.name
    verb = statement.verb.value
    if keyframe_entry(state, statement):
        state = replace(state, keyframe_players=state.keyframe_players | {(name, verb)})
        if state.stage is not Stage.GAP:
            return state
    if verb == "monarch":
        return replace(state, monarch=name)
    if verb == "initiative":
        return replace(state, initiative=name)
    player = state.player(name)
    assert player is not None
    return state.with_player(replace(player, citys_blessing=True))


@_apply.register
def _(statement: t.DayNight, state: GameState, line: LineId) -> GameState:
    value = statement.verb.value
    if keyframe_entry(state, statement):
        state = replace(state, keyframe_players=state.keyframe_players | {DAY_NIGHT_ENTRY})
        if state.stage is not Stage.GAP:
            return state
        return replace(state, day_night=value)
    if statement.cause is None:
        return replace(state, day_night=value, day_night_due=None)
    return replace(state, day_night=value)


@_apply.register
def _(statement: t.LegendChoice, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.kept.number)
    if obj is None or obj.zone != "battlefield":
        return state  # O227
    state = _watch(state.with_object(replace(obj, kept_by_legend=line)), obj.number)
    return replace(state, sba_due=True)  # the choice lasts until priority (decision 0061.4)


@_apply.register
def _(statement: t.RingTempts, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    if player is None:
        return state
    if keyframe_entry(state, statement):  # P's temptations and Ring-bearer (decision 0062.6)
        seen = state.keyframe_players | {(player.name, "ring-bearer")}
        state = replace(state, keyframe_players=seen)
        if state.stage is not Stage.GAP:
            return state
        tempted = statement.tempted.value if statement.tempted is not None else 1
        player = replace(player, ring_tempted=tempted - 1)
    previous = state.obj(player.ring_bearer) if player.ring_bearer is not None else None
    if previous is not None and previous.ring_bearer:
        state = state.with_object(replace(previous, ring_bearer=False))
    bearer = state.obj(statement.bearer.number) if statement.bearer is not None else None
    if bearer is not None and bearer.zone == "battlefield":
        state = state.with_object(replace(bearer, ring_bearer=True))
    else:
        bearer = None
    tempted = replace(
        player,
        ring_tempted=player.ring_tempted + 1,
        ring_bearer=bearer.number if bearer is not None else None,
    )
    return state.with_player(tempted)


@_apply.register
def _(statement: t.Venture, state: GameState, line: LineId) -> GameState:
    name = statement.subject.name
    if keyframe_entry(state, statement):
        state = replace(state, keyframe_players=state.keyframe_players | {(name, "venture")})
        if state.stage is not Stage.GAP:
            return state
    player = state.player(name)
    if player is None:
        return state
    return state.with_player(replace(player, venture_room=statement.room.value))


@_apply.register
def _(statement: t.Speed, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    if player is None:
        return state
    return state.with_player(replace(player, speed=statement.value.value))


@_apply.register
def _(statement: t.Complete, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None or state.dungeon_of(obj.owner or "") is not obj:
        return state  # O230: not a dungeon
    gone_by = "removed from the game as its dungeon was completed"
    state = state.with_object(replace(obj, zone=GONE, last_moved=line, gone_by=gone_by))
    player = state.player(obj.owner or "")
    if player is None:
        return state
    completed = replace(player, venture_room=None, dungeons_completed=player.dungeons_completed + 1)
    return state.with_player(completed)


@_apply.register
def _(statement: t.Target, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    if obj is None:
        return state
    marks: list[tuple[int | str, str | None, LineId | None]] = []
    for target in statement.targets:
        if isinstance(target, t.PlayerRef):
            marks.append((target.name, None, None))
        else:
            found = state.obj(target.number)
            if found is not None:
                marks.append((found.number, found.zone, found.last_moved))
    return state.with_object(replace(obj, targets=tuple(marks)))


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
    paid = state.obj(statement.subject.number)
    if paid is not None and paid.zone in OWNED_ZONES | {"exile", "command"}:
        state = replace(state, paid_to_enter=paid.number)
    return _may_lose(state.with_player(player), player, line) if player is not None else state


@_apply.register
def _(statement: t.Leave, state: GameState, line: LineId) -> GameState:
    obj = _named(_object(state, statement.subject.number, line, "stack", None), statement.name)
    zone = statement.destination.zone.value if statement.destination else "graveyard"
    verb = statement.verb.value
    position = statement.destination.position if statement.destination else None
    tapped = statement.tapped is not None
    # a spell countered onto the battlefield under its counterer's control (Desertion), or
    # one that resolves under another player's (CR 110.2)
    named = statement.destination.player if statement.destination else None
    controller = named.name if named is not None and zone == "battlefield" else obj.controller
    state = _moved(
        state,
        obj,
        zone,
        line,
        controller=controller,
        tapped=tapped,
        position=position,
        face_down=obj.face_down and zone == "battlefield",
        # cast back face up (CR 712.13), or entering transformed: daybound at night (0088)
        back_face=(obj.back_face or statement.back is not None) and zone == "battlefield",
    )
    if obj.adventure and verb == "resolve" and zone == "exile":  # on an adventure (715.3d)
        state = state.with_object(replace(state.objects[obj.number], adventure=True))
    if verb != "resolve" and zone != "battlefield":  # a permanent is a new object (400.7)
        state = state.with_object(replace(state.objects[obj.number], unresolved=verb))
    elif zone != "battlefield" and obj.kind is ObjectKind.CARD and not obj.resolved_before:
        state = state.with_object(replace(state.objects[obj.number], resolved_before=True))
    state = _enter_in_combat(state, obj.number, statement.combat, tapped)
    if statement.attached is not None and zone == "battlefield":
        state = _attached(state, obj.number, statement.attached)  # an Aura spell (CR 608.3c)
    return replace(state, resolving=obj.number) if verb == "resolve" else state


@_apply.register
def _(statement: t.TapChange, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    tap = statement.verb.value == "tap"
    return state.with_object(replace(obj, tapped=tap, tapped_at=line if tap else None))


@_apply.register
def _(statement: t.LeavesCombat, state: GameState, line: LineId) -> GameState:
    obj = state.obj(statement.subject.number)
    return state if obj is None else state.with_object(_out_of_combat(obj))  # CR 506.4


@_apply.register
def _(statement: t.StaysTapped, state: GameState, line: LineId) -> GameState:
    return replace(state, kept_tapped=state.kept_tapped | {statement.subject.number})


@_apply.register
def _(statement: t.Attack, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    tapped = obj.tapped or statement.untapped is None
    tapped_at = obj.tapped_at if obj.tapped else line if tapped else None
    defender = statement.defender
    what = defender.name if isinstance(defender, t.PlayerRef) else defender.number
    state = state.with_object(
        replace(obj, attacking=True, attack_target=what, tapped=tapped, tapped_at=tapped_at)
    )
    return _fighting(state, obj.number)


@_apply.register
def _(statement: t.Block, state: GameState, line: LineId) -> GameState:
    blocker = _object(state, statement.subject.number, line, "battlefield", None)
    blocker = _named(blocker, statement.name)
    number = statement.blocked.number
    state = state.with_object(replace(blocker, blocking=(*blocker.blocking, number)))
    attacker = state.obj(number)
    if attacker is not None and attacker.attacking:  # CR 509.1h
        state = state.with_object(replace(attacker, blocked=True))
    return _fighting(state, blocker.number, number)


@_apply.register
def _(statement: t.Damage, state: GameState, line: LineId) -> GameState:
    recipient = statement.recipient
    source = statement.subject.number
    amount = statement.amount.value
    turn = state.turn
    if turn.step == "combat-damage" and _is_combat_damage(state, source):
        struck = turn.struck_first
        if not turn.repeated and source not in struck:
            struck = struck | {source}
        dealt = _combat_damage_added(turn.combat_damage, source, amount, 0)
        trampled = turn.trampled
        if statement.trample is not None and amount and _over_its_blockers(state, statement):
            trampled = trampled | {source}
        state = replace(
            state,
            turn=replace(turn, struck_first=struck, combat_damage=dealt, trampled=trampled),
        )
    if isinstance(recipient, t.PlayerRef):
        if source in state.commanders and _is_combat_damage(state, source):
            state = _commander_damage(state, recipient.name, source, amount, line, statement.span)
        pending = PendingDamage(line, source, amount, recipient.name, statement.span)
    else:
        target = state.obj(recipient.number)
        if target is None:
            return state
        if statement.replacements and target.number not in state.turn.damage_changed:
            state = _damage_changed(state, target.number)
        counted = bool(target.counter("loyalty") or target.counter("defense"))
        # a planeswalker that attacks or blocks is a creature too (Gideon, a walker Sarkhan
        # made a Dragon): its damage is marked as well as taking its loyalty (CR 120.3)
        if not counted or target.in_combat:
            # damage to a creature is marked on it until the cleanup step (CR 120.3e, 514.2)
            touched = line if statement.deathtouch is not None and amount else target.deathtouch
            state = state.with_object(
                replace(
                    target,
                    damage=target.damage + amount,
                    deathtouch=touched,
                    # a source that would deal 0 damage deals none (CR 120.8)
                    damaged_moment=state.moment if amount else target.damaged_moment,
                    damaged_by=(None if _face_down(state, source) else source)
                    if amount
                    else target.damaged_by,
                )
            )
            state = _watch(state, target.number)
            if touched is not None:
                state = replace(state, sba_due=True)
            if not counted:
                return state
        pending = PendingDamage(line, source, amount, recipient.number, statement.span)
    return replace(state, pending_damage=(*state.pending_damage, pending))


def _over_its_blockers(state: GameState, damage: t.Damage) -> bool:
    """Whether a blocked attacker's damage goes to what it attacks: trample's excess."""
    attacker = state.obj(damage.subject.number)
    recipient = damage.recipient
    what = recipient.name if isinstance(recipient, t.PlayerRef) else recipient.number
    return attacker is not None and attacker.blocked and what == attacker.attack_target


def _face_down(state: GameState, number: int) -> bool:
    source = state.obj(number)
    return source is not None and source.face_down


def _combat_damage_added(
    dealt: tuple[tuple[int, int, int], ...], source: int, damage: int, gained: int
) -> tuple[tuple[int, int, int], ...]:
    """`Turn.combat_damage` with a source's damage or its controller's life gain added."""
    for i, (number, before, gained_before) in enumerate(dealt):
        if number == source:
            entry = (source, before + damage, gained_before + gained)
            return (*dealt[:i], entry, *dealt[i + 1 :])
    return (*dealt, (source, damage, gained))


def lifelink_due(state: GameState, statement: t.Life) -> tuple[int, int] | None:
    """A life gain caused by a source that dealt combat damage in this step, by its
    controller: (source, the damage it dealt that no gain has matched yet)."""
    cause = statement.cause
    if statement.delta.value <= 0 or cause is None or not isinstance(cause.agent, t.ObjectRef):
        return None
    if state.resolving is not None or state.stack:
        return None  # a spell's or ability's effect, not combat damage's (a fight: CR 701.14d)
    source = cause.agent.number
    for number, dealt, gained in state.turn.combat_damage:
        if number == source:
            obj = state.obj(source)
            if obj is None or obj.controller != statement.subject.name:
                return None
            return source, dealt - gained
    return None


def _is_combat_damage(state: GameState, source: int) -> bool:
    """Damage in the combat damage step is combat damage (decision 0012; also when it names
    the effect letting a blocked creature assign it as though it were not blocked, decision
    0073), but damage among the effects of a spell or ability resolving, or once one is on
    the stack, is not (decision 0012 item 3): a commander's trigger that deals damage after
    combat damage adds nothing to its commander damage (CR 903.10a). Triggered abilities
    written as they trigger, between the lines of damage dealt at once, do not end it: no
    player has had priority since (CR 510.2, 603.3). Nor is the damage of a mana ability,
    which resolves at once (CR 605.3b)."""
    return (
        state.turn.step == "combat-damage"
        and state.resolving is None
        and all(_is_trigger_number(state, number) for number in state.stack)
        and state.mana_made_by != source
    )


def _is_trigger_number(state: GameState, number: int) -> bool:
    obj = state.obj(number)
    return obj is not None and obj.name is not None and obj.name.startswith("triggered ")


def _commander_damage(
    state: GameState, player: str, commander: int, amount: int, line: LineId, span: t.Span
) -> GameState:
    """Adds combat damage from a commander; at 21 the player must lose next (CR 704.6c), but
    not in Brawl (CR 903.12h)."""
    total = amount
    damage = []
    for who, source, dealt in state.commander_damage:
        if (who, source) == (player, commander):
            total += dealt
        else:
            damage.append((who, source, dealt))
    state = replace(state, commander_damage=(*damage, (player, commander, total)))
    due = any(who == player for who, *_ in state.commander_losses)
    if player not in state.alive():
        return state
    if total >= 21 and total - amount < 21 and not due and state.variant != "brawl":
        loss = (player, commander, line, span)
        state = replace(state, commander_losses=(*state.commander_losses, loss))
    return state


def _settle(state: GameState, recipient: int | str, source: int | None, amount: int) -> GameState:
    """A life or loyalty line settles the damage it results from (0019 item 5)."""
    pending = state.pending_damage
    # the damage of this source and amount first: of two damage events one source dealt
    # the player, each result settles its own
    matches = ((True, True), (True, False), (False, True))
    for match_source, match_amount in matches:
        for i, damage in enumerate(pending):
            if damage.recipient != recipient:
                continue
            if match_source and damage.source != source:
                continue
            if match_amount and damage.amount != amount:
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
    paying = loyalty_cost_of(state, statement)
    if paying is not None:
        turn = state.turn
        state = replace(state, turn=replace(turn, loyalty_used=turn.loyalty_used | {obj.number}))
        state = state.with_object(replace(state.objects[paying], loyalty_cost=delta))
    counters = _counters(obj.counters, kind, delta)
    if kind == "-1/-1" and 0 < delta <= obj.damage and _damage_as_counters(state, obj, statement):
        obj = replace(obj, damage=obj.damage - delta)  # wither or infect (decision 0060.5)
    gone = obj.loyalty_gone
    if kind == "loyalty" and delta < 0 and obj.counter(kind) > 0 and not dict(counters).get(kind):
        gone = line  # its last loyalty counter (CR 704.5i)
    weakened = obj.weakened or (delta < 0 and kind != "-1/-1")
    state = state.with_object(replace(obj, counters=counters, loyalty_gone=gone, weakened=weakened))
    if gone is not None:
        state = replace(_watch(state, obj.number), sba_due=True)
    if delta <= 0 and kind in ("loyalty", "defense"):  # -0: none left to remove (0095.2)
        state = _settle(state, obj.number, _cause_object(statement), -delta)
    return _note_opening_action(state, statement)


def _damage_as_counters(state: GameState, obj: GameObject, statement: t.Statement) -> bool:
    """-1/-1 counters put by the source of the damage just marked, in the same step: the
    damage of a source with wither or infect, dealt as counters and not marked (CR 120.3d)."""
    source = _cause_object(statement)
    return source is not None and obj.damaged_by == source and obj.damaged_moment == state.moment


@_apply.register
def _(statement: t.Life, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    assert player is not None
    player = replace(player, life=player.life + statement.delta.value)
    state = _may_lose(state.with_player(player), player, line)
    if statement.delta.value <= 0:  # `life -0`: an effect kept the total from changing
        state = _settle(state, player.name, _cause_object(statement), -statement.delta.value)
    elif (due := lifelink_due(state, statement)) is not None:
        gained = _combat_damage_added(state.turn.combat_damage, due[0], 0, statement.delta.value)
        state = replace(state, turn=replace(state.turn, combat_damage=gained))
    return state


@_apply.register
def _(statement: t.PlayerCounters, state: GameState, line: LineId) -> GameState:
    player = state.player(statement.subject.name)
    assert player is not None
    counters = _counters(player.counters, statement.counter.value, statement.delta.value)
    player = replace(player, counters=counters)
    state = _may_lose(state.with_player(player), player, line)
    source = _cause_object(statement)
    if statement.counter.value == "poison" and statement.delta.value >= 0 and source is not None:
        state = _poisoned(state, player.name, source, statement)
    return state


def _poisoned(state: GameState, player: str, source: int, statement: t.PlayerCounters) -> GameState:
    """Poison counters a damage's source gives the player: infect's result of the damage
    (CR 120.3b), whose life line toxic's counters alone leave due (CR 702.164c). D801 reads
    the number given where a card index tells whether the source has infect or toxic; with
    `replacement #R` (Vorinclex) or `+0` (Solemnity) any number settles it (decision 0111)."""
    given = statement.delta.value
    pending = state.pending_damage
    candidates = [i for i, d in enumerate(pending) if d.recipient == player and d.source == source]
    candidates.sort(key=lambda i: pending[i].amount != given)  # the damage of its number first
    for i in candidates:
        damage = pending[i]
        if statement.replacements or given == 0:
            return replace(state, pending_damage=pending[:i] + pending[i + 1 :])
        if given >= damage.amount:
            marked = replace(damage, poison=given)
            return replace(state, pending_damage=(*pending[:i], marked, *pending[i + 1 :]))
    return state


@_apply.register
def _(statement: t.LibraryAction, state: GameState, line: LineId) -> GameState:
    actor = statement.subject.name
    owner = statement.owner.name if statement.owner else actor
    if statement.verb.value == "search":
        if statement.zone is not None and statement.zone.value != "library":
            return state  # a graveyard or hand: what is found is moved by the next lines
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
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    controller = statement.controller.name
    effects = obj.control_effects
    source = _cause_object(statement)
    previous = obj.controller
    if controller == previous and not obj.control_given and not effects:
        previous = obj.owner  # the duration of a control change in force at a keyframe (D821)
    if statement.until is None and effects:
        if source is None:
            # beneath the timed changes in force, an untimed effect ended (Control Magic
            # destroyed under Act of Treason): control goes to P when they end (0021.3)
            effects = (replace(effects[0], previous=controller, previous_given=False), *effects[1:])
            return state.with_object(replace(obj, control_effects=effects))
        # a later untimed effect (Control Magic on a creature taken with Act of Treason)
        # overrides the earlier timed ones for good (CR 613.7: timestamp order)
        effects = ()
    if statement.until is not None and source is not None:
        effect = ControlEffect(
            statement.until.value,
            _lasting_source(state, source),
            _controller_of(state, source),
            previous,
            line,
            # control came from an untimed `control` line, not back by default
            previous_given=obj.control_given
            and not effects
            and obj.controller != obj.control_taken_from,
        )
        effects = (*effects, effect)
        state = replace(state, control_changed=state.control_changed | {obj.number})
    taken_from = obj.control_taken_from if obj.control_given else obj.controller
    updated = replace(
        obj,
        controller=controller,
        control_effects=effects,
        control_given=True,
        control_taken_from=taken_from,
    )
    if controller != obj.controller:
        updated = replace(_out_of_combat(updated), ring_bearer=False)  # CR 506.4, 701.54a
    return state.with_object(updated)


def _lasting_source(state: GameState, cause: int) -> int:
    """Whose leaving ends an effect `until leaves`: the cause, or the permanent whose
    ability the cause is (Sower of Temptation's trigger, decision 0005 item 7)."""
    ability = state.obj(cause)
    if ability is not None and ability.kind is ObjectKind.ABILITY and ability.source is not None:
        return ability.source
    return cause


@_apply.register
def _(statement: t.Attach, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    state = state.with_object(obj)
    return _attached(state, obj.number, statement.host)


@_apply.register
def _(statement: t.Phasing, state: GameState, line: LineId) -> GameState:
    obj = _named(
        _object(state, statement.subject.number, line, "battlefield", None), statement.name
    )
    out = statement.direction.value == "out"
    agent = statement.cause.agent if statement.cause is not None else None
    by = agent.number if isinstance(agent, t.ObjectRef) else None
    state = state.with_object(_phased(obj, out, indirectly=False, by=by))
    phased = {obj.number}
    # what is attached to it phases out and in with it, indirectly (CR 702.26g)
    for attached in state.attachments_of(obj.number) if state.attached else []:
        if out and not attached.phased_out:
            state = state.with_object(_phased(attached, True, indirectly=True))
            phased.add(attached.number)
        elif not out and attached.phased_indirectly:
            state = state.with_object(_phased(attached, False, indirectly=False))
    return replace(state, phased=state.phased | phased) if out else state


def _phased(obj: GameObject, out: bool, *, indirectly: bool, by: int | None = None) -> GameObject:
    """Phased out it is treated as though it does not exist and leaves combat (702.26b)."""
    if not out:
        return replace(
            obj,
            phased_out=False,
            phased_under=None,
            phased_indirectly=False,
            phase_in_due=False,
            phased_by=None,
        )
    return replace(
        _out_of_combat(obj),
        phased_out=True,
        phased_under=obj.controller,
        phased_indirectly=indirectly,
        phase_in_due=False,
        phased_by=by,
    )


def _to_the_command_zone_at_once(state: GameState, obj: GameObject, new_zone: str) -> bool:
    """A commander its owner puts into the command zone in the step it died or was exiled
    (CR 903.9a): its leaves-the-battlefield abilities still look back at who controlled it
    (CR 603.10a), as they trigger after the state-based action."""
    return (
        new_zone == "command"
        and obj.zone in ("graveyard", "exile")
        and obj.entered_moment == state.moment
    )


def _day_night_due(state: GameState) -> GameState:
    """A new turn: whether its untap step makes day night or night day (CR 502.2), from the
    spells the previous turn's active player cast; unknown across a gap."""
    known = state.spells_counted and not state.incomplete_since_turn
    cast = state.spells_this_turn if known else None
    counted = state.stage is not Stage.GAP and not state.incomplete_since_turn
    due = None
    if cast is not None and state.day_night == "day" and cast == 0:
        due = "night"
    elif cast is not None and state.day_night == "night" and cast >= 2:
        due = "day"
    return replace(
        state,
        spells_last_turn=cast,
        spells_this_turn=0,
        spells_counted=counted,
        day_night_due=due,
    )


def _phase_ins_due(state: GameState, player: str) -> GameState:
    """A new turn: the permanents that phased out under its player's control phase in during
    its untap step (CR 502.1, 702.26a), unless they phased out with what they are attached to."""
    if not state.phased:
        return state
    still = state.phased_objects()
    for obj in still:
        if not obj.phased_indirectly and obj.phased_under == player:
            state.objects[obj.number] = replace(obj, phase_in_due=True)
    return replace(state, phased=frozenset(o.number for o in still))


@_apply.register
def _(statement: t.Turn, state: GameState, line: LineId) -> GameState:
    stage = Stage.GAP if state.stage is Stage.GAP else Stage.PLAYING
    players = tuple(replace(p, lands_played=0) if p.lands_played else p for p in state.players)
    player = statement.player.name
    state = _remove_damage(_end_combat(state))
    state = _phase_ins_due(state, player)
    state = _day_night_due(state)
    state = _end_control(
        state,
        lambda e: (
            e.until in ("end-of-turn", "end-of-combat")
            or (e.until == "next-turn" and e.holder == player)
        ),
        line,
    )
    objects = state.objects
    effects = tuple(e for e in state.effects if e.until not in ("end-of-turn", "end-of-combat"))
    effects = tuple(
        e
        for e in effects
        if not (e.until == "next-turn" and _controller_of(state, e.source) == statement.player.name)
    )
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
        backed_up_since_turn=False,
        kept_tapped=EMPTY_SET,
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
    candidates = step_places(name, is_phase)  # in order
    for index in candidates:
        if index > current:
            return index  # the next place of it in this turn
    return candidates[0] if extra else candidates[-1]


@_apply.register
def _(statement: t.PhaseOrStep, state: GameState, line: LineId) -> GameState:
    is_phase = statement.verb.value == "phase"
    name = statement.name.value
    current = state.turn.position
    added_after = state.turn.added_after
    extra = statement.cause is not None
    # the first phase or step after a gap or a backup may be any of the turn: `phase main`
    # there is the first main phase (a backup to before combat), later ones follow it
    reference = -1 if state.incomplete_since_step and not extra else current
    if is_phase and extra and added_after is None:
        added_after = current  # the first added phase: the regular ones resume from here
    elif is_phase and not extra and added_after is not None:
        reference, added_after = added_after, None  # the regular phase after added ones
    index = step_index(name, is_phase, reference, extra=extra)
    phase, step = STEP_ORDER[index]
    repeated = index <= reference
    # creatures leave combat, and effects until end of combat end, as the end of combat
    # step ends (CR 511.2, 511.3): at the first phase or step line that is not a later
    # step of the same combat phase (a second combat damage step is one), also when that
    # step or the whole combat phase was left out or an added combat phase begins
    combat_over = state.turn.phase == "combat" and not (
        phase == "combat" and not is_phase and index >= current
    )
    turn = replace(
        state.turn,
        position=index,
        phase=phase,
        step=step,
        repeated=repeated,
        added_after=added_after,
        cleanup_priority=False,
        struck_first=state.turn.struck_first if repeated and step == "combat-damage" else EMPTY_SET,
        turn_draw_done=False,
        combat_damage=(),
        trampled=EMPTY_SET,
        damage_changed=EMPTY_SET,
    )
    state = replace(state, turn=turn, moment=line, incomplete_since_step=False)
    if state.kept_tapped:
        state = replace(state, kept_tapped=EMPTY_SET)
    if combat_over:
        state = replace(
            _end_combat(state),
            effects=tuple(e for e in state.effects if e.until != "end-of-combat"),
        )
        state = _end_control(state, lambda e: e.until == "end-of-combat", line)
    if step == "cleanup":
        state = replace(state, effects=tuple(e for e in state.effects if e.until != "end-of-turn"))
        state = _end_control(state, lambda e: e.until == "end-of-turn", line)
        state = _remove_damage(state)
    return state


@_apply.register
def _(statement: t.Marker, state: GameState, line: LineId) -> GameState:
    verb = statement.verb.value
    if verb == "incomplete":
        return _begin_gap(state, line)
    if verb == "keyframe":
        if state.in_keyframe is not None:
            return state  # a keyframe inside a keyframe (F902): the open one goes on
        return replace(state, in_keyframe=line, keyframe_seen=EMPTY_SET, keyframe_players=EMPTY_SET)
    if state.in_keyframe is None:
        return state
    if state.stage is Stage.GAP:
        state = _settle_gap(state, line)
    return replace(state, in_keyframe=None)


def _begin_gap(state: GameState, line: LineId) -> GameState:
    """Lines are missing from here (`incomplete`, or a judge's backup) until a keyframe."""
    return replace(
        state,
        stage=Stage.GAP,
        gap_line=line,
        pending_damage=(),
        searching=None,
        incomplete_since_turn=True,
        incomplete_since_step=True,
        commander_casts_unknown=frozenset(state.commanders),
    )


def _settle_gap(state: GameState, line: LineId) -> GameState:
    """After a gap, the keyframe is the truth: objects it does not list have left play."""
    objects = state.objects  # the working state's table, changed in place (see GameState)
    for number, obj in list(objects.items()):
        if obj.zone != GONE and number not in state.keyframe_seen:
            gone_by = "left out of the keyframe after a gap"
            objects[number] = replace(obj, zone=GONE, last_moved=line, gone_by=gone_by)
        elif obj.introduced_after_gap:  # settled: a later gap's keyframe is not its (F904)
            objects[number] = replace(obj, introduced_after_gap=False)
    stack = tuple(n for n in state.stack if state.objects[n].zone == "stack")
    stage = Stage.PLAYING if state.turn.number else Stage.PREGAME
    players = []
    for player in state.players:  # untracked: library positions not listed, sizes not given
        seen = state.keyframe_seen
        top = _trim(tuple(n if n in seen else None for n in player.library.top))
        bottom = _trim(tuple(n if n in seen else None for n in player.library.bottom))
        listed = (player.name, "library") in state.keyframe_players
        size = player.library.size if listed else None
        # a land play, or a loss owed, that a backup undid: the keyframe gives neither
        players.append(
            replace(player, library=Library(size, top, bottom), lands_played=0, loses=None)
        )
    listed = state.keyframe_players
    for i, player in enumerate(players):  # designations the keyframe leaves out (0060)
        blessed = (player.name, "citys-blessing") in listed
        if player.citys_blessing != blessed:
            players[i] = player = replace(player, citys_blessing=blessed)
        if player.venture_room is not None and (player.name, "venture") not in listed:
            players[i] = player = replace(player, venture_room=None)  # decision 0063 item 4
        if player.ring_tempted and (player.name, "ring-bearer") not in listed:
            players[i] = replace(player, ring_tempted=0, ring_bearer=None)  # decision 0062.6
    monarch, initiative = state.monarch, state.initiative
    # what this turn did before the gap that a keyframe cannot give (a backup undid it): the
    # loyalty abilities activated, the combat damage dealt, the draw step's draw
    turn = replace(
        state.turn,
        loyalty_used=EMPTY_SET,
        activated=EMPTY_SET,
        struck_first=EMPTY_SET,
        combat_damage=(),
        trampled=EMPTY_SET,
        damage_changed=EMPTY_SET,
        turn_draw_done=False,
        combat_unseen=state.turn.phase == "combat",
    )
    return replace(
        state,
        turn=turn,
        sba_due=False,
        commander_losses=(),
        monarch=monarch if (monarch or "", "monarch") in listed else None,
        initiative=initiative if (initiative or "", "initiative") in listed else None,
        day_night=state.day_night if DAY_NIGHT_ENTRY in listed else None,
        stack=stack,
        stage=stage,
        gap_line=None,
        attached=frozenset(n for n in state.attached if n in state.keyframe_seen),
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
    owner = obj.owner
    if statement.owner is not None and zone == "battlefield":
        owner = statement.owner.name
    updated = replace(
        obj,
        owner=owner,
        face_down=statement.face_down is not None,
        back_face=statement.back is not None,
        flipped=statement.flipped is not None and zone == "battlefield",
        zone=zone,
        controller=(controller or obj.owner) if zone in ("battlefield", "stack") else None,
        tapped=statement.tapped is not None,
        counters=counters,
        damage=statement.damage.value if statement.damage and zone == "battlefield" else 0,
        # what the entry cannot say is not kept from before the gap: a backup undid it
        # (decision 0033 item 6), and a keyframe records no blocks (decision 0015)
        blocking=(),
        blocked=False,
        deathtouch=None,
        loyalty_gone=None,
        weakened=False,
        kept_by_legend=None,
        level=None,
        unlocked=(),
        through_gap=zone == "battlefield",
    )
    if obj.zone != zone:
        updated = replace(updated, entered_moment=state.moment)
    state = state.with_object(updated)
    if updated.damage:
        state = _watch(state, number)
    if zone == "stack" and number not in state.stack:
        state = replace(state, stack=(*state.stack, number))
    if zone == "library":
        state = _place_known(state, updated, place.position)
    if zone == "battlefield" or updated.attached_to is not None:
        state = _attached(state, number, statement.attached if zone == "battlefield" else None)
    if statement.phased_out is not None and zone == "battlefield":
        phased = _phased(state.objects[number], True, indirectly=False)
        state = replace(state.with_object(phased), phased=state.phased | {number})
    if statement.melded is not None and zone == "battlefield":
        state = _meld(state, number, statement.melded.number, updated.controller, line)
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
    if statement.commander is not None:  # decision 0101: the damage dealt before a late start
        commander = statement.commander.number
        others = tuple(d for d in state.commander_damage if d[:2] != (name, commander))
        dealt = ((name, commander, value),) if value else ()
        return replace(state, commander_damage=(*others, *dealt))
    if field == "life":
        player = replace(player, life=value)
    elif field == "library":
        player = replace(player, library=replace(player.library, size=value))
    elif statement.counter is not None:
        counters = dict(player.counters)
        counters[statement.counter.value] = value
        player = replace(player, counters=tuple(sorted((k, v) for k, v in counters.items() if v)))
    return state.with_player(player)
