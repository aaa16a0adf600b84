"""A split card cast with a half that is not one of its names, or with both a half and fuse.

## What it flags
`#N cast half "Name"` (decision 0064) when the card's name is written with " // " (on the
line or earlier) and "Name" is none of the names it joins; and a `cast` with both `half`
and `fuse`. A card whose name is not known, or is written without " // ", is not checked:
without card data the checker does not know its halves.

## Why
A split card has two names, one a half (CR 709.4a); the player casting it chooses one half
(CR 709.3), or with fuse both (CR 702.102a), so a half that the card does not have, or one
half and both at once, cannot be what happened.

## Example
```mtgr
#5 "Fire // Ice" cast half "Fire // Ice"
```

## Use instead
```mtgr
#5 "Fire // Ice" cast half "Ice"
```

## Rules basis
- Decision 0064 items 1 and 5: `half` and `fuse`, and what the checker reports.
- CR 709.3: "A player chooses which half of a split card they are casting before putting it onto the stack."
- CR 709.4a: "Each split card has two names."
- CR 702.102a: "If a player casts a split card with fuse from their hand, the player may choose to cast both halves of that split card rather than choose one half."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "O231",
    "Half not of the split card",
    severity=Severity.ERROR,
    decisions=("0064.1", "0064.5"),
    cr=("709.3", "709.4a", "702.102a"),
    doc=__doc__,
)

SEPARATOR = " // "


@RULE.on(t.Cast)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Cast)
    half = statement.half
    if half is None or quiet(ctx):
        return
    fused = next((m for m in statement.modes if m.value == "fuse"), None)
    if fused is not None:
        ctx.report(
            RULE,
            "`fuse` casts both halves and `half` one of them: write one of the two "
            "(CR 702.102a, 709.3)",
            fused.span,
        )
        return
    obj = ctx.state.obj(statement.subject.number)
    name = statement.name.value if statement.name is not None else obj.name if obj else None
    if name is None or SEPARATOR not in name:
        return
    halves = [part.strip() for part in name.split(SEPARATOR)]
    if half.value in halves:
        return
    choices = " or ".join(f'`half "{h}"`' for h in halves)
    ctx.report(
        RULE,
        f'"{half.value}" is not a half of {name}: write {choices} (CR 709.3, 709.4a)',
        half.span,
    )
