"""The permanent a player kept under the legend rule, moved `by sba` with nothing else to explain it.

## What it flags
A `move battlefield -> graveyard by sba` of the permanent that a `"P" choose #M by sba`
line kept (decision 0061), in the same state-based actions (before the next line that
comes after priority), when the rebuilt state shows nothing else that would put it there:
no damage marked, no counters, no loyalty counter just removed, no attachment, no lasting
effect on it. Unlike B105, a permanent that entered in this step is not taken to have
toughness 0 from its card: the legend rule's choice is usually made as the second
permanent enters. An information, not an error: without card data the checker cannot see
a toughness of 0 from the card (a legendary creature that enters with X +1/+1 counters and
has none) or from another permanent's static ability, which can put the kept permanent
into the graveyard in the same event.

## Why
Under the legend rule the player chooses one of the legendary permanents, and the rest are
put into their owners' graveyards (CR 704.5j): the chosen one stays. When the record moves
it instead, the wrong permanent is often numbered in the move or in the choice.

## Example
```mtgr
"Alice" choose #3 by sba
#3 move battlefield -> graveyard by sba
```

## Use instead
```mtgr
"Alice" choose #3 by sba
#2 move battlefield -> graveyard by sba
```

## Rules basis
- Decision 0061 item 4: the kept permanent stays unless something else explains its move.
- Decision 0024 item 3: a move `by sba` is explained by what the lines show.
- CR 704.5j: "If two or more legendary permanents with the same name are controlled by the same player, that player chooses one of them, and the rest are put into their owners' graveyards."
"""

from __future__ import annotations

from mtgr.rules.checks.b105_sba_move_unexplained import explained_but_by_the_legend_rule
from mtgr.rules.context import Context, Related
from mtgr.rules.describe import sba_cause_off_the_battlefield
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "B108",
    "Permanent kept under the legend rule moved by sba",
    severity=Severity.INFORMATION,
    decisions=("0061.4", "0024.3"),
    cr=("704.5j",),
    doc=__doc__,
)


@RULE.on(t.Move)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, t.Move)
    cause = sba_cause_off_the_battlefield(ctx, statement)
    if cause is None:
        return
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None or obj.zone != "battlefield" or obj.kept_by_legend is None:
        return
    if explained_but_by_the_legend_rule(state, obj):
        return
    ctx.report(
        RULE,
        f"{obj.controller} kept {obj.label()} under the legend rule, which puts the others "
        "into their owners' graveyards (CR 704.5j), and nothing else in the lines explains "
        "this move: is the wrong permanent numbered here or in the choice?",
        statement.subject.span,
        related=(Related(obj.kept_by_legend, None, "the legend rule's choice"),),
    )
