"""A life or loyalty change from damage that names another cause than the damage's source.

## What it flags
A life loss (or poison counters, or loyalty or defense counters removed) right after a
damage line, that settles that damage but names a cause other than the damage's source,
or no cause: `#30 damage 2 -> "Bob"` then `"Bob" life -2 by #31`. Poison counters that
name an object are not read: they may be that object's toxic, given beside the result of
its own damage (CR 702.164c).

## Why
The life a player loses from damage is lost because of the damage (CR 120.3a), and the
loyalty counters a planeswalker loses are removed by it (CR 120.3c); the record gives
the result the damage's cause (decision 0019 item 5), so that "whenever a source deals
damage" and lifelink read the right source.

## Example
```mtgr
#30 damage 2 -> "Bob"
"Bob" life -2 by #31
```

## Use instead
```mtgr
#30 damage 2 -> "Bob"
"Bob" life -2 by #30
```

## Rules basis
- Decision 0019 item 5: a life change that results from damage has the damage's cause.
- Decision 0012 item 4: the results of damage follow straight after the damage line, with the
  damage's source as cause.
- CR 120.3a: "Damage dealt to a player by a source without infect causes that player to lose that much life."
- CR 120.3c: "Damage dealt to a planeswalker causes that many loyalty counters to be removed from that planeswalker."
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "D802",
    "Damage result with another cause",
    severity=Severity.ERROR,
    decisions=("0019.5", "0012.4"),
    cr=("120.3a", "120.3c"),
    doc=__doc__,
)


@RULE.on(t.Life, t.PlayerCounters, t.ObjectCounters, with_pending_damage=True)
def check(ctx: Context, statement: t.Statement) -> None:
    pending = ctx.state.pending_damage
    settles = _settles(ctx, statement)
    if settles is None:
        return
    recipient, amount, what = settles
    cause = statement.cause
    source = cause.agent.number if cause and isinstance(cause.agent, t.ObjectRef) else None
    if isinstance(statement, t.PlayerCounters) and source is not None:
        return  # its own toxic's counters, beside its damage's result (CR 702.164c)
    # (damage its infect's poison counters settled may stay pending only for D801)
    candidates = [d for d in pending if d.recipient == recipient and not d.poison]
    if any(d.source == source for d in candidates):
        return
    damage = next((d for d in candidates if d.amount == amount), None)
    if damage is None or ctx.state.obj(damage.source) is None:
        return  # D801 reports unsettled damage; O201 an unknown source
    named = "no cause" if cause is None else f"`{_cause_text(cause)}`"
    source_obj = ctx.state.obj(damage.source)
    source_label = source_obj.label() if source_obj is not None else f"#{damage.source}"
    ctx.report(
        RULE,
        f"{what} results from {source_label}'s damage but names {named}; the result of "
        f"damage has the damage's source as its cause: `by #{damage.source}`",
        _span(cause) or statement.verb.span,
        related=(Related(damage.line, damage.span, f"{source_label} deals the damage here"),),
    )


def _settles(ctx: Context, statement: t.Statement) -> tuple[int | str, int, str] | None:
    if isinstance(statement, t.Life) and statement.delta.value < 0:
        name = statement.subject.name
        return name, -statement.delta.value, f"{name}'s life loss of {-statement.delta.value}"
    poison = isinstance(statement, t.PlayerCounters) and statement.counter.value == "poison"
    if poison and statement.delta.value > 0:
        assert isinstance(statement, t.PlayerCounters)
        name = statement.subject.name
        return name, statement.delta.value, f"{name}'s poison counters"
    if isinstance(statement, t.ObjectCounters):
        kind = statement.counter.value
        if kind in ("loyalty", "defense") and statement.delta.value < 0:
            number = statement.subject.number
            obj = ctx.state.obj(number)
            label = obj.label() if obj is not None else f"#{number}"
            return number, -statement.delta.value, f"{label}'s loss of {kind} counters"
    return None


def _span(cause: t.Cause | None) -> t.Span | None:
    if cause is None:
        return None
    agent = cause.agent
    return t.Span(cause.keyword.start, agent.span.end)


def _cause_text(cause: t.Cause) -> str:
    agent = cause.agent
    if isinstance(agent, t.ObjectRef):
        return f"by #{agent.number}"
    if isinstance(agent, t.PlayerRef):
        return f'by "{agent.name}"'
    return "by sba"
