"""A hidden card revealed without its name.

## What it flags
A `reveal` line for a hidden object that does not name it: `#1 reveal by #1` where #1's
name is not known yet.

## Why
To reveal a card is to show it to all players (CR 701.20a), so after a reveal the
perspective player knows its name. The name goes right after the number on the reveal
line itself: `#1 "Chancellor of the Annex" reveal by #1`.

## Example
```mtgr
"Bob" draw #1
#1 reveal by #1
```

## Use instead
```mtgr
"Bob" draw #1
#1 "Chancellor of the Annex" reveal by #1
```

## Rules basis
- Decision 0008 item 7: a hidden object being revealed is named on the line.
- CR 701.20a: "To reveal a card, show that card to all players for a brief time."
- CR 103.6b: "If a card allows a player to reveal it from their opening hand, the player taking this action does so."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "V704",
    "Revealed without its name",
    severity=Severity.ERROR,
    decisions=("0008.7",),
    cr=("701.20a", "103.6b"),
    doc=__doc__,
)


@RULE.on(t.Reveal)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Reveal)
    if quiet(ctx) or statement.name is not None:
        return
    obj = ctx.state.obj(statement.subject.number)
    if obj is None or not obj.hidden:
        return
    ctx.report(
        RULE,
        f"#{obj.number} is revealed, but its name is not written; a revealed card is shown "
        f'to all players: name it on this line, `#{obj.number} "Name" reveal`',
        statement.verb.span,
        related=ctx.where(obj),
    )
