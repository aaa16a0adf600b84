"""A `new` line in a library at a position that is taken or out of range.

## What it flags
A `new ... library "P" top K` (or `bottom K`) when a tracked card already stands at that
position, or when K is larger than the number of cards the library is known to have.

## Why
Cards looked at from the top of a library are recorded as the top cards, each at its own
position (decision 0019 item 3). Tracked library cards have positions and are not
interchangeable (decision 0019 item 2, CR 400.5): two objects can't stand at one
position, and a library of five cards has no sixth card from the top.

## Example
```mtgr
#41 new card "Mycospawn" library "Alice" top 1
#42 new card "Forest" library "Alice" top 1
```

## Use instead
```mtgr
#41 new card "Mycospawn" library "Alice" top 1
#42 new card "Forest" library "Alice" top 2
```

## Rules basis
- Decision 0019 item 3: `new` lines in a library can give a position, `top N` or `bottom N`.
- Decision 0019 item 2: tracked library cards have positions and are not interchangeable.
- Decision 0006 item 4: `top K` is the K-th card from the top and `bottom K` the K-th from the
  bottom.
- CR 400.5: "The order of objects in a library, in a graveyard, or on the stack can't be changed except when effects or rules allow it."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "V705",
    "Library position taken or out of range",
    severity=Severity.ERROR,
    decisions=("0019.3", "0019.2", "0006.4"),
    cr=("400.5",),
    doc=__doc__,
)


@RULE.on(t.New)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.New)
    place = statement.place
    if place.zone.value != "library" or place.position is None or place.player is None:
        return
    state = ctx.state
    if state.in_keyframe is not None:
        return
    player = state.player(place.player.name)
    if player is None:
        return
    library = player.library
    end = place.position.end.value
    index = place.position.index
    size = library.size if state.stage is not Stage.GAP else None
    same, other = (library.top, library.bottom) if end == "top" else (library.bottom, library.top)
    taken = same[index - 1] if index <= len(same) else None
    if taken is None and size is not None and 1 <= size - index + 1 <= len(other):
        taken = other[size - index]
    taken_obj = state.obj(taken) if taken not in (None, statement.subject.number) else None
    if taken_obj is not None and (state.stage is not Stage.GAP or taken_obj.introduced_after_gap):
        ctx.report(
            RULE,
            f"{taken_obj.label()} already stands at {end} {index} of {player.name}'s library; "
            f"give #{statement.subject.number} a free position ({end} {_free(same)})",
            place.position.end.span,
            related=ctx.where(taken_obj),
        )
        return
    if size is not None and index > size:
        ctx.report(
            RULE,
            f"{player.name}'s library has {size} card{'s' if size != 1 else ''}, so it has no "
            f"{end} {index}",
            place.position.end.span,
        )


def _free(positions: tuple[int | None, ...]) -> int:
    """The first position of a top or bottom list that no tracked card holds."""
    for index, number in enumerate(positions, 1):
        if number is None:
            return index
    return len(positions) + 1
