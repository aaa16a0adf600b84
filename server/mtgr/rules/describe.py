"""Shared wording and small facts for the rules in `rules/checks/`: where an object is, in
words, and when a line is in a part of the file where object checks stay quiet."""

from __future__ import annotations

from mtgr.rules.card_facts import a_loss_may_be_stopped
from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Rule
from mtgr.rules.state import (
    GONE,
    OWNED_ZONES,
    GameObject,
    GameState,
    ObjectKind,
    Stage,
    Turn,
    after_priority,
)
from mtgr.syntax import tree as t

# The zone an `as` kind moves from (CR 701.9a, 701.21a, 701.8a, 701.17a).
KIND_SOURCE = {
    "discard": "hand",
    "sacrifice": "battlefield",
    "destroy": "battlefield",
    "mill": "library",
}


def quiet(ctx: Context) -> bool:
    """In a gap or inside a keyframe, events are F902/F903's: other object checks stay quiet.
    A check that is quiet there as a whole registers `outside_gaps_and_keyframes=True`, and
    the walk does not call it there; this is for checks quiet in only part of what they do."""
    return ctx.state.stage is Stage.GAP or ctx.state.in_keyframe is not None


def sba_cause_off_the_battlefield(ctx: Context, move: t.Move) -> t.Cause | None:
    """The `by sba` of a move from the battlefield, outside a gap or keyframe: what B105 and
    B108 ask to be explained."""
    cause = move.cause
    if cause is None or not isinstance(cause.agent, t.Sba) or quiet(ctx):
        return None
    return cause if move.source.zone.value == "battlefield" else None


def state_based_actions_checked(ctx: Context) -> bool:
    """Whether this line comes after state-based actions were owed and checked (a player
    received priority in between, decision 0024 item 1), in a game being played."""
    state = ctx.state
    statement = ctx.statement
    if not state.sba_due or statement is None or not after_priority(state, statement):
        return False
    return not quiet(ctx) and state.stage is Stage.PLAYING


def report_pending_losses(ctx: Context, rule: Rule, reason: str, what: str, cr: str) -> None:
    """B101 to B103: a player who loses the next time state-based actions are checked
    (decision 0024 item 1), still in the game at a line that comes after that check."""
    statement = ctx.statement
    if statement is None or not state_based_actions_checked(ctx):
        return
    losing = [
        player
        for player in ctx.state.players
        if not player.lost and player.loses is not None and player.loses[0] == reason
    ]
    if not losing or a_loss_may_be_stopped(ctx):
        return  # Platinum Angel: the player stays in the game (CR 101.2)
    for player in losing:
        assert player.loses is not None
        ctx.report(
            rule,
            f'"{player.name}" {what}, so loses the game when state-based actions are checked, '
            f"before this line (CR {cr}, 704.3): record it first, "
            f'`"{player.name}" lose by sba`, or the concession or end of the game',
            statement.verb.span,
            related=(Related(player.loses[1], None, f"{player.name} {what} after this line"),),
        )


def current_step(turn: Turn) -> str:
    """Where the turn stands, in words: `the upkeep step`, `the main phase`."""
    if turn.step:
        return f"the {turn.step} step"
    return f"the {turn.phase} phase" if turn.phase else "the start of the turn"


def sorcery_timing_problems(state: GameState, player: str | None) -> list[str]:
    """Why a player may not do now what is done only as a sorcery: in their own main phase
    with an empty stack (CR 307.1, 602.5d); empty when they may."""
    turn = state.turn
    problems = []
    if player is not None and turn.player is not None and turn.player != player:
        problems.append(f'it is "{turn.player}"\'s turn, not "{player}"\'s')
    if turn.phase != "main":
        problems.append(f"it is {current_step(turn)}, not a main phase")
    if state.stack:
        top = state.obj(state.stack[-1])
        problems.append(f"the stack is not empty ({top.label() if top else '#?'} is on it)")
    return problems


def possessive(name: str | None) -> str:
    return f"{name}'s" if name else "its owner's"


def holder_of(obj: GameObject, zone: str) -> tuple[str, str | None]:
    """The player a place names for an object (decision 0006 item 2): the controller on the
    battlefield, a copy's controller, otherwise the owner."""
    if zone == "battlefield" or obj.kind is ObjectKind.COPY:
        return "controller", obj.controller
    return "owner", obj.owner


def library_position(state: GameState, obj: GameObject) -> str | None:
    """`top 2` or `bottom 1` for a tracked library card, None for an untracked one."""
    player = state.player(obj.owner or "")
    if player is None:
        return None
    if obj.number in player.library.top:
        return f"top {player.library.top.index(obj.number) + 1}"
    if obj.number in player.library.bottom:
        return f"bottom {player.library.bottom.index(obj.number) + 1}"
    return None


def where_is(state: GameState, obj: GameObject) -> str:
    """Where an object is, in words: "in Alice's hand", "on the battlefield"."""
    zone = obj.zone
    if zone == GONE:
        if obj.melded_into is not None:  # decision 0065
            return f"one of the two cards of the melded permanent #{obj.melded_into}"
        return "no longer in the game" if obj.gone_by is None else "untracked"
    if zone in ("battlefield", "stack"):
        who = f" under {obj.controller}'s control" if obj.controller else ""
        return f"on the {zone}{who}"
    if zone == "library":
        position = library_position(state, obj)
        return f"in {possessive(obj.owner)} library" + (f" ({position})" if position else "")
    if zone in ("hand", "graveyard"):
        return f"in {possessive(obj.owner)} {zone}"
    if zone == "command":
        return "in the command zone"
    return f"in {zone}"


def from_zone(zone: str) -> str:
    """Where a card leaves from, in words: "from a hand", "from the battlefield"."""
    if zone in ("battlefield", "stack"):
        return f"from the {zone}"
    if zone == "command":
        return "from the command zone"
    if zone == "exile":
        return "from exile"
    return f"from a {zone}"


def in_zone(zone: str, player: str | None = None) -> str:
    """A zone as a line names it, in words: "in hand", "in Bob's graveyard", "on the stack"."""
    if zone in ("battlefield", "stack"):
        return f"on the {zone}"
    if zone == "command":
        return "in the command zone"
    if zone == "exile":
        return "in exile"
    return f"in {player}'s {zone}" if player else f"in {zone}"


def named_owned_destination(
    ctx: Context, statement: t.Statement
) -> tuple[t.Place, t.PlayerRef, GameObject] | None:
    """A move's or a leave's destination that names a player for a hand, graveyard or
    library (N107, O205), with that player and the known object moving there."""
    assert isinstance(statement, (t.Move, t.Leave))
    destination = statement.destination
    if destination is None or destination.player is None or quiet(ctx):
        return None
    if destination.zone.value not in OWNED_ZONES:
        return None
    obj = ctx.state.obj(statement.subject.number)
    if obj is None:
        return None
    return destination, destination.player, obj


def leaves_stack_elsewhere(statement: t.Leave) -> t.Span | None:
    """Where to point at a line that takes a spell off the stack to another zone than
    exile (`#N resolve` alone goes to the graveyard), or None when it goes to exile."""
    destination = statement.destination
    if destination is None:
        return statement.verb.span
    return None if destination.zone.value == "exile" else destination.zone.span


def a_planeswalker_by_its_counters(obj: GameObject) -> bool:
    """Whether the lines show a permanent to be a planeswalker without card data: loyalty
    counters on it and no defense counters (a battle's)."""
    return obj.counter("loyalty") > 0 and obj.counter("defense") <= 0


def resolution_sources(statement: t.Statement) -> tuple[t.ObjectRef, ...]:
    """The spells or abilities whose resolution a line is an effect of, where it is one: a
    damage line's source, then the cause. Moves other than a destruction, shuffles and new
    objects other than tokens are none (a cost, a card's own ability: K346, K347)."""
    if isinstance(statement, t.Move) and (
        statement.kind is None or statement.kind.value != "destroy"
    ):
        return ()
    if isinstance(statement, t.New) and statement.what.value != "token":
        return ()
    if isinstance(statement, t.LibraryAction) and statement.zone is None:
        return ()
    cause = statement.cause.agent if statement.cause is not None else None
    found = (statement.subject,) if isinstance(statement, t.Damage) else ()
    return (*found, cause) if isinstance(cause, t.ObjectRef) else found
