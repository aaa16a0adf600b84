"""The TextMate grammar (syntaxes/), checked by the engine VS Code uses.

The checks themselves are a Node test (tests/grammar, `node --test`): this runs it, after
`npm ci` when its node_modules is missing, and feeds it lines generated from the PEG
(server/mtgr/syntax/mtgr.peg) that the parser accepts: none of them may show an invalid
token, and a `%%` put between two of their tokens always must.
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from parsimonious.expressions import Expression, Literal, OneOf, Quantifier, Regex, Sequence

from mtgr.syntax.parser import GRAMMAR, parse_line

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_TESTS = ROOT / "tests" / "grammar"
TAIL = "(?![^ \\t])[ \\t]*"

Sampler = Callable[[random.Random], str]

STRINGS = [
    '"Alice"',
    '"Bob"',
    '"Serum Powder"',
    '"Chancellor of the Annex"',
    '"Fire // Ice"',
    '"The \\"Ur\\" deck"',
    '"back\\\\slash"',
    '"tab\there"',
    '"Æther Vial"',
    '""',
    '"{1}{G}: +1/+1"',
    '"#12 by sba"',
]
SAMPLES: dict[str, Sampler] = {
    "object_ref": lambda r: f"#{r.choice([1, 7, 12, 305, 999_999_999])}",
    "quoted": lambda r: r.choice(STRINGS),
    "number": lambda r: str(r.choice([0, 1, 3, 20, 60, 999_999_999])),
    "signed": lambda r: r.choice(["+1", "-3", "+20", "-999999999", "+0"]),
    "arrow": lambda r: "->",
    "version": lambda r: r.choice(["0.4", "1.12", "0.4.1"]),
    "date": lambda r: "2026-09-25",
    "die": lambda r: r.choice(["d20", "d6", "d100"]),
    "counter_kind": lambda r: r.choice(["+1/+1", "-1/-1", "-0/-2", "loyalty", "p1p1", "time-2"]),
    "mana": lambda r: r.choice(["{1}{G}", "{W/U}", "{10}{C}{C}", "{G/P}{2/B}", "{X}"]),
    "score": lambda r: r.choice(["2-1", "0-0", "1-1-1", "12-0-3"]),
    "diagnostic_code": lambda r: r.choice(["D804", "K302", "J101", "AB12"]),
}
SEPARATORS = [" ", " ", " ", "  ", "\t", " \t "]
INDENTS = ["", "", "", "  ", "\t"]
COMMENTS = ["", "", "", " // a comment", "// allow E001", '  // "quoted" # -> ', " //"]
MUTATION = "%%"


def words(regex: str) -> list[str]:
    """The words a keyword or word-list token of the PEG matches."""
    body = regex.removesuffix(TAIL)
    if body.startswith("(?:") and body.endswith(")"):
        body = body[3:-1]
    choices = body.split("|")
    if not all(c and all(ch.isalnum() or ch == "-" for ch in c) for c in choices):
        raise ValueError(f"no sample for token {regex}")
    return choices


def generate(expr: Expression, r: random.Random, used: set[str]) -> Iterator[str]:
    """The tokens of one random sentence of `expr`."""
    if isinstance(expr, Regex):
        used.add(expr.name)
        sampler = SAMPLES.get(expr.name)
        yield sampler(r) if sampler else r.choice(words(expr.re.pattern))
    elif isinstance(expr, Literal):
        if expr.literal:
            raise ValueError(f"unexpected literal {expr.literal!r}")
    elif isinstance(expr, Sequence):
        for member in expr.members:
            yield from generate(member, r, used)
    elif isinstance(expr, OneOf):
        yield from generate(r.choice(expr.members), r, used)
    elif isinstance(expr, Quantifier):
        high = min(expr.max, expr.min + 2)
        for _ in range(r.randint(expr.min, int(high))):
            yield from generate(expr.members[0], r, used)
    else:
        raise TypeError(f"no generator for {type(expr).__name__}: {expr}")


@functools.cache
def corpus(count: int, seed: int) -> tuple[list[dict[str, str | None]], set[str], int]:
    """Lines the parser accepts, each also with a `%%` put in after its first token."""
    r = random.Random(seed)
    items: list[dict[str, str | None]] = []
    used_in_valid: set[str] = set()
    rejected = 0
    while len(items) < 2 * count:
        used: set[str] = set()
        tokens = list(generate(GRAMMAR["statement"], r, used))
        line = r.choice(INDENTS)
        for i, token in enumerate(tokens):
            line += (r.choice(SEPARATORS) if i else "") + token
        line += r.choice(COMMENTS)
        parsed = parse_line(line)
        if parsed.error is not None or parsed.statement is None:
            rejected += 1
            continue
        used_in_valid |= used
        items.append({"line": line, "invalid": None})
        at = r.randint(1, len(tokens))
        mutated = " ".join([*tokens[:at], MUTATION, *tokens[at:]])
        items.append({"line": mutated, "invalid": MUTATION})
    return items, used_in_valid, rejected


def token_rules() -> set[str]:
    return {name for name, expr in GRAMMAR.items() if isinstance(expr, Regex)}


def test_generated_lines_cover_every_token_of_the_peg() -> None:
    items, used, rejected = corpus(4000, seed=5)
    assert not token_rules() - used
    assert rejected < len(items), "the generator makes mostly lines the parser rejects"


def run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def node_tests() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "node and npm are needed for the TextMate grammar tests"
    installed = GRAMMAR_TESTS / "node_modules" / ".package-lock.json"  # npm writes it
    lock = GRAMMAR_TESTS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        done = run([npm, "ci", "--no-audit", "--no-fund"], GRAMMAR_TESTS)
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    return GRAMMAR_TESTS


def test_grammar_json_is_generated_from_the_script() -> None:
    done = run([sys.executable, str(ROOT / "syntaxes" / "build_grammar.py"), "--check"], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_textmate_grammar(node_tests: Path, tmp_path: Path) -> None:
    items, _, _ = corpus(4000, seed=5)
    lines = tmp_path / "corpus.json"
    lines.write_text(json.dumps(items), encoding="utf-8")
    done = run(["node", "--test"], node_tests, {"MTGR_GRAMMAR_CORPUS": str(lines)})
    assert done.returncode == 0, f"node --test failed:\n{done.stdout}\n{done.stderr}"
    assert "# fail 0" in done.stdout
    assert "# SKIP MTGR_GRAMMAR_CORPUS" not in done.stdout, "the corpus was not checked"


def test_an_invalid_example_line_fails_the_node_test(node_tests: Path, tmp_path: Path) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "good.mtgr").write_text('mtgr 0.4\n"Alice" keep\n', encoding="utf-8")
    (examples / "bad.mtgr").write_text('mtgr 0.4\n#1 tap\n#2 tapp by "Bob"\n', encoding="utf-8")
    (examples / "page.md").write_text(
        'Text.\n\n```mtgr\n"Alice" keep\n"Alice" kept\n```\n', encoding="utf-8"
    )
    done = run(
        ["node", "--test", "--test-name-pattern=examples"],
        node_tests,
        {"MTGR_EXAMPLES": str(examples)},
    )
    assert done.returncode != 0, done.stdout
    assert 'bad.mtgr:3: invalid "tapp"' in done.stdout
    assert 'page.md:5: invalid "kept"' in done.stdout
    assert "good.mtgr" not in done.stdout
