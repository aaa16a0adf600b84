"""`as destroy` on a move caused by a state-based action.

## What it flags
`#N move battlefield -> graveyard as destroy by sba`. A warning.

## Why
A creature destroyed by lethal or deathtouch damage is written
`move battlefield -> graveyard by sba` (decision 0012 item 5); the state-based action says
which kind of event it is (destroyed for damage, CR 704.5g and 704.5h; put into the
graveyard for 0 toughness or 0 loyalty, CR 704.5f and 704.5i), so `as destroy` would be a
second encoding of the same move (decision 0024 item 4). `as destroy` stays for a
destruction by a spell or ability, `by #N`.

## Example
```mtgr
#21 move battlefield -> graveyard as destroy by sba
```

## Use instead
```mtgr
#21 move battlefield -> graveyard by sba
```

## Rules basis
- Decision 0024 item 4: the destruction by lethal damage has one encoding, without `as destroy`.
- Decision 0012 item 5: a creature destroyed by lethal damage is moved `by sba`.
- CR 704.5g: "If a creature has toughness greater than 0, it has damage marked on it, and the total damage marked on it is greater than or equal to its toughness, that creature has been dealt lethal damage and is destroyed."
- CR 704.5h: "If a creature has toughness greater than 0, and it's been dealt damage by a source with deathtouch since the last time state-based actions were checked, that creature is destroyed."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "B106",
    "Destroy written on a state-based move",
    severity=Severity.WARNING,
    decisions=("0024.4", "0012.5"),
    cr=("704.5g", "704.5h"),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    cause = statement.cause
    kind = statement.kind
    if cause is None or not isinstance(cause.agent, t.Sba) or kind is None:
        return
    if kind.value != "destroy":
        return
    ctx.report(
        RULE,
        "a destruction by a state-based action is written without a kind: "
        "`move battlefield -> graveyard by sba`",
        kind.span,
    )
