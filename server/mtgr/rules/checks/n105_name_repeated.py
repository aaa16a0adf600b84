"""A name given to an object that is already known by that name.

## What it flags
A name written for an object whose name is already known, and the same: `#8 "Serum
Powder" move hand -> exile` after `"Alice" draw #8 "Serum Powder"`, or an `identify` of a
known card. A draw may name the tracked top card it takes, as a draw names what the
perspective player sees (decision 0008 item 3). A warning.

## Why
A name right after the number and `identify` are how a hidden object's name becomes
known (decision 0019 item 4). For an object already known they say nothing
new, and the notation keeps one encoding for one thing (decision 0019): leave the name
out.

## Example
```mtgr
"Alice" draw #8 "Serum Powder"
#8 "Serum Powder" move hand -> exile by #8
```

## Use instead
```mtgr
"Alice" draw #8 "Serum Powder"
#8 move hand -> exile by #8
```

## Rules basis
- Decision 0019 item 4: `new card` whenever the name is known; a name is given once.
- Decision 0008 item 4: a name right after the subject is only for hidden objects; a known object's
  name is not repeated.
- Decision 0001 item 4: one encoding for one thing.
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "N105",
    "Name given again",
    severity=Severity.WARNING,
    decisions=("0008.4", "0001.4", "0019.4"),
    doc=__doc__,
)


def given_name(ctx: Context, statement: t.Statement) -> tuple[int, t.Text] | None:
    """The object a line names, and the name, when the line gives a known object a name
    (the checks that ask run only outside gaps and keyframes, see `describe.quiet`)."""
    # by exact type: the checks that ask run on every object line, most of which name nothing
    kind = type(statement)
    if kind is t.Draw:
        number, name = statement.drawn.number, statement.card
    elif kind is t.Identify:
        number, name = statement.subject.number, statement.card
    elif kind is t.New or not isinstance(statement, t.ObjectStatement):
        return None
    else:
        number, name = statement.subject.number, statement.name
    if name is None:
        return None
    obj = ctx.state.objects.get(number)
    if obj is None or obj.name is None:
        return None
    if isinstance(statement, t.Draw):
        player = ctx.state.player(statement.subject.name)
        if player is None or player.library.top_card() != number:
            return None  # not the tracked top card: O202 or V703
    return number, name


@RULE.on(t.ObjectStatement, t.Draw, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    found = given_name(ctx, statement)
    if found is None:
        return
    number, name = found
    obj = ctx.state.obj(number)
    assert obj is not None
    if obj.name != name.value or isinstance(statement, t.Draw):
        return  # N106; a draw names what the perspective player sees (decision 0008 item 3)
    ctx.report(
        RULE,
        f'#{number} is already known as "{obj.name}": leave the name out',
        name.span,
        related=ctx.where(obj),
    )
