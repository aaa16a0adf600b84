"""Tapping a tapped permanent, or untapping an untapped one.

## What it flags
A `tap` line for a permanent that is already tapped, or an `untap` line for one that is
already untapped, in the rebuilt state. Permanents enter untapped unless the line says
`tapped`; `attack` taps the attacker unless it says `untapped`.

## Why
Only untapped permanents can be tapped and only tapped permanents can be untapped
(CR 701.26a, 701.26b); a tapped permanent can't be tapped to pay a cost (CR 118.3).
Usually a line that tapped or untapped it earlier is missing, or the number is wrong.

## Example
```mtgr
#22 tap by "Alice"
#22 tap by "Alice"
```

## Use instead
```mtgr
#22 tap by "Alice"
#16 tap by "Alice"
```

## Rules basis
- Decision 0007 item 9: `tap` and `untap` record a permanent becoming tapped or untapped.
- CR 701.26a: "To tap a permanent, turn it sideways from an upright position. Only untapped permanents can be tapped."
- CR 701.26b: "To untap a permanent, rotate it back to the upright position from a sideways position. Only tapped permanents can be untapped."
- CR 110.5b: "Permanents enter the battlefield untapped, unflipped, face up, and phased in unless a spell or ability says otherwise."
"""

from mtgr.rules.context import Context, tapped_here
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "D804",
    "Tap or untap without effect",
    severity=Severity.ERROR,
    decisions=("0007.9",),
    cr=("701.26a", "701.26b", "110.5b"),
    doc=__doc__,
)


@RULE.on(t.TapChange, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.TapChange)
    obj = ctx.state.objects.get(statement.subject.number)
    if obj is None or obj.zone != "battlefield":
        return  # O201, O203 and O204 report those
    tap = statement.verb.value == "tap"
    if obj.tapped != tap:
        return
    if tap:
        message = f"{obj.label()} is already tapped; only an untapped permanent can be tapped"
    else:
        message = f"{obj.label()} is already untapped; only a tapped permanent can be untapped"
    ctx.report(RULE, message, statement.verb.span, related=tapped_here(obj) + ctx.where(obj))
