"""A name given to an object that is already known by another name.

## What it flags
A name written for an object whose name is already known, and different: a name right
after the number, an `identify`, or a draw that names the tracked top card.

## Why
An object has one name (CR 201.2), and a name written for it says which card it is.
Two different names for one number mean that the number is wrong (another object was
meant) or that one of the names is.

## Example
```mtgr
"Alice" draw #8 "Serum Powder"
#8 "Swamp" play
```

## Use instead
```mtgr
"Alice" draw #8 "Serum Powder"
"Alice" draw #9 "Swamp"
#9 play
```

## Rules basis
- Decision 0004 item 7: the notation does not rename a known object.
- CR 201.2: "A card's name is always considered to be the English version of its name, regardless of printed language."
"""

from mtgr.rules.checks.n105_name_repeated import given_name
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "N106",
    "Name conflicts with the known name",
    severity=Severity.ERROR,
    decisions=("0004.7",),
    cr=("201.2",),
    doc=__doc__,
)


@RULE.on(t.ObjectStatement, t.Draw, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    found = given_name(ctx, statement)
    if found is None:
        return
    number, name = found
    obj = ctx.state.obj(number)
    assert obj is not None
    if obj.name == name.value:
        return  # N105
    ctx.report(
        RULE,
        f'#{number} is known as "{obj.name}", not "{name.value}"; correct the number or the name',
        name.span,
        related=ctx.where(obj),
    )
