"""A self-replacement effect listed after another replacement.

## What it flags
A line whose cause, the spell or ability that is resolving (`by #N`), also stands in its
`replacement` list, but not first: `by #23 replacement #2 #23`. A cause that is not
resolving (a permanent's static ability) has no self-replacement effect and is not
flagged.

## Why
An effect of a resolving spell or ability that replaces part of that same spell's or
ability's own effect is a self-replacement effect, and self-replacement effects are
applied before any other replacement effect (CR 614.15, 616.1a). The list gives the
replacements in the order they applied (decision 0018 item 5, decision 0040 item 3), so
the cause's own replacement comes first.

## Example
```mtgr
#24 new token "Scute Swarm" battlefield "Alice" by #23 replacement #2 #23
```

## Use instead
```mtgr
#24 new token "Scute Swarm" battlefield "Alice" by #23 replacement #23 #2
```

## Rules basis
- Decision 0018 item 5, decision 0040 item 3.
- CR 614.15: "When applying replacement effects to an event, self-replacement effects are applied before other replacement effects."
- CR 616.1a: "If any of the replacement and/or prevention effects are self-replacement effects (see rule 614.15), one of them must be chosen."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "R630",
    "Self-replacement not first",
    severity=Severity.ERROR,
    decisions=("0018.5", "0040.3"),
    cr=("614.15", "616.1a"),
    doc=__doc__,
)


@RULE.on(t.Statement, with_replacements=True)
def check(ctx: Context, statement: t.Statement) -> None:
    replacements = statement.replacements
    cause = statement.cause
    if len(replacements) < 2 or cause is None or not isinstance(cause.agent, t.ObjectRef):
        return
    own = cause.agent.number
    if replacements[0].number == own or ctx.state.resolving != own:
        return  # only a resolving spell or ability has self-replacement effects (614.15)
    for ref in replacements[1:]:
        if ref.number == own:
            ctx.report(
                RULE,
                f"#{own} is the resolving object and its own replacement applies first "
                f"(a self-replacement effect, CR 614.15, 616.1a): list #{own} first, "
                f"`replacement #{own} ...`",
                ref.span,
            )
            return
