"""A number with more than nine digits.

## What it flags
An object number, amount or count written with more than nine digits.

## Why
No game of Magic needs such a number, and a record that has one was almost certainly
mistyped; refusing it also keeps every tool that reads records fast and safe.

## Example
```mtgr
"Bob" life -20000000000 by #12
```

## Use instead
```mtgr
"Bob" life -20 by #12
```

## Rules basis
Decision 0002 item 1: one statement a line, in the forms of the spec.
"""

from mtgr.rules.registry import Severity, define

RULE = define(
    "S002",
    "Number too large",
    severity=Severity.ERROR,
    decisions=("0002.1",),
    doc=__doc__,
)
