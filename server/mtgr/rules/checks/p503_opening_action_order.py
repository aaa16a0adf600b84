"""An opening hand action taken before every player kept, or out of turn order.

## What it flags
An opening hand action taken while some player has not kept yet, or out of order: the
starting player takes all of their opening hand actions first, then each other player in
turn order, one player after the other. An opening hand action is a pregame line caused
by a card (`by #N`) of a player who has kept, in the forms decision 0018 item 2 gives
them: a move from the hand, a reveal, a draw, counters; and any pregame
`move hand -> battlefield` or `reveal` caused by a card.

## Why
Cards such as Leyline of the Void, Gemstone Caverns and Chancellor of the Annex act from
the opening hand, and an opening hand exists only once the mulligan process is complete
(CR 103.6). The order lets each player act knowing what the players before them did
(decision 0018 item 1). Cards used during the mulligans themselves, such as Serum Powder,
are not opening hand actions (decision 0018 item 3).

## Example
```mtgr
start "Bob" by "Bob"
"Bob" keep
"Alice" keep
#15 move hand -> battlefield by #15
#1 "Chancellor of the Annex" reveal by #1
```

## Use instead
```mtgr
start "Bob" by "Bob"
"Bob" keep
"Alice" keep
#1 "Chancellor of the Annex" reveal by #1
#15 move hand -> battlefield by #15
```

## Rules basis
- Decision 0018 item 1, decision 0009 item 8.
- CR 103.6: "Once the mulligan process (see rule 103.5) is complete, the starting player may take any such actions in any order. Then each other player in turn order may do the same."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "P503",
    "Opening hand action before every player kept, or out of order",
    severity=Severity.ERROR,
    decisions=("0018.1", "0009.8"),
    cr=("103.6",),
    doc=__doc__,
)


def opening_actor(state: GameState, statement: t.Statement) -> GameObject | None:
    """The card whose opening hand action this line is, if it is one (decision 0018 item 2)."""
    if state.stage is not Stage.PREGAME or statement.cause is None:
        return None
    agent = statement.cause.agent
    if not isinstance(agent, t.ObjectRef):
        return None
    actor = state.obj(agent.number)
    if actor is None or actor.owner is None:
        return None
    owner = state.player(actor.owner)
    if owner is None:
        return None
    from_hand = isinstance(statement, t.Move) and statement.source.zone.value == "hand"
    onto_battlefield = (
        isinstance(statement, t.Move) and statement.destination.zone.value == "battlefield"
    )
    begins = isinstance(statement, t.Reveal) or (from_hand and onto_battlefield)
    # the forms an opening hand action takes (0018 item 2): moves from the hand, reveals,
    # draws, counters; a tap or a life change in the "pregame" is a missing `turn` line
    shaped = from_hand or isinstance(statement, (t.Reveal, t.Draw, t.ObjectCounters))
    return actor if begins or (owner.kept and shaped) else None


@RULE.on(t.Statement, stages=(Stage.PREGAME,))
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    actor = opening_actor(state, statement)
    if actor is None or actor.owner is None:
        return
    assert statement.cause is not None
    span = statement.cause.agent.span
    label = actor.label()
    subject = getattr(statement, "subject", None)
    name = getattr(statement, "name", None)
    if (
        actor.hidden
        and isinstance(subject, t.ObjectRef)
        and subject.number == actor.number
        and name
    ):
        label = f"#{actor.number} ({name.value})"
    order = state.turn_order()
    waiting = [
        name
        for name in order
        if (p := state.player(name)) is not None and not p.kept and not p.lost
    ]
    if waiting:
        names = " and ".join(f'"{name}"' for name in waiting)
        ctx.report(
            RULE,
            f"{label} acts from the opening hand before every player has kept "
            f"({names} not yet): opening hand actions come after the last `keep` "
            "(decision 0018 item 1, CR 103.6)",
            span,
            related=ctx.where(actor),
        )
        return
    if state.starting_player is None or actor.owner not in order:
        return
    runs = state.opening_actions_by
    if runs[-1:] == (actor.owner,):
        return
    mine = order.index(actor.owner)
    later = [name for name in runs if name in order and order.index(name) > mine]
    if not later:
        return  # in order (a player going on after an out-of-order one is not flagged again)
    ctx.report(
        RULE,
        f'"{actor.owner}" acts after "{later[-1]}", but comes before them in turn order '
        f'(starting player "{state.starting_player}"): move {label}\'s action before '
        f'"{later[-1]}"\'s (decision 0018 item 1, CR 103.6)',
        span,
        related=ctx.where(actor),
    )
