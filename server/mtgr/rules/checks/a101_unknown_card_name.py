"""A card name the card index does not know.

## What it flags
A card name on a line (`new card "X"`, `draw #N "X"`, `identify "X"`, `#N "X" cast`) that
is neither the Oracle name of a card in the card index nor the name of one of a card's
faces. The message names the closest known names. Silent without a card index; token
names are not card names and are not checked.

Reads: the card names of the index (Oracle `name`, and each face's `name`).

## Why
A misspelt name hides the card from everything that reads it: completion, hover and the
card-aware rules cannot find it, and a reader cannot look it up. Names are matched the
way players write them: any case, with or without accents, a two-faced card by its full
name or either face (decision 0050 item 1). It is a warning, not an error: a new set can
be newer than the index (decision 0050 item 4).

## Example
```mtgr
#4 new card "Lightnig Bolt" hand "Alice"
```

## Use instead
```mtgr
#4 new card "Lightning Bolt" hand "Alice"
```

## Rules basis
- Decision 0050 items 1 and 4.
- CR 201.2: "A card's name is always considered to be the English version of its name, regardless of printed language."
"""

from __future__ import annotations

from mtgr.rules.context import Context
from mtgr.rules.registry import Severity, define
from mtgr.syntax import tree as t

RULE = define(
    "A101",
    "Unknown card name",
    severity=Severity.WARNING,
    decisions=("0050.1", "0050.4"),
    cr=("201.2",),
    doc=__doc__,
)

SUGGESTIONS = 3


def card_names(statement: t.Statement) -> list[t.Text]:
    """The card names a line writes (not token names, not effect texts)."""
    names = []
    if isinstance(statement, t.ObjectStatement) and statement.name is not None:
        names.append(statement.name)
    if isinstance(statement, t.New):
        if statement.what.value == "card" and statement.card is not None:
            names.append(statement.card)
    elif isinstance(statement, (t.Draw, t.Identify)) and statement.card is not None:
        names.append(statement.card)
    return names


@RULE.on(t.ObjectStatement, t.Draw, with_cards=True)
def check(ctx: Context, statement: t.Statement) -> None:
    cards = ctx.cards
    assert cards is not None
    for name in card_names(statement):
        if cards.lookup(name.value) is not None:
            continue
        close = cards.close_names(name.value, SUGGESTIONS)
        hint = (
            "; did you mean " + " or ".join(f'"{found}"' for found in close) + "?"
            if close
            else "; check the spelling against the card's Oracle name"
        )
        ctx.report(RULE, f'"{name.value}" is not a card the card index knows{hint}', name.span)
