"""Damage to a player or a planeswalker with no life or loyalty line after it.

## What it flags
A `damage K -> "P"` (or `-> #M` for a planeswalker or battle) that no result line
follows: the lines after a damage line, up to the next line that is not a damage, life
or counters line (or the end of the file), must include `"P" life -K by #N` (or poison
counters for infect: as many as the damage), or `#M counters -K loyalty by #N`. Poison
counters of another number (toxic's) are not the damage's result: its life line is still
due. Damage to a player whose life
total an effect keeps from changing (Platinum Emperion) is settled by `"P" life -0 by #N`,
and damage to a planeswalker or battle whose counters an earlier source's damage took is
settled by `#M counters -0 loyalty by #N`.
The finding is on the damage line.

## Why
Damage dealt to a player causes that player to lose that much life (CR 120.3a); damage
dealt to a planeswalker removes that many loyalty counters (CR 120.3c). The record shows
the result on its own line, with the damage's source as its cause (decision 0019 item 5),
so that the life total and loyalty rebuilt from the file are right.

## Example
```mtgr
#30 damage 2 -> "Bob"
#31 trigger of #30
```

## Use instead
```mtgr
#30 damage 2 -> "Bob"
"Bob" life -2 by #30
#31 trigger of #30
```

## Rules basis
- Decision 0019 item 5: a life change that results from damage has the damage's cause; damage to a
  planeswalker removes loyalty counters with the same cause.
- Decision 0012 item 4: the results of damage follow straight after the damage line, with the
  damage's source as cause.
- Decision 0089 item 1: damage whose life loss an effect stops is followed by a life line of 0.
- Decision 0095 item 2: damage that finds no loyalty or defense counter left is followed by a counters line of 0.
- CR 120.3a: "Damage dealt to a player by a source without infect causes that player to lose that much life."
- CR 120.3b: "Damage dealt to a player by a source with infect causes that source's controller to give the player that many poison counters."
- CR 120.3c: "Damage dealt to a planeswalker causes that many loyalty counters to be removed from that planeswalker."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import PendingDamage
from mtgr.syntax import tree as t

RULE = define(
    "D801",
    "Damage without its result",
    severity=Severity.ERROR,
    decisions=("0019.5", "0012.4", "0089.1", "0095.2"),
    cr=("120.3a", "120.3b", "120.3c"),
    doc=__doc__,
)

# Lines that may stand between a damage line and its result (apply.py keeps the damage
# pending through them).
_RESULTS = (t.Damage, t.Life, t.PlayerCounters, t.ObjectCounters)


@RULE.on(t.Statement, with_pending_damage=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if isinstance(statement, _RESULTS):
        return
    if isinstance(statement, t.Marker) and statement.verb.value == "incomplete":
        return  # the result may be among the lines the gap leaves out
    for damage in ctx.state.pending_damage:
        _report(ctx, damage)


@RULE.at_end
def at_end(ctx: Context) -> None:
    for damage in ctx.state.pending_damage:
        _report(ctx, damage)


def _report(ctx: Context, damage: PendingDamage) -> None:
    if damage.amount <= 0:
        return  # 0 damage is not dealt (CR 120.8)
    if ctx.state.obj(damage.source) is None:
        return  # O201 reports the unknown source
    source, amount = damage.source, damage.amount
    source_obj = ctx.state.obj(source)
    who = source_obj.label() if source_obj is not None else f"#{source}"
    if isinstance(damage.recipient, str):
        player = damage.recipient
        message = (
            f"{who} deals {amount} damage to {player}, but no life line follows; write "
            f'`"{player}" life -{amount} by #{source}` right after it (or, for infect, as '
            f'many poison counters: `"{player}" counters +{amount} poison by #{source}`)'
        )
    else:
        target = ctx.state.obj(damage.recipient)
        kind = "defense" if target is not None and target.counter("defense") else "loyalty"
        label = target.label() if target is not None else f"#{damage.recipient}"
        # what is left to remove (decision 0095): all it has, or 0 after another source's
        removed = min(amount, target.counter(kind)) if target is not None else amount
        message = (
            f"{who} deals {amount} damage to {label}, but no {kind} line follows; write "
            f"`#{damage.recipient} counters -{removed} {kind} by #{source}` right after it"
        )
    ctx.report(RULE, message, damage.span or t.Span(0, 0), line=damage.line)
