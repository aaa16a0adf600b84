"""A keep or mulligan declaration made out of turn order, or made again after keeping.

## What it flags
A `keep` or `mulligan` line by a player who has already kept, or by a player whose turn
to declare has not come: in each round of declarations the starting player declares
first, then each other player still deciding, in turn order. A player who took a
mulligan declares again in the next round, after everyone has declared in this one.

## Why
CR 103.5 fixes the order of the declarations, so that each player decides knowing what
the players before them decided; once a player keeps, that hand is their opening hand
and they take no further mulligans.

## Example
```mtgr
start "Bob" by "Bob"
"Alice" keep
"Bob" keep
```

## Use instead
```mtgr
start "Bob" by "Bob"
"Bob" keep
"Alice" keep
```

## Rules basis
- Decision 0009 item 5: the starting player declares first, then each player who has not kept, in
  turn order, round after round.
- CR 103.5: "First, the starting player declares whether they will take a mulligan. Then each other player in turn order does the same. Once each player has made a declaration, all players who decided to take mulligans do so at the same time."
- CR 103.5: "Once a player chooses not to take a mulligan, the remaining cards become that player's opening hand, and that player may not take any further mulligans. This process is then repeated until no player takes a mulligan."
"""

from __future__ import annotations

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameState, Stage
from mtgr.syntax import tree as t

RULE = define(
    "P502",
    "Keep or mulligan out of turn order",
    severity=Severity.ERROR,
    decisions=("0009.5",),
    cr=("103.5",),
    doc=__doc__,
)


def next_declarer(state: GameState) -> str | None:
    """Who declares next: the first player in turn order of the earliest unfinished round."""
    deciding = [state.player(name) for name in state.turn_order()]
    waiting = [p for p in deciding if p is not None and not p.kept and not p.lost]
    if not waiting:
        return None
    round_ = min(p.mulligans for p in waiting)
    return next(p.name for p in waiting if p.mulligans == round_)


@RULE.on(t.PlayerAction)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.PlayerAction)
    verb = statement.verb.value
    if verb not in ("keep", "mulligan"):
        return
    state = ctx.state
    if state.stage is Stage.GAP:
        return
    player = state.player(statement.subject.name)
    if player is None:
        return
    if player.kept:
        related: tuple[Related, ...] = ()
        if player.kept_line is not None:
            related = (Related(player.kept_line, None, f'"{player.name}" kept here'),)
        ctx.report(
            RULE,
            f'"{player.name}" has already kept: that hand is their opening hand, and they '
            f"declare no more (CR 103.5); remove this `{verb}`",
            statement.verb.span,
            related=related,
        )
        return
    if state.stage not in (Stage.HEADER, Stage.PREGAME) or state.starting_player is None:
        return
    expected = next_declarer(state)
    if expected is None or expected == player.name:
        return
    ctx.report(
        RULE,
        f'"{expected}" declares before "{player.name}": the starting player '
        f'("{state.starting_player}") declares first, then each other player in turn order, '
        f"round by round (CR 103.5)",
        statement.verb.span,
    )
