"""A player named where the notation implies that player.

## What it flags
- `"P" search library "P"` or `"P" shuffle library "P"`: P's own library named;
- `-> hand "P"`, `-> graveyard "P"`, `-> library "P"` naming the card's owner, on a
  `move`, `resolve`, `fizzle` or `countered` line.
A warning.

## Why
`search` names whose library is searched only when it is not the searcher's own (decision
0019 item 6), and a card only ever goes to its owner's hand, graveyard or library
(CR 400.3), so the owner's name says nothing. The notation keeps one encoding for one
thing (decision 0019): leave the name out.

## Example
```mtgr
"Alice" search library "Alice" by #27
#4 move hand -> graveyard "Bob" as discard by #18
```

## Use instead
```mtgr
"Alice" search library by #27
#4 move hand -> graveyard as discard by #18
```

## Rules basis
- Decision 0019 item 6: `search` names whose zone is searched when it is not the searcher's own.
- Decision 0006 item 3: the player is written only where the default is wrong; owned zones are the
  object's owner's.
- CR 400.3: "If an object would go to any library, graveyard, or hand other than its owner's, it goes to its owner's corresponding zone."
"""

from mtgr.rules.context import Context
from mtgr.rules.describe import named_owned_destination
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "N107",
    "Implied player named",
    severity=Severity.WARNING,
    decisions=("0019.6", "0006.3"),
    cr=("400.3",),
    doc=__doc__,
)


@RULE.on(t.LibraryAction)
def check_library(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.LibraryAction)
    owner = statement.owner
    if owner is None or owner.name != statement.subject.name:
        return
    verb = statement.verb.value
    verbs = "searches" if verb == "search" else "shuffles"
    zone = statement.zone.value if statement.zone is not None else "library"
    ctx.report(
        RULE,
        f"{owner.name} {verbs} their own {zone}: leave out the name, "
        f'`"{owner.name}" {verb} {zone}`',
        owner.span,
    )


@RULE.on(t.Move, t.Leave)
def check_destination(ctx: Context, statement: t.Statement) -> None:
    named = named_owned_destination(ctx, statement)
    if named is None:
        return
    destination, player, obj = named
    zone = destination.zone.value
    if obj.owner != player.name:
        return
    ctx.report(
        RULE,
        f"{obj.label()} is {obj.owner}'s, and a card only goes to its owner's {zone}: "
        f"leave out the name, `-> {zone}`",
        player.span,
    )
