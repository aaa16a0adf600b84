"""What `mtgr check` prints: text (coloured on a terminal), JSON, GitHub annotations, SARIF
2.1.0 for code scanning, per-code statistics and the summary line."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from mtgr.check import Diagnostic
from mtgr.rules.registry import Severity, rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVELS = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}
_COLOURS = {
    Severity.ERROR: "31",
    Severity.WARNING: "33",
    Severity.INFORMATION: "34",
    Severity.HINT: "36",
}


@dataclass(frozen=True, slots=True)
class Checked:
    """One checked file: the name it is shown by and what was found in it."""

    name: str
    found: list[Diagnostic]


def use_colour(choice: str, stream: TextIO) -> bool:
    """`--color`: always and never decide; auto follows NO_COLOR, then FORCE_COLOR, then
    whether the stream is a terminal (https://no-color.org, https://force-color.org)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty()


class Style:
    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def _paint(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}\x1b[0m" if self.colour else text

    def bold(self, text: str) -> str:
        return self._paint("1", text)

    def severity(self, severity: Severity, text: str) -> str:
        return self._paint(f"1;{_COLOURS[severity]}", text)


def text(results: Sequence[Checked], style: Style, out: TextIO) -> None:
    for checked in results:
        for d in checked.found:
            place = style.bold(f"{checked.name}:{d.line + 1}:{d.span.start + 1}:")
            level = style.severity(d.severity, d.severity.value)
            print(f"{place} {level} {style.bold(d.code)} {d.message}", file=out)


def github(results: Sequence[Checked], out: TextIO) -> None:
    for checked in results:
        for d in checked.found:
            level = {"error": "error", "warning": "warning"}.get(d.severity.value, "notice")
            message = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            print(
                f"::{level} file={checked.name},line={d.line + 1},col={d.span.start + 1},"
                f"endColumn={d.span.end + 1},title={d.code}::{message}",
                file=out,
            )


def as_json(results: Sequence[Checked], out: TextIO) -> None:
    rows = [
        {
            "path": checked.name,
            "line": d.line + 1,
            "column": d.span.start + 1,
            "end_column": d.span.end + 1,
            "severity": d.severity.value,
            "code": d.code,
            "message": d.message,
            "related": [{"line": r.line + 1, "message": r.message} for r in d.related],
        }
        for checked in results
        for d in checked.found
    ]
    print(json.dumps(rows, indent=2), file=out)


def sarif(results: Sequence[Checked], version: str, out: TextIO) -> None:
    """One SARIF 2.1.0 run; columns are Unicode code points, as everywhere in mtgr."""
    codes = sorted({d.code for checked in results for d in checked.found})
    index = {code: i for i, code in enumerate(codes)}
    rules = []
    for code in codes:
        found = rule(code)
        assert found is not None  # every diagnostic's code is registered
        rules.append(
            {
                "id": code,
                "shortDescription": {"text": found.title},
                "fullDescription": {"text": found.doc.summary},
                "help": {"text": f"mtgr explain {code}"},
                "defaultConfiguration": {"level": _SARIF_LEVELS[found.severity]},
            }
        )
    run_results = []
    for checked in results:
        artifact = {"uri": _uri(checked.name)}
        for d in checked.found:
            entry: dict[str, object] = {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _SARIF_LEVELS[d.severity],
                "message": {"text": d.message},
                "locations": [_location(artifact, d.line, d.span.start, d.span.end)],
            }
            if d.related:
                entry["relatedLocations"] = [
                    {
                        "id": number,
                        **_location(
                            artifact,
                            r.line,
                            r.span.start if r.span else None,
                            r.span.end if r.span else None,
                        ),
                        "message": {"text": r.message},
                    }
                    for number, r in enumerate(d.related, 1)
                ]
            run_results.append(entry)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mtgr",
                        "version": version,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": run_results,
            }
        ],
    }
    print(json.dumps(log, indent=2), file=out)


def _uri(name: str) -> str:
    path = Path(name)
    if path.is_absolute():
        return path.as_uri()
    return quote(path.as_posix(), safe="/")


def _location(
    artifact: dict[str, str], line: int, start: int | None, end: int | None
) -> dict[str, object]:
    region: dict[str, int] = {"startLine": line + 1}
    if start is not None and end is not None:
        region |= {"startColumn": start + 1, "endLine": line + 1, "endColumn": end + 1}
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def statistics(results: Sequence[Checked], out: TextIO) -> None:
    """How often each code was found, most first (ruff's --statistics)."""
    counted = Counter(d.code for checked in results for d in checked.found)
    for code, count in sorted(counted.items(), key=lambda item: (-item[1], item[0])):
        found = rule(code)
        title = found.title if found is not None else ""
        print(f"{count:>5}  {code}  {title}", file=out)


def summary(results: Sequence[Checked], fixed: int, not_checked: int) -> str:
    """ "3 problems in 2 files (1 error, 2 warnings)", with what --fix changed and how many
    files could not be checked."""
    found = [d for checked in results for d in checked.found]
    files = len(results)
    line = f"{count(len(found), 'problem')} in {count(files, 'file')}"
    by_level = Counter(d.severity for d in found)
    parts = [count(by_level[s], s.value, _PLURALS[s]) for s in Severity if by_level[s]]
    if parts:
        line += f" ({', '.join(parts)})"
    if fixed:
        line += f"; {count(fixed, 'fix', 'fixes')} applied"
    if not_checked:
        line += f"; {count(not_checked, 'path')} not checked (see above)"
    return line


_PLURALS = {
    Severity.ERROR: "errors",
    Severity.WARNING: "warnings",
    Severity.INFORMATION: "information",
    Severity.HINT: "hints",
}


def count(number: int, noun: str, plural: str | None = None) -> str:
    """ "1 file", "2 files"."""
    return f"1 {noun}" if number == 1 else f"{number} {plural or noun + 's'}"
