"""A life loss, or loyalty removed, from damage that is not the amount of the damage.

## What it flags
A `"P" life -K by #N` line that settles damage #N has just dealt to P, when K is not the
amount of that damage (of any of them, when #N dealt P damage more than once in the damage
lines it follows): `#12 damage 3 -> "Bob"` then `"Bob" life -4 by #12`; likewise a
`#30 counters -K loyalty by #12` line that settles damage #12 dealt to planeswalker #30.
A planeswalker dealt more damage than it has loyalty loses the counters it has. A line
with `replacement` (an effect that changed the loss, such as one that doubles it) is not
flagged.

## Why
Damage dealt to a player by a source without infect causes that player to lose that
much life (CR 120.3a), damage dealt to a planeswalker removes that many loyalty counters
from it (CR 120.3c), and the record writes that loss on the line after the damage with
the damage's source as its cause (decision 0019 item 5, decision 0012 item 4). A result
that differs from the damage makes every life total after it wrong, the most common slip
in a hand-written record.

## Example
```mtgr
#12 damage 3 -> "Bob"
"Bob" life -4 by #12
```

## Use instead
```mtgr
#12 damage 3 -> "Bob"
"Bob" life -3 by #12
```

## Rules basis
- Decision 0019 item 5: a life change that results from damage has the damage's cause.
- Decision 0012 item 4: the results of damage follow straight after the damage line.
- Decision 0095 item 1: damage beyond a planeswalker's loyalty removes the counters it has.
- CR 120.3a: "Damage dealt to a player by a source without infect causes that player to lose that much life."
- CR 120.3c: "Damage dealt to a planeswalker causes that many loyalty counters to be removed from that planeswalker."
- CR 609.3: "If an effect attempts to do something impossible, it does only as much as possible."
"""

from collections.abc import Callable

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "D836",
    "Life or loyalty loss differs from the damage",
    severity=Severity.ERROR,
    decisions=("0019.5", "0012.4", "0095.1"),
    cr=("120.3a", "120.3c", "609.3"),
    doc=__doc__,
)


@RULE.on(t.Life, with_pending_damage=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Life)
    player = statement.subject.name
    _compare(
        ctx,
        statement,
        player,
        lambda lost, dealt: (
            f"{player} loses {lost} life from {dealt}: damage dealt to a "
            "player makes them lose that much life (CR 120.3a)"
        ),
        lambda amount, source: f'"{player}" life -{amount} by #{source}',
    )


@RULE.on(t.ObjectCounters, with_pending_damage=True)
def check_loyalty(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.ObjectCounters)
    if statement.counter.value != "loyalty":
        return
    walker = statement.subject.number
    obj = ctx.state.obj(walker)
    _compare(
        ctx,
        statement,
        walker,
        lambda lost, dealt: (
            f"#{walker} loses {lost} loyalty from {dealt}: damage dealt to a "
            "planeswalker removes that many loyalty counters (CR 120.3c)"
        ),
        lambda amount, source: f"#{walker} counters -{amount} loyalty by #{source}",
        # damage beyond its loyalty removes the counters it has (CR 609.3)
        most=obj.counter("loyalty") if obj is not None else None,
    )


def _compare(
    ctx: Context,
    statement: t.Life | t.ObjectCounters,
    recipient: str | int,
    says: Callable[[int, str], str],
    instead: Callable[[int, int], str],
    most: int | None = None,
) -> None:
    """Reports a loss caused by a source that dealt the recipient damage of another amount;
    `most`: what the recipient can lose at all (None: no limit)."""
    cause = statement.cause
    if statement.delta.value >= 0 or statement.replacements:
        return
    if cause is None or not isinstance(cause.agent, t.ObjectRef):
        return  # D802 reports a result without the damage's source
    source = cause.agent.number
    dealt = [
        d
        for d in ctx.state.pending_damage
        if d.recipient == recipient and d.source == source and not d.poison
    ]
    lost = -statement.delta.value
    if not dealt or lost in {d.amount if most is None else min(d.amount, most) for d in dealt}:
        return
    damage = dealt[0]
    obj = ctx.state.obj(source)
    label = obj.label() if obj is not None else f"#{source}"
    from_damage = f"{label}'s {damage.amount} damage"
    ctx.report(
        RULE,
        f"{says(lost, from_damage)}; write "
        f"`{instead(damage.amount if most is None else min(damage.amount, most), source)}`",
        statement.delta.span,
        related=(Related(damage.line, damage.span, f"{label} deals {damage.amount} here"),),
    )
