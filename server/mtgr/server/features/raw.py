"""Replies written as JSON by the feature itself, not converted by pygls.

pygls turns a reply into JSON through cattrs, object by object: for the large replies of
a long record (the outline, highlighting, folds, hints) that conversion cost more than
building the answer. A feature that keeps its answer as JSON per line or per block
returns `RawResult`, and the protocol (app.py) writes it as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable


class RawResult(str):
    """A request's result, already JSON (ASCII)."""


def raw_list(items: Iterable[str]) -> RawResult:
    """A JSON array of items that are each JSON already."""
    return raw_joined("[", items, "]")


def raw_joined(head: str, items: Iterable[str], tail: str) -> RawResult:
    """`head`, the items with commas between them, and `tail`, copied once into a string
    (and once more into the result): a reply is megabytes, and each copy of it cost a
    few milliseconds (fresh pages, measured), as many as building it."""
    parts = list(items)
    if not parts:
        return RawResult(head + tail)
    parts[0] = head + parts[0]
    parts[-1] += tail
    return RawResult(",".join(parts))


def dumps(value: object) -> str:
    """Compact JSON, ASCII, as every raw reply is written."""
    return json.dumps(value, separators=(",", ":"))
