"""An untap step untaps a permanent that an effect kept tapped, or keeps one that is untapped.

## What it flags
A `stays tapped` line (decision 0075) for a permanent that is not tapped on the
battlefield, and an untap without cause, in the same step, of a permanent that a
`stays tapped` line said an effect kept tapped.

## Why
In the untap step the active player untaps their permanents, but effects can keep some of
them from untapping (CR 502.3): Frost Titan's, Sleep's, Mana Vault's own. The
`stays tapped` line names that effect; the permanent then is still tapped after the step,
and an untap of it by the step's own turn-based action contradicts the line. A permanent
that is already untapped cannot stay tapped (CR 701.26b).

## Example
```mtgr
step untap
#12 stays tapped by #40
#12 untap
```

## Use instead
```mtgr
step untap
#12 stays tapped by #40
```

## Rules basis
- Decision 0075 items 1 and 2.
- CR 502.3: "Normally, all of a player's permanents untap, but effects can keep one or more of a player's permanents from untapping."
- CR 701.26b: "Only tapped permanents can be untapped."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "D834",
    "Untapped though kept tapped",
    severity=Severity.ERROR,
    decisions=("0075.1", "0075.2"),
    cr=("502.3", "701.26b"),
    doc=__doc__,
)


@RULE.on(t.StaysTapped, t.TapChange, stages=(Stage.PLAYING,), outside_gaps_and_keyframes=True)
def check(ctx: Context, statement: t.Statement) -> None:
    assert isinstance(statement, (t.StaysTapped, t.TapChange))
    state = ctx.state
    obj = state.obj(statement.subject.number)
    if obj is None:
        return
    if isinstance(statement, t.StaysTapped):
        if obj.zone == "battlefield" and not obj.tapped:
            ctx.report(
                RULE,
                f"{obj.label()} is untapped, so no effect keeps it tapped: only a tapped "
                "permanent stays tapped as its controller's permanents untap (CR 502.3)",
                statement.verb.span,
                related=ctx.where(obj),
            )
        return
    untapping = statement.verb.value == "untap" and statement.cause is None
    if untapping and obj.number in state.kept_tapped:
        ctx.report(
            RULE,
            f"{obj.label()} stays tapped by an effect in this step, as a line above says, so "
            "the untap step does not untap it (CR 502.3); an effect that untaps it names "
            "itself with `by`",
            statement.verb.span,
            related=ctx.where(obj),
        )
