"""A spell or ability resolves although every one of its targets has become illegal.

## What it flags
A `resolve` line for a spell or ability whose targets, as its `target` line gave them,
have all become illegal since: every targeted object has left the zone it was in when it
was targeted (or ceased to exist), and every targeted player has left the game. A spell
cast with `bestow` or `mutate` is not flagged: with its target illegal it becomes a
creature spell and resolves (CR 608.3b), `#N resolve -> battlefield`.

## Why
As a spell or ability resolves, it checks its targets; one that is no longer in the zone
it was in when it was targeted is illegal, and if all its targets are illegal, it does
not resolve: it is removed from the stack, a spell goes to its owner's graveyard, and
none of its effects happen (CR 608.2b). The notation writes that as `fizzle` (decision
0011 item 7). The checker sees only zone changes and players who left: other reasons a
target becomes illegal (protection, hexproof, a changed type) are card text.

## Example
```mtgr
#22 cast
#22 target #7
#30 cast
#30 target #7
#30 resolve
#7 move battlefield -> exile by #30
#22 resolve
```

## Use instead
```mtgr
#22 fizzle
```

## Rules basis
- Decision 0044 item 3, decision 0011 item 7.
- CR 608.2b: "A target that's no longer in the zone it was in when it was targeted is illegal."
- CR 608.2b: "are now illegal, the spell or ability doesn't resolve. It's removed from the stack and, if it's a spell, put into its owner's graveyard."
- CR 608.3b: "If a spell with an illegal target is a bestowed Aura spell (see rule 702.103e) or a mutating creature spell (see rule 702.140b), it becomes a creature spell and will resolve as described in rule 608.3a."
"""

from mtgr.rules.context import Context, Related
from mtgr.rules.describe import quiet
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import target_illegal
from mtgr.syntax import tree as t

RULE = define(
    "K331",
    "Resolves with every target illegal",
    severity=Severity.ERROR,
    decisions=("0044.3", "0011.7"),
    cr=("608.2b", "608.3b"),
    doc=__doc__,
)


@RULE.on(t.Leave)
def check(ctx: Context, statement: t.Statement) -> None:
    if statement.verb.value != "resolve" or quiet(ctx):
        return
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None or not obj.targets or not state.stack or state.stack[-1] != obj.number:
        return
    if obj.creature_if_target_illegal:
        return  # bestowed or mutating: it resolves as a creature spell (CR 608.3b)
    if not all(target_illegal(state, mark) for mark in obj.targets):
        return
    related: list[Related] = []
    for what, _zone, _moved in obj.targets:
        target = state.obj(what) if isinstance(what, int) else None
        if target is not None and target.last_moved is not None:
            related.append(Related(target.last_moved, None, f"{target.label()} left here"))
    ctx.report(
        RULE,
        f"every target of {obj.label()} has become illegal (each has left the zone it was "
        "targeted in, or the game), so it does not resolve and none of its effects happen "
        f"(CR 608.2b): write `#{obj.number} fizzle`",
        statement.verb.span,
        related=tuple(related),
    )
