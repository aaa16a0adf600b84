"""An attachment that cannot happen, or an unattach of what is not attached.

## What it flags
An `attach` line (decision 0023) for an object that is not on the battlefield, that
attaches it to itself, to an object that no longer exists or to a player who has left
the game, or to what it is already attached to; an `unattach` line for an object that
is attached to nothing; an `attached #M` on a line that puts a permanent onto the
battlefield naming itself or an object that no longer exists. Without card data the
checker cannot see whether the object is an Aura, Equipment or Fortification, nor what
it may enchant, equip or fortify.

## Why
To attach an Aura, Equipment or Fortification is to take it from where it is and put it
onto an object or player (CR 701.3a); an effect that tries to attach it to something it
cannot be attached to, or to what it is already attached to, does nothing (CR 701.3b),
so the line would record an event that did not happen. Nothing is attached to itself
(CR 303.4d, 301.5c).

## Example
```mtgr
#40 attach #40 by #41
#40 unattach by #41
```

## Use instead
```mtgr
#40 attach #12 by #41
#40 unattach by #41
```

## Rules basis
- Decision 0023 items 1, 2, 3 and 6: attach, unattach and entering attached, and what the
  checker reports.
- CR 701.3a: "To attach an Aura, Equipment, or Fortification to an object or player means to take it from where it currently is and put it onto that object or player."
- CR 701.3b: "If an effect tries to attach an Aura, Equipment, or Fortification to the object or player it's already attached to, the effect does nothing."
- CR 303.4d: "An Aura can't enchant itself."
- CR 301.5c: "An Equipment can't equip itself."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet, where_is
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GONE, NOT_OVER, GameState
from mtgr.syntax import tree as t

RULE = define(
    "O221",
    "Attachment not possible",
    severity=Severity.ERROR,
    decisions=("0023.1", "0023.2", "0023.3", "0023.6"),
    cr=("701.3a", "701.3b", "303.4d", "301.5c"),
    doc=__doc__,
)


@RULE.on(t.Attach, stages=NOT_OVER)
def check_attach(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Attach)
    state = ctx.state
    if quiet(ctx):
        return
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone == GONE:
        return  # O201, O204
    host = statement.host
    if obj.zone != "battlefield":
        ctx.report(
            RULE,
            f"{obj.label()} is {where_is(state, obj)}: only a permanent on the battlefield is "
            "attached or unattached",
            statement.verb.span,
            related=ctx.where(obj),
        )
        return
    if host is None:
        if obj.attached_to is None:
            ctx.report(
                RULE,
                f"{obj.label()} is attached to nothing, so it cannot become unattached",
                statement.verb.span,
                related=ctx.where(obj),
            )
        return
    value = host.number if isinstance(host, t.ObjectRef) else host.name
    if value == obj.attached_to:
        ctx.report(
            RULE,
            f"{obj.label()} is already attached to {_host_label(state, host)}; attaching it "
            "there again does nothing (CR 701.3b)",
            host.span,
            related=ctx.where(obj),
        )
        return
    _check_host(ctx, statement.subject.number, host)


@RULE.on(t.New, t.Move, t.Leave, stages=NOT_OVER)
def check_entering(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.New, t.Move, t.Leave))
    if statement.attached is None or quiet(ctx):
        return
    _check_host(ctx, statement.subject.number, statement.attached)


def _check_host(ctx: Context, number: int, host: t.ObjectRef | t.PlayerRef) -> None:
    state = ctx.state
    if isinstance(host, t.PlayerRef):
        player = state.player(host.name)
        if player is not None and player.lost:
            ctx.report(RULE, f'"{host.name}" has left the game (CR 701.3a)', host.span)
        return
    if host.number == number:
        ctx.report(
            RULE,
            f"#{number} cannot be attached to itself (CR 303.4d, 301.5c)",
            host.span,
        )
        return
    target = state.obj(host.number)
    if target is not None and target.zone == GONE:
        ctx.report(
            RULE,
            f"{target.label()} no longer exists, so nothing can be attached to it (CR 701.3a)",
            host.span,
            related=ctx.where(target),
        )


def _host_label(state: GameState, host: t.ObjectRef | t.PlayerRef) -> str:
    if isinstance(host, t.PlayerRef):
        return f'"{host.name}"'
    target = state.obj(host.number)
    return target.label() if target is not None else f"#{host.number}"
