"""A line that does not parse.

## What it flags
A line that is not one of the statement forms of the notation: an unknown verb, a
missing zone after `->`, a stray word, an unterminated string. The message says what
was expected at the exact column where the line stopped making sense. A word close to
one the grammar takes there is named ("did you mean"), with a quick fix that writes it;
a word of the game that is not a verb of the notation (discard, sacrifice, scry, gain)
is answered with the form that records it.

## Why
Every line of a record is one event (decision 0001). A line the parser cannot read
records nothing, so the game rebuilt from the file would silently miss an event. The
line is skipped and checking goes on with the next one: the unit of recovery is the line.

## Example
```mtgr
#21 move hand -> exlie by #18
```

## Use instead
```mtgr
#21 move hand -> exile by #18
```

## Rules basis
Decision 0002 item 1: one statement a line, in the forms of the spec.
"""

from mtgr.rules.registry import Severity, define

RULE = define(
    "S001",
    "Line does not parse",
    severity=Severity.ERROR,
    decisions=("0002.1",),
    doc=__doc__,
)
