"""The Ring tempts a player who has no emblem The Ring, or chooses a Ring-bearer they do not control.

## What it flags
`"P" ring-bearer [#M] by C` (decision 0062) when P has no emblem named "The Ring" in the
command zone in the rebuilt state, and when #M is not a permanent P controls on the
battlefield (phased in), and `tempted K` on a temptation, where it belongs only to a
keyframe entry. Without card data the checker cannot tell whether #M is a
creature, nor whether P controlled a creature when the line leaves out #M.

## Why
The first time the Ring tempts a player, they get an emblem named The Ring before choosing
(CR 701.54c); its abilities trigger like any emblem's, so the record creates it with
`new emblem` (decision 0062 item 2). The Ring-bearer is a creature the tempted player
controls (CR 701.54a).

## Example
```mtgr
"Alice" ring-bearer #30 by #50
```

## Use instead
```mtgr
#51 new emblem "The Ring" command "Alice" by #50
"Alice" ring-bearer #30 by #50
```

## Rules basis
- Decision 0062 items 1, 2, 4 and 6: the temptation, the emblem, what the checker reports,
  the keyframe entry.
- CR 701.54a: "Each time the Ring tempts you, choose a creature you control."
- CR 701.54c: "If a player doesn't have an emblem named The Ring at the time the Ring tempts them, they get an emblem named The Ring before choosing a creature to be their Ring-bearer."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import THE_RING, ObjectKind
from mtgr.syntax import tree as t

RULE = define(
    "O228",
    "Ring temptation not possible",
    severity=Severity.ERROR,
    decisions=("0062.1", "0062.2", "0062.4", "0062.6"),
    cr=("701.54a", "701.54c"),
    doc=__doc__,
)


@RULE.on(t.RingTempts)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.RingTempts)
    if quiet(ctx):
        return
    state = ctx.state
    player = statement.subject.name
    if state.player(player) is None:
        return  # N102
    if statement.tempted is not None:
        ctx.report(
            RULE,
            "`tempted K` counts the temptations in a keyframe entry; a temptation line counts "
            "itself: leave it out here (decision 0062 item 6)",
            statement.tempted.span,
        )
    has_ring = any(
        obj.kind is ObjectKind.EMBLEM
        and obj.zone == "command"
        and player in (obj.owner, obj.controller)
        and (obj.name or "").casefold() == THE_RING.casefold()
        for obj in state.objects.values()
    )
    if not has_ring:
        agent = statement.cause.agent if statement.cause is not None else None
        by = f" by #{agent.number}" if isinstance(agent, t.ObjectRef) else ""
        ctx.report(
            RULE,
            f"{player} has no emblem The Ring: the first time the Ring tempts a player they "
            f"get it before choosing (CR 701.54c); write "
            f'`#{state.next_free_number()} new emblem "The Ring" command "{player}"{by}` above',
            statement.verb.span,
        )
    bearer = statement.bearer
    if bearer is None:
        return
    obj = state.obj(bearer.number)
    if obj is None:
        return  # O201
    if obj.zone != "battlefield" or obj.phased_out:
        where = "phased out" if obj.zone == "battlefield" else where_is(state, obj)
        problem = f"{obj.label()} is {where}"
    elif obj.controller is not None and obj.controller != player:
        problem = f"{obj.controller} controls {obj.label()}"
    else:
        return
    ctx.report(
        RULE,
        f"{problem}: the Ring-bearer is a creature {player} controls (CR 701.54a)",
        bearer.span,
        related=ctx.where(obj),
    )
