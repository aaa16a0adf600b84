"""Damage to a player or a planeswalker with no life or loyalty line after it.

## What it flags
A `damage K -> "P"` (or `-> #M` for a planeswalker or battle) that no result line
follows: the lines after a damage line, up to the next line that is not a damage, life
or counters line (or the end of the file), must include `"P" life -K by #N` (or poison
counters for infect: as many as the damage), or `#M counters -K loyalty by #N`. Fewer
poison counters (toxic's) are not the damage's result: its life line is still due; any
number with `replacement #R` (Vorinclex) is, and more from the same source when its text
or an effect on it may give it toxic (infect and toxic on one line). Damage to a player whose life
total an effect keeps from changing (Platinum Emperion) is settled by `"P" life -0 by #N`,
damage with infect to a player who can't get counters (Solemnity) by
`"P" counters +0 poison by #N`, or, with a card index, by no line while a permanent whose
text keeps players from getting counters is on the battlefield,
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
- Decision 0111 item 2: poison counters from a source's damage, in another number than the damage's, settle it.
- CR 120.3a: "Damage dealt to a player by a source without infect causes that player to lose that much life."
- CR 120.3b: "Damage dealt to a player by a source with infect causes that source's controller to give the player that many poison counters."
- CR 120.3c: "Damage dealt to a planeswalker causes that many loyalty counters to be removed from that planeswalker."
"""

from mtgr.rules.card_facts import could_be_given
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import GameObject, PendingDamage
from mtgr.syntax import tree as t

RULE = define(
    "D801",
    "Damage without its result",
    severity=Severity.ERROR,
    decisions=("0019.5", "0012.4", "0089.1", "0095.2", "0111.2"),
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
        if _poison_kept_off(ctx, source_obj):
            return
        infect = _may_have(ctx, source_obj, "infect")
        if damage.poison and not infect:
            message = (
                f"{who} has no infect, so its {amount} damage makes {player} lose {amount} "
                f"life (CR 120.3a), and the poison counters its toxic gives come beside it "
                f'(CR 702.164c): write `"{player}" life -{amount} by #{source}` too'
            )
        elif damage.poison == amount or (damage.poison and _may_have(ctx, source_obj, "toxic")):
            return  # infect's poison counters, with toxic's beside them
        else:
            message = (
                f"{who} deals {amount} damage to {player}, but no life line follows; write "
                f'`"{player}" life -{amount} by #{source}` right after it (or, for infect, '
                f'as many poison counters: `"{player}" counters +{amount} poison by #{source}`)'
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


# words of a permanent that keeps players from getting counters (Solemnity)
_NO_COUNTERS = ("can't get counters", "can't get poison counters")


def _poison_kept_off(ctx: Context, source: GameObject | None) -> bool:
    """Damage from a source with infect, while a permanent may keep players from getting
    counters: it may have no result to write (decision 0111 item 2)."""
    if ctx.cards is None or source is None:
        return False
    if ctx.card(source) is None or not could_be_given(ctx, source, ("infect",)):
        return False  # (its own text counts: could_be_given reads it, keywords and all)
    return any(
        (permanent := ctx.card(other)) is not None
        and any(permanent.text_mentions(words) for words in _NO_COUNTERS)
        for other in ctx.state.objects.values()
        if other.zone == "battlefield"
    )


def _may_have(ctx: Context, source: GameObject | None, keyword: str) -> bool:
    """Whether the source may have infect or toxic: its text, an effect on it or a permanent
    that may give it; a source the card index does not read may have anything, a toxic the
    lines show no sign of only where an effect says it."""
    if source is None:
        return keyword == "infect"
    if keyword == "infect" and (source.face_down or ctx.card(source) is None):
        return True
    return could_be_given(ctx, source, (keyword,))
