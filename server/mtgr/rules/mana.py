"""Mana pools as the lines state them (decision 0071): what `mana` lines added, what `pay`
lines spent, and whether a payment could have been made from it.

A pool is known only from the first `mana` line of a player in a step, and only while
every mana ability of theirs in that step has its `mana` line: mana the record does not
state could be there. What remains after a payment of generic or hybrid mana is not
known exactly, so a pool is kept as upper bounds: its total, and at most how much of each
type. A payment is reported only when even those bounds cannot cover it, so a record is
never told it paid with mana it may have had.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtgr.rules.state import EMPTY_SET, GameState, evolve
from mtgr.syntax import tree as t

TYPES = "WUBRGC"  # the six types of mana (CR 106.1b)
Pool = tuple[int, ...]  # the total, then at most that much W, U, B, R, G and C
EMPTY: Pool = (0,) * (1 + len(TYPES))
_SYMBOL = re.compile(r"\{([^}]*)\}")


def symbols(text: str) -> list[str]:
    return _SYMBOL.findall(text)


def produced(text: str) -> Pool | None:
    """The mana a `mana` line adds, or None when its symbols name no type of mana. Generic
    and snow symbols add colorless mana (CR 106.10, 106.11)."""
    counts = [0] * len(TYPES)
    for symbol in symbols(text):
        if symbol in TYPES:
            counts[TYPES.index(symbol)] += 1
        elif symbol.isdigit():
            counts[TYPES.index("C")] += int(symbol)
        elif symbol == "S":
            counts[TYPES.index("C")] += 1
        else:
            return None
    return (sum(counts), *counts)


def added(pool: Pool, more: Pool) -> Pool:
    return tuple(a + b for a, b in zip(pool, more, strict=True))


@dataclass(frozen=True, slots=True)
class Requirement:
    """What a mana cost takes from a pool at least: mana of each type, and in all."""

    typed: tuple[int, ...]  # W U B R G C symbols, which only that type pays
    total: int  # every symbol's least amount of mana: generic, hybrid, snow and typed


def requirement(text: str) -> Requirement | None:
    """The least a mana cost takes; None for a cost whose amount the line does not give
    ({X}) or a symbol this reading does not know."""
    typed = [0] * len(TYPES)
    total = 0
    for symbol in symbols(text):
        if symbol in TYPES:
            typed[TYPES.index(symbol)] += 1
            total += 1
        elif symbol.isdigit():
            total += int(symbol)
        elif symbol == "S" or (
            "/" in symbol and not symbol.endswith("/P") and all(p for p in symbol.split("/"))
        ):
            total += 1  # snow, hybrid {G/W} and {2/G}: one mana at least (CR 107.4e)
        elif symbol.endswith("/P"):
            continue  # Phyrexian: 2 life instead (CR 107.4f)
        else:
            return None
    return Requirement(tuple(typed), total)


def can_pay(pool: Pool, cost: Requirement) -> bool:
    if cost.total > pool[0]:
        return False
    return all(need <= have for need, have in zip(cost.typed, pool[1:], strict=True))


def after_paying(pool: Pool, cost: Requirement) -> Pool:
    total = max(pool[0] - cost.total, 0)
    rest = (
        min(max(have - need, 0), total) for need, have in zip(cost.typed, pool[1:], strict=True)
    )
    return (total, *rest)


def describe(pool: Pool) -> str:
    """`{G}{G}{R}` when the bounds say exactly what is there, else the bounds."""
    total, *types = pool
    if total == 0:
        return "no mana"
    if sum(types) == total:
        return "".join(f"{{{kind}}}" * count for kind, count in zip(TYPES, types, strict=True))
    known = ", ".join(f"{{{kind}}} at most {n}" for kind, n in zip(TYPES, types, strict=True) if n)
    return f"at most {total} mana ({known})" if known else f"at most {total} mana"


def is_mana_cost(cost: t.Text | t.LifeCost) -> bool:
    """A `pay` line's mana symbols, not a cost written in quotes."""
    return isinstance(cost, t.Text) and cost.span.end - cost.span.start == len(cost.value)


def pool_of(state: GameState, player: str) -> Pool | None:
    """The player's pool as the lines state it in this step, or None when not known."""
    if player in state.mana_unstated:
        return None
    pending = state.mana_pending
    if pending is not None and pending[0] == player:
        return None  # a mana ability whose `mana` line has not come (yet)
    for name, pool in state.mana_pools:
        if name == player:
            return pool
    return None


def payer(state: GameState, statement: t.Pay) -> str | None:
    """Who pays: `by "P"`, else the controller of the spell or ability (decision 0017)."""
    cause = statement.cause
    if cause is not None and isinstance(cause.agent, t.PlayerRef):
        return cause.agent.name
    obj = state.obj(statement.subject.number)
    return obj.controller or obj.owner if obj is not None else None


def mana_ability_cost(state: GameState, statement: t.Statement) -> tuple[str, int] | None:
    """(player, object) when a line may pay the cost of a mana ability, whose `mana` line
    follows: a tap or move caused by the object itself (a land, a Treasure, Simian Spirit
    Guide; decision 0005 item 2) or by a permanent (Ashnod's Altar sacrificing a creature,
    Springleaf Drum tapping one), or counters a permanent removes from itself (Pentad Prism,
    decision 0091). Taken widely: a line that was no such cost only leaves the pool unknown
    for the rest of the step."""
    cause = statement.cause
    if cause is None:
        return None
    kind = type(statement)  # none of these types has subclasses
    agent = cause.agent
    if kind is t.TapChange:
        if statement.verb.value != "tap":
            return None
    elif kind is t.ObjectCounters:
        if statement.delta.value >= 0 or type(agent) is not t.ObjectRef:
            return None
        if agent.number != statement.subject.number:
            return None
    elif kind is not t.Move:
        return None
    if type(agent) is not t.ObjectRef or agent.number == state.resolving:
        return None
    source = state.objects.get(agent.number)
    if source is None:
        return None
    if agent.number != statement.subject.number and source.zone != "battlefield":
        return None  # a spell or an ability on the stack paying its own costs
    who = source.controller or source.owner
    return (who, agent.number) if who is not None else None


_STEP_LINES = (t.Turn, t.PhaseOrStep)
MANA_LINES = (t.ManaAdded, t.Pay, t.TapChange, t.Move, t.ObjectCounters, *_STEP_LINES)


def _with_pool(state: GameState, player: str, pool: Pool) -> GameState:
    pools = tuple(entry for entry in state.mana_pools if entry[0] != player)
    return evolve(state, mana_pools=(*pools, (player, pool)))


def _unstated(state: GameState, player: str) -> GameState:
    pools = tuple(entry for entry in state.mana_pools if entry[0] != player)
    return evolve(state, mana_pools=pools, mana_unstated=state.mana_unstated | {player})


def _of_mana_ability(statement: t.Statement, source: int) -> bool:
    """A line of what a mana ability did as it resolved (CR 605.3b): more mana, the damage
    its source deals, what that damage does, and another part of its cost."""
    if type(statement) is t.ManaAdded:
        return True
    if type(statement) is t.Damage:
        return statement.subject.number == source
    agent = statement.cause.agent if statement.cause is not None else None
    return isinstance(agent, t.ObjectRef) and agent.number == source


def mana_step(state: GameState, statement: t.Statement) -> GameState:
    """Follows the mana pools through one line, from the state before it."""
    kind = type(statement)  # Turn, PhaseOrStep, ManaAdded and Pay have no subclasses
    if kind is t.Turn or kind is t.PhaseOrStep:
        if state.mana_pools or state.mana_unstated or state.mana_pending or state.mana_made_by:
            # every pool empties at the end of each step and phase (CR 106.4, 500.4)
            state = evolve(
                state,
                mana_pools=(),
                mana_unstated=EMPTY_SET,
                mana_pending=None,
                mana_made_by=None,
            )
        return state
    made_by = state.mana_made_by
    if made_by is not None and not _of_mana_ability(statement, made_by):
        state = evolve(state, mana_made_by=None)
    pending = state.mana_pending
    if pending is not None:
        if mana_ability_cost(state, statement) == pending:
            return state  # another part of the same cost: Lotus Petal taps and is sacrificed
        state = evolve(state, mana_pending=None)
        agent = statement.cause.agent if statement.cause is not None else None
        stated = (
            kind is t.ManaAdded and isinstance(agent, t.ObjectRef) and agent.number == pending[1]
        )
        if not stated:
            state = _unstated(state, pending[0])
    if kind is t.ManaAdded:
        agent = statement.cause.agent if statement.cause is not None else None
        if isinstance(agent, t.ObjectRef) and agent.number != made_by:
            state = evolve(state, mana_made_by=agent.number)
        player = statement.subject.name
        if player in state.mana_unstated:
            return state
        more = produced(statement.mana.value)
        if more is None:
            return _unstated(state, player)
        return _with_pool(state, player, added(pool_of(state, player) or EMPTY, more))
    if kind is t.Pay:
        who = payer(state, statement)
        pool = pool_of(state, who) if who is not None else None
        if who is None or pool is None:
            return state
        for cost in statement.costs:
            if is_mana_cost(cost):
                assert isinstance(cost, t.Text)
                needed = requirement(cost.value)
                if needed is None:
                    return _unstated(state, who)
                pool = after_paying(pool, needed)
        return _with_pool(state, who, pool)
    cost_of = mana_ability_cost(state, statement)
    if cost_of is not None:
        # the `mana` line is optional (decision 0071 item 2): what follows the cost is of
        # the mana ability too, its damage included (Ancient Tomb, a painland)
        state = evolve(state, mana_pending=cost_of, mana_made_by=cost_of[1])
    return state
