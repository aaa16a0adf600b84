"""`new hidden` for a card whose name becomes known at once.

## What it flags
A card introduced with `new hidden` whose name becomes known (with `identify`, or a name
right after its number) in the same step, while it is still in the zone it was
introduced in or on the line that moves it out of that zone. The finding is on the line
that names it; the `new hidden` line is shown with it.

## Why
`new card` is used whenever the perspective player knows the name by the time the object
leaves the zone it is introduced in: a card searched for, a card exiled face up from the
top of a library. `new hidden` is only for names that stay hidden. `new hidden` followed
by `identify` writes one moment with two lines, and two encodings of one thing (decision
0019 item 4). A name learned later (a face-down card turned up, a card from a gap's
opening hand cast turns later) is not flagged.

## Example
```mtgr
#33 new hidden library "Bob" top 1
#33 identify "Lightning Bolt" by #31
#33 move library -> exile by #31
```

## Use instead
```mtgr
#33 new card "Lightning Bolt" library "Bob" top 1
#33 move library -> exile by #31
```

## Rules basis
- Decision 0019 item 4: `new card` whenever the perspective player knows the name by the time the
  object leaves the zone it is introduced in; never `new hidden` followed by `identify`.
- Decision 0008 item 2: never `new hidden` followed by `identify` for one moment.
- CR 701.20a: "To reveal a card, show that card to all players for a brief time."
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "V702",
    "new hidden named at once",
    severity=Severity.ERROR,
    decisions=("0019.4", "0008.2"),
    cr=("701.20a",),
    doc=__doc__,
)


@RULE.on(t.ObjectStatement, t.Draw, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    kind = type(statement)  # by exact type: most object lines name nothing, and leave here
    if kind is t.Draw:
        ref, name = statement.drawn, statement.card
    elif kind is t.New or not isinstance(statement, t.ObjectStatement):
        return
    else:
        ref = statement.subject
        name = statement.card if kind is t.Identify else statement.name
    if name is None:
        return
    obj = ctx.state.objects.get(ref.number)
    if obj is None or not obj.hidden or not obj.introduced_hidden:
        return
    if obj.number not in ctx.state.hidden_this_step:
        return
    if obj.zone != obj.introduced_zone or obj.last_moved != obj.introduced:
        return
    ctx.report(
        RULE,
        f"#{obj.number} was introduced with `new hidden` and is named now, before it "
        f"leaves the zone it was introduced in; introduce it as "
        f'`#{obj.number} new card "{name.value}" ...` and leave out this name '
        "(decision 0019 item 4)",
        name.span,
        related=(
            Related(obj.introduced, None, f"#{obj.number} introduced here with `new hidden`"),
        ),
    )
