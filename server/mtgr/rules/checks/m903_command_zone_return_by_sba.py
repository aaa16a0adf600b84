"""A move to the command zone by a state-based action that none allows.

## What it flags
A `move ... -> command by sba` of a commander from a zone other than a graveyard or exile,
and of an object that is not a commander. Nothing is judged in a gap or inside a keyframe.

## Why
A commander in a graveyard or in exile may go to the command zone as a state-based action
(CR 903.9a), written `#N move graveyard -> command by sba` (decision 0031 item 4). A
commander that would go to its owner's hand or library goes to the command zone instead:
that is a replacement of the event, written as the move that happened, `-> command`, with
the event's own cause (CR 903.9b). Once it is in a hand or a library, no rule returns it,
and no state-based action puts any other object into the command zone.

## Example
```mtgr
#1 move battlefield -> hand by #3
#1 move hand -> command by sba
```

## Use instead
```mtgr
#1 move battlefield -> command by #3
```

## Rules basis
- Decision 0031 item 4: a commander goes from a graveyard or exile to the command zone `by sba`; one that would go to a hand or library is written as the move that happened, `-> command`, with the event's own cause.
- Decision 0097 item 1: in a gap, a commander is introduced with `new commander` where the keyframe shows it.
- CR 903.9a: "If a commander is in a graveyard or in exile and that object was put into that zone since the last time state-based actions were checked, its owner may put it into the command zone. This is a state-based action."
- CR 903.9b: "If a commander would be put into its owner's hand or library from anywhere, its owner may put it into the command zone instead."
"""

from mtgr.rules.apply import by_sba
from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "M903",
    "Moved to the command zone by a state-based action none allows",
    severity=Severity.ERROR,
    decisions=("0031.4", "0097.1"),
    cr=("903.9a", "903.9b"),
    doc=__doc__,
)

_RETURNS_FROM = ("graveyard", "exile")


@RULE.on(t.Move, outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    if statement.destination.zone.value != "command" or not by_sba(statement):
        return
    source = statement.source.zone.value
    obj = ctx.state.obj(statement.subject.number)
    label = obj.label() if obj is not None else f"#{statement.subject.number}"
    if statement.subject.number not in ctx.state.commanders:
        ctx.report(
            RULE,
            f"{label} is not a commander: only a commander goes to the command zone as a "
            "state-based action (CR 903.9a); name the effect that put it there, or, for a "
            "commander, introduce it with `new commander` (decision 0097 in a gap)",
            statement.cause.keyword if statement.cause is not None else statement.verb.span,
        )
    elif source not in _RETURNS_FROM:
        ctx.report(
            RULE,
            f"{label} is in a {source}: a commander returns by a state-based action only from "
            "a graveyard or exile (CR 903.9a); one that would go to a hand or library goes to "
            "the command zone instead, written as that move, `-> command` with its cause "
            "(CR 903.9b, decision 0031 item 4)",
            statement.source.span,
        )
