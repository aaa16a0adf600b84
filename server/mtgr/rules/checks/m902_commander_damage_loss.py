"""The game goes on after a player was dealt 21 combat damage by one commander.

## What it flags
The first line after a commander's combat damage brought a player's total from that
commander to 21 or more that is not a result of that damage, another state-based action
or that player leaving the game: a `turn`, `step` or `phase` line, a spell, an attack. A
triggered ability is not flagged: it is written as it triggers, before state-based actions
are checked (decision 0024 item 1), so a trigger of the same damage may stand between the
damage and the loss. At the end of the file, the damage line itself. Damage from two
partner commanders is counted separately.
Not reported while a lasting effect on the lines is about losing the game, nor, with a
card index, while a permanent's text says a player can't lose it (Platinum Angel,
Phyrexian Unlife): a "can't" effect wins (CR 101.2).

## Why
In a Commander game, a player who has been dealt 21 or more combat damage by the same
commander over the course of the game loses the game, as a state-based action (CR
903.10a, 704.6c). State-based actions are performed before any player receives priority,
so the loss comes before anything else happens, and the record writes it: `"P" lose by
sba`.

## Example
```mtgr
#1 damage 7 -> "Bob" // Bob's 21st point of combat damage from #1
"Bob" life -7 by #1
step end-of-combat
```

## Use instead
```mtgr
#1 damage 7 -> "Bob" // Bob's 21st point of combat damage from #1
"Bob" life -7 by #1
"Bob" lose by sba
step end-of-combat
```

## Rules basis
- Decision 0031 item 5: combat damage counted per commander; the loss follows the damage
  and its results.
- Decision 0024 item 1: a triggered ability is written as it triggers, before state-based
  actions are checked.
- CR 903.10a: "A player who's been dealt 21 or more combat damage by the same commander over the course of the game loses the game. (This is a state-based action. See rule 704.)"
- CR 704.6c: "In a Commander game, a player who's been dealt 21 or more combat damage by the same commander over the course of the game loses the game."
- CR 702.124d: "When determining whether a player has been dealt 21 or more combat damage by the same commander, consider damage from each of your two commanders separately (see rule 903.10a)."
- CR 101.2: "When a rule or effect allows or directs something to happen, and another effect states that it can't happen," the effect that says it can't wins.
"""

from __future__ import annotations

from mtgr.rules.apply import at_sba_time
from mtgr.rules.card_facts import a_loss_may_be_stopped
from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "M902",
    "Game goes on after 21 combat damage from one commander",
    severity=Severity.ERROR,
    decisions=("0031.5", "0024.1"),
    cr=("903.10a", "704.6c", "702.124d", "101.2"),
    doc=__doc__,
)


@RULE.on(t.Statement, with_commander_losses=True)
def check(ctx: Context, statement: t.Statement) -> None:
    if at_sba_time(statement) or _written_as_it_triggers(statement):
        return
    if a_loss_may_be_stopped(ctx):
        return  # Platinum Angel: the player stays in the game (CR 101.2)
    for player, commander, line, _span in ctx.state.commander_losses:
        ctx.report(
            RULE,
            f"{player} has been dealt 21 or more combat damage by {_label(ctx, commander)}: "
            f'{player} loses the game before anything else happens; write `"{player}" lose by '
            "sba` above this line (CR 704.6c)",
            statement.verb.span,
            related=(Related(line, None, "the 21st point of commander damage"),),
        )


@RULE.at_end
def at_end(ctx: Context) -> None:
    if a_loss_may_be_stopped(ctx):
        return
    for player, commander, line, span in ctx.state.commander_losses:
        ctx.report(
            RULE,
            f"{player} has been dealt 21 or more combat damage by {_label(ctx, commander)}: "
            f'write `"{player}" lose by sba` after this damage and its results (CR 704.6c)',
            span or t.Span(0, 0),
            line=line,
        )


def _written_as_it_triggers(statement: t.Statement) -> bool:
    return isinstance(statement, t.AbilityOf) and statement.verb.value != "activate"


def _label(ctx: Context, commander: int) -> str:
    obj = ctx.state.obj(commander)
    return obj.label() if obj is not None else f"#{commander}"
