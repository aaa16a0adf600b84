"""A coverage-guided fuzz target (atheris, libFuzzer) for the parser and the checker.

Each input is one .mtgr text: bytes decoded as UTF-8 with replacement, or (when the first
byte is odd) with surrogateescape so lone surrogates reach the parser too. The target
fails on any exception and on any diagnostic or span outside the text. See README.md.

    python fuzz/fuzz_mtgr.py fuzz/corpus -max_total_time=600
"""

from __future__ import annotations

import sys


def decode(data: bytes) -> str:
    if data[:1] and data[0] % 2:
        return data[1:].decode("utf-8", errors="surrogateescape")
    return data[1:].decode("utf-8", errors="replace")


def check_input(data: bytes) -> None:
    """What must hold for any input; a failure is an exception (a crash to libFuzzer)."""
    from mtgr.check import check_text
    from mtgr.syntax.document import split_lines
    from mtgr.syntax.parser import parse_line

    text = decode(data)
    lines = split_lines(text)
    for line in lines[:64]:
        parsed = parse_line(line)
        spans = [token.span for token in parsed.tokens]
        if parsed.error is not None:
            spans.append(parsed.error.span)
        if parsed.statement is not None:
            spans.append(parsed.statement.span)
        if parsed.comment is not None:
            spans.append(parsed.comment)
        for span in spans:
            if not 0 <= span.start <= span.end <= len(line):
                raise AssertionError(f"span {span} outside a line of {len(line)}: {line!r}")
    for diagnostic in check_text(text):
        if not 0 <= diagnostic.line < len(lines):
            raise AssertionError(f"diagnostic on line {diagnostic.line} of {len(lines)}")
        length = len(lines[diagnostic.line])
        span = diagnostic.span
        if not 0 <= span.start <= span.end <= length:
            raise AssertionError(f"diagnostic {diagnostic} outside a line of {length}")


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["mtgr"]):
        import mtgr.check
        import mtgr.syntax.parser  # noqa: F401

    atheris.Setup(sys.argv, check_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
