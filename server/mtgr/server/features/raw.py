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
    return RawResult("[" + ",".join(items) + "]")


def dumps(value: object) -> str:
    """Compact JSON, ASCII, as every raw reply is written."""
    return json.dumps(value, separators=(",", ":"))
