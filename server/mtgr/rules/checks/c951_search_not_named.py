"""A search of another player's library written as a search of one's own.

## What it flags
While a player searches their own library (`"P" search library`), a line that shows the
searched library was another player's: `new card ... library "Q"` with no position, or
a move of a tracked card from Q's library, for Q other than P. The finding is on that
line; the search line is shown with it.

## Why
Any player's library can be searched (CR 701.23a). `search` names whose library is
searched when it is not the searcher's own (decision 0019 item 6), so `"Alice" search
library` is Alice's own library, and the card found comes from it.

## Example
```mtgr
"Alice" search library by #27
#28 new card "Island" library "Bob"
#28 move library -> exile by #27
```

## Use instead
```mtgr
"Alice" search library "Bob" by #27
#28 new card "Island" library "Bob"
#28 move library -> exile by #27
```

## Rules basis
- Decision 0019 item 6: `search` names whose zone is searched when it is not the searcher's own.
- Decision 0006 item 10: `"P" search library ["Q"]`: Q's, named only when it is not P's own.
- CR 701.23a: "To search for a card in a zone, look at all cards in that zone (even if it's a hidden zone) and find a card that matches the given description."
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.describe import library_position
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "C951",
    "Search of another player's library not named",
    severity=Severity.ERROR,
    decisions=("0019.6", "0006.10"),
    cr=("701.23a",),
    doc=__doc__,
)


@RULE.on(t.New, t.Move, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    searching = ctx.state.searching
    if searching is None:
        return
    searcher, owner, line = searching
    if owner != searcher:
        return
    other: str | None = None
    span = None
    if isinstance(statement, t.New):
        place = statement.place
        if place.zone.value == "library" and place.position is None and place.player is not None:
            other, span = place.player.name, place.player.span
    elif isinstance(statement, t.Move) and statement.source.zone.value == "library":
        obj = ctx.state.obj(statement.subject.number)
        # a card found by this search was introduced by a `new` line, reported there
        if obj is not None and obj.zone == "library" and library_position(ctx.state, obj):
            other, span = obj.owner, statement.source.span
    if other is None or other == searcher:
        return
    ctx.report(
        RULE,
        f"{searcher} searches their own library, but #{statement.subject.number} comes from "
        f"{other}'s; a search of another player's library names it: "
        f'`"{searcher}" search library "{other}"`',
        span,
        related=(Related(line, None, "the search"),),
    )
