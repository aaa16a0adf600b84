"""A discard, sacrifice, destroy or mill from the wrong zone.

## What it flags
A `move` with `as discard` from a zone other than a hand, `as sacrifice` or
`as destroy` from a zone other than the battlefield, or `as mill` from a zone other
than a library.

## Why
Each of these words names a way a card leaves one particular zone: a discard leaves a
hand (CR 701.9a), a destroyed or sacrificed permanent leaves the battlefield
(CR 701.8a, 701.21a), a milled card leaves the top of a library (CR 701.17a). A card
leaving another zone is an ordinary move, or the source zone is wrong.

## Example
```mtgr
#14 move graveyard -> exile as discard by #22
```

## Use instead
```mtgr
#14 move graveyard -> exile by #22
```

## Rules basis
- Decision 0007 item 2: `as discard` (hand to graveyard), `as sacrifice` and `as destroy`
  (battlefield to graveyard), `as mill` (library to graveyard).
- CR 701.9a: "To discard a card, move it from its owner's hand to that player's graveyard."
- CR 701.8a: "To destroy a permanent, move it from the battlefield to its owner's graveyard."
- CR 701.17a: "For a player to mill a number of cards, that player puts that many cards from the top of their library into their graveyard."
- CR 701.21a: "To sacrifice a permanent, its controller moves it from the battlefield directly to its owner's graveyard."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import KIND_SOURCE, from_zone
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "R602",
    "Discard, sacrifice, destroy or mill from the wrong zone",
    severity=Severity.ERROR,
    decisions=("0007.2",),
    cr=("701.9a", "701.8a", "701.17a", "701.21a"),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.kind is None:
        return
    kind = statement.kind.value
    wanted = KIND_SOURCE[kind]
    zone = statement.source.zone.value
    if zone == wanted:
        return
    ctx.report(
        RULE,
        f"{_label(ctx, statement)} moves {from_zone(zone)} as {kind}, but a {kind} "
        f"moves a card {from_zone(wanted)}; correct the zone, or leave out `as {kind}`",
        statement.kind.span,
    )


def _label(ctx: Context, statement: t.Move) -> str:
    obj = ctx.state.obj(statement.subject.number)
    return obj.label() if obj is not None else f"#{statement.subject.number}"
