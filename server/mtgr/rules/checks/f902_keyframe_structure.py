"""A keyframe that is not well formed.

## What it flags
- `end` with no open keyframe;
- `keyframe` inside an open keyframe;
- a keyframe entry (`#N ZONE ...`, `"P" life K`, `"P" library K`, `"P" counters K KIND`)
  outside a keyframe;
- any other statement inside a keyframe (a designation, `day` or `night`, a venture or a
  Ring-bearer without cause is an entry there);
- a keyframe still open at the end of the file;
- a commander damage entry (`"P" damage K from #M`) whose #M is not a commander.

## Why
A keyframe is a snapshot of the whole state between `keyframe` and `end`, made only of
entries (decision 0019 item 8). An event inside it would change the state it describes,
and an entry outside one looks like an event but says nothing happened.

## Example
```mtgr
keyframe
#22 battlefield "Alice"
#22 tap by "Alice"
end
```

## Use instead
```mtgr
#22 tap by "Alice"
keyframe
#22 battlefield "Alice" tapped
end
```

## Rules basis
- Decision 0019 item 8: after `incomplete`, `new` lines before the next keyframe introduce objects
  where that keyframe shows them.
- Decision 0015 item 4: `keyframe` begins a snapshot and `end` ends it; its entries may stand only
  inside it.
- Decision 0060 item 2: a designation, `day` or `night` without cause is a keyframe entry.
- Decision 0063 item 4: a venture without cause is a keyframe entry.
- Decision 0062 item 6: a Ring-bearer line without cause is a keyframe entry.
- Decision 0101 item 2: a keyframe's commander damage entry names a commander.
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import LineId
from mtgr.syntax import tree as t

RULE = define(
    "F902",
    "Keyframe structure",
    severity=Severity.ERROR,
    decisions=("0015.4", "0019.8", "0060.2", "0063.4", "0062.6", "0101.2"),
    doc=__doc__,
)

_ENTRIES = (t.SnapshotObject, t.SnapshotPlayer)
_STRUCTURE = (t.Marker, *_ENTRIES)
_DESIGNATIONS = (t.Designation, t.DayNight, t.Venture, t.RingTempts)


@RULE.on(*_STRUCTURE)
def check_structure(ctx: Context, statement: t.Statement) -> None:
    opened = ctx.state.in_keyframe
    if isinstance(statement, t.Marker) and statement.verb.value == "end":
        if opened is None:
            ctx.report(RULE, "`end` closes no keyframe: there is no open `keyframe` above")
        return
    if isinstance(statement, t.Marker) and statement.verb.value == "keyframe":
        if opened is not None:
            ctx.report(
                RULE,
                "`keyframe` inside an open keyframe: close the first one with `end`",
                related=_opened_here(opened),
            )
        return
    if isinstance(statement, _ENTRIES):
        if opened is None:
            ctx.report(
                RULE,
                "a keyframe entry outside a keyframe: put it between `keyframe` and `end`, "
                "or write the event that happened",
            )
        elif isinstance(statement, t.SnapshotPlayer) and statement.commander is not None:
            _commander_damage_source(ctx, statement.commander)
        return
    if opened is not None:
        _event_inside(ctx, opened)  # `incomplete`


@RULE.on(t.Statement, inside_keyframes=True)
def check_event(ctx: Context, statement: t.Statement) -> None:
    """Any other line inside an open keyframe (the walk calls this only there)."""
    opened = ctx.state.in_keyframe
    if opened is None or isinstance(statement, _STRUCTURE):
        return  # `check_structure`'s
    if isinstance(statement, _DESIGNATIONS) and statement.cause is None:
        return  # `"P" monarch`, `day`, `"P" venture "Room"`: entries (0060.2, 0063.4)
    _event_inside(ctx, opened)


def _commander_damage_source(ctx: Context, commander: t.ObjectRef) -> None:
    """`"P" damage K from #M` counts a commander's combat damage (decision 0101 item 2)."""
    obj = ctx.state.obj(commander.number)
    if obj is None or commander.number in ctx.state.commanders:
        return  # O201
    ctx.report(
        RULE,
        f"{obj.label()} is not a commander: a keyframe lists combat damage only from a "
        "commander (introduce it with `new commander`)",
        commander.span,
        related=ctx.where(obj),
    )


def _event_inside(ctx: Context, opened: LineId) -> None:
    ctx.report(
        RULE,
        'only entries stand inside a keyframe (`#N ZONE ...`, `"P" life K`, '
        '`"P" library K`, `"P" counters K KIND`, `"P" monarch`, `day`): close it with '
        "`end` first",
        related=_opened_here(opened),
    )


def _opened_here(opened: LineId) -> tuple[Related, ...]:
    return (Related(opened, None, "keyframe opened here"),)


@RULE.at_end
def at_end(ctx: Context) -> None:
    opened = ctx.state.in_keyframe
    if opened is not None:
        ctx.report(
            RULE, "keyframe still open at the end of the file: close it with `end`", line=opened
        )
