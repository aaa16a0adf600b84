"""A header line out of place, repeated, or for another version of the notation.

## What it flags
- a header line (`mtgr`, `title`, `rules`, `variant`, `player`, `perspective`) after the
  pregame or the play began (a roll, a draw, a turn, `incomplete`, `game N`...), or out of
  the header's order: `mtgr`, `title`, `rules`, `variant`, the `player` lines,
  `perspective`;
- a second `mtgr`, `title`, `rules`, `variant` or `perspective` line, or a player declared
  twice;
- a `mtgr` version other than 0.4.

## Why
The header says what the file is before anything happens in it: the notation version,
the players in seating order and the viewpoint (decision 0003 item 6). A header line
later, or twice, leaves the reader with two answers to one question; the seating order
fixes the turn order (CR 101.4, 103.1), so players are declared once, before the game.

## Example
```mtgr
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
player "Alice" deck 60
```

## Use instead
```mtgr
mtgr 0.4
player "Alice" deck 60
player "Bob" deck 60
```

## Rules basis
- Decision 0003 item 6: the header statements come before any other statement: `mtgr` first, then
  `title`, `rules`, the `player` lines and `perspective`, each of `mtgr`, `title`, `rules` and
  `perspective` at most once.
- Decision 0003 item 1: `mtgr 0.4` for this version; a patch number may follow.
- Decision 0003 item 4: one line per player, names unique.
- Decision 0031 item 1: `variant commander` stands after `rules` and before the `player` lines.
- CR 103.1: "At the start of a game, the players determine which one of them will choose who takes the first turn."
"""

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.rules.state import Stage
from mtgr.syntax import tree as t

RULE = define(
    "N101",
    "Header line out of place",
    severity=Severity.ERROR,
    decisions=("0003.6", "0003.1", "0003.4", "0031.1"),
    cr=("103.1",),
    doc=__doc__,
)

VERSION = "0.4"
ORDER = ("mtgr", "title", "rules", "variant", "player", "perspective")


@RULE.on(t.Header, t.PlayerDeclaration)
def check(ctx: Context, statement: t.Statement) -> None:
    state = ctx.state
    verb = statement.verb.value
    if state.stage is not Stage.HEADER:
        ctx.report(
            RULE,
            f"`{verb}` is a header line, but the game has begun; move it up to the header, "
            "before the pregame",
            statement.verb.span,
        )
        return
    if isinstance(statement, t.PlayerDeclaration):
        name = statement.player.name
        if name in state.declared:
            message = f"{name} is declared twice: keep one `player` line"
            ctx.report(RULE, message, statement.player.span)
            return
    elif verb in state.headers:
        ctx.report(RULE, f"a second `{verb}` line: the header has one", statement.verb.span)
        return
    seen = set(state.headers) | ({"player"} if state.declared else set())
    later = [h for h in ORDER[ORDER.index(verb) + 1 :] if h in seen]
    if later and verb not in seen:  # the first line of its kind out of order: one finding
        ctx.report(
            RULE,
            f"`{verb}` comes before `{later[0]}` in the header: {', '.join(ORDER)}",
            statement.verb.span,
        )
        return
    if isinstance(statement, t.PlayerDeclaration):
        return
    assert isinstance(statement, t.Header)
    value = statement.value
    if verb == "mtgr" and isinstance(value, t.Word) and not _supported(value.value):
        ctx.report(
            RULE,
            f"notation version {value.value}: this checker reads version {VERSION}",
            value.span,
        )


def _supported(version: str) -> bool:
    return version == VERSION or version.startswith(VERSION + ".")
