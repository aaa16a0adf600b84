"""A pregame die roll whose result the dice cannot show.

## What it flags
A `roll` line in the pregame, without a cause, whose result is below the number of dice or
above what they can show together: `"Alice" roll d20 21`, `"Bob" roll 2d6 1`. A roll an
effect instructs (`by C`) is not judged: its result is the one the effect uses, after any
modifiers (decision 0110).

## Why
A K-sided die has K equally likely outcomes, numbered from 1 to K (CR 706.1a), so N of them
show a total from N to N times K. The pregame roll that decides who chooses the starting
player has no modifiers: a result outside that range is a typo, and the choice it decided
may be the wrong player's.

## Example
```mtgr
"Alice" roll d20 21
"Bob" roll d20 17
```

## Use instead
```mtgr
"Alice" roll d20 12
"Bob" roll d20 17
```

## Rules basis
- Decision 0009 item 2: the pregame die roll, one line a roll.
- Decision 0110 item 1: `[N]dK`, N dice of K sides, and their total.
- CR 706.1a: "the die must have N equally likely outcomes, numbered from 1 to N."
- CR 103.1: "the players may use any mutually agreeable method (flipping a coin, rolling dice, etc.) to do so."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "P512",
    "Die roll result the dice cannot show",
    severity=Severity.ERROR,
    decisions=("0009.2", "0110.1"),
    cr=("706.1a", "103.1"),
    doc=__doc__,
)


@RULE.on(t.Roll, stages=(Stage.HEADER, Stage.PREGAME))
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Roll)
    if not ctx.state.decides_who_chooses(statement):
        return  # an effect's roll (`by C`): its result after modifiers is not judged
    count, sides = statement.dice()
    result = statement.result.value
    if count >= 1 and sides >= 1 and count <= result <= count * sides:
        return
    if count < 1 or sides < 1:
        ctx.report(
            RULE,
            f"`{statement.die.value}` is no die: write `d20`, or `2d6` for two six-sided dice "
            "(CR 706.1a)",
            statement.die.span,
        )
        return
    dice = f"a {sides}-sided die shows" if count == 1 else f"{count} {sides}-sided dice show"
    ctx.report(
        RULE,
        f"{dice} {count} to {count * sides}, not {result} (CR 706.1a)",
        statement.result.span,
    )
