"""The layers of docs/ARCHITECTURE.md, held by the imports: each package imports only the
layers below it, and only the server knows about the Language Server Protocol."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "server" / "mtgr"

# what each layer may import of mtgr (its own package always); a module at the top of
# the package (check.py, fixes.py, config.py, ...) is a layer of its own, "top"
ALLOWED = {
    "syntax": set(),
    "cards": set(),
    "rules": {"syntax", "cards"},
    "top": {"syntax", "cards", "rules", "top"},
    "render": {"syntax", "cards", "rules", "top"},
    "server": {"syntax", "cards", "rules", "top", "render"},
    "cli": {"syntax", "cards", "rules", "top", "render", "server"},
}
PROTOCOL = ("pygls", "lsprotocol")


def _layer(module: str) -> str:
    """The layer of `mtgr.x.y` (or of the file mtgr/x.py)."""
    parts = module.split(".")
    if module == "mtgr.__main__":  # `python -m mtgr`: the command line
        return "cli"
    if len(parts) > 1 and (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return "top"


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_layer_is_known() -> None:
    layers = {
        _layer("mtgr." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts)) for p in MODULES
    }
    assert layers == set(ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_only_the_layers_below_it(path: Path) -> None:
    own = _layer("mtgr." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
    wrong = [
        f"line {line}: {name}"
        for line, name in _imports(path)
        if (name.startswith("mtgr.") and _layer(name) != own and _layer(name) not in ALLOWED[own])
        or (own != "server" and name.split(".")[0] in PROTOCOL)
    ]
    assert not wrong, f"{own} may import only {sorted(ALLOWED[own])}: {wrong}"


def test_the_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The test above reads what it should: syntax importing rules is found."""
    module = tmp_path / "document.py"
    module.write_text("from mtgr.rules.walk import walk\nimport lsprotocol\n", encoding="utf-8")
    assert [(line, name) for line, name in _imports(module)] == [
        (1, "mtgr.rules.walk"),
        (2, "lsprotocol"),
    ]
    assert _layer("mtgr.rules.walk") == "rules" and "rules" not in ALLOWED["syntax"]


def test_the_server_starts_without_what_only_some_documents_need() -> None:
    """The CommonMark parser (Markdown pages) and SQLite (a card index) load with their
    first use: a server's resident memory is its floor in every editing session."""
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, mtgr.cli.main, mtgr.server.app; "
            "print(' '.join(m for m in ('markdown_it', 'sqlite3') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.split() == []
