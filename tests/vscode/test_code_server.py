"""The VS Code extension in real VS Code: code-server 4.100.3 in headless Chromium.

scripts/setup-vscode-test (run once, cached) installs code-server, the browser and
playwright-core and builds vscode-extension/dist/mtgr.vsix. This module installs that
.vsix into a fresh extensions folder, starts code-server on a free local port with fresh
user data, and runs tests/vscode/drive.js: it opens a copy of examples/mistakes.mtgr from
the Explorer and records what the page shows (squiggles, Problems rows, a hover, the
TextMate scopes of a few tokens, the completion list). The tests below assert on that.
Failed steps leave screenshots in test-artifacts/vscode/ (with the driver's result.json,
code-server's log and the extension's log); a passing run leaves success.png there, and
writes docs/images/vscode.png (the README's screenshot) when it is missing or when
MTGR_UPDATE_SCREENSHOTS is set.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.editor

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "setup-vscode-test"
MISSING_PREREQUISITE = 3  # scripts/setup-vscode-test's exit status for it
DRIVER = ROOT / "tests" / "vscode" / "drive.js"
ARTIFACTS = ROOT / "test-artifacts" / "vscode"
SCREENSHOT = ROOT / "docs" / "images" / "vscode.png"
BOARD_SCREENSHOT = ROOT / "docs" / "images" / "vscode-board.png"
BOARD_TYPED = '"Alice" life -5'  # typed below the first board line
EXAMPLE = ROOT / "examples" / "mistakes.mtgr"

# the five deliberate mistakes of examples/mistakes.mtgr: code, line, part of the message
MISTAKES = [
    ("R601", 57, "a replacement effect changed this event"),
    ("K301", 74, "is on top of the stack"),
    ("F901", 117, "the keyframe gives Alice 17 life, but the lines above leave 15"),
    ("V701", 130, "#16 is the lowest-numbered hidden card there"),
    ("D801", 190, "deals 3 damage to Alice, but no life line follows"),
]
EXPLAINED = MISTAKES[0][0]  # shown by mtgr.explain and by its code's link in Problems
HOVER_LINE = "#2 move battlefield -> exile as destroy by #13 replacement #8"
# token on HOVER_LINE -> the scope our grammar gives it
SCOPES = {
    "move": "support.function.verb.mtgr",
    "#13": "variable.other.object.mtgr",
    "replacement": "keyword.other.replacement.mtgr",
}
SETTINGS = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "chat.disableAIFeatures": True,
    # more of the record in the screenshot
    "editor.minimap.enabled": False,
    "editor.stickyScroll.enabled": False,
    "mtgr.trace.server": "messages",
}


def line_of(text: str, path: Path = EXAMPLE) -> int:
    """The 1-based number of the first line of `path` that starts with `text`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(text):
            return number
    raise AssertionError(f"no line starting with {text!r} in {path}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(base: Path) -> dict[str, str]:
    """The environment without this venv (the extension then finds the system python3, as
    a user's would) and with every XDG folder fresh."""
    venv_bin = str(Path(sys.prefix) / "bin")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME") and not k.startswith("XDG_")
    }
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin
    )
    for name in ("CONFIG", "DATA", "CACHE", "STATE", "RUNTIME"):
        folder = base / "xdg" / name.lower()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        env[f"XDG_{name}_HOME" if name != "RUNTIME" else "XDG_RUNTIME_DIR"] = str(folder)
    return env


def system_python_is_enough(env: dict[str, str]) -> bool:
    python3 = shutil.which("python3", path=env["PATH"])
    if not python3:
        return False
    done = subprocess.run(
        [python3, "-c", "import sys; print(sys.version_info >= (3, 11))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() == "True"


def stop_group(process: subprocess.Popen[Any]) -> None:
    """End a process started with start_new_session and everything it started (code-server
    leaves extension hosts and their language servers behind otherwise)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        process.poll()
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def setup_answer() -> dict[str, str]:
    """scripts/setup-vscode-test's answer: CODE_SERVER, CHROMIUM, VSIX, DRIVER, or MISSING
    (exit status 3) for a prerequisite this machine cannot have. Any other failure of the
    set-up fails."""
    done = subprocess.run([str(SETUP)], capture_output=True, text=True, timeout=3600, check=False)
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if done.returncode == MISSING_PREREQUISITE and "MISSING" in found:
        return {"MISSING": found["MISSING"]}
    assert done.returncode == 0, f"scripts/setup-vscode-test failed:\n{done.stderr}"
    return found


@pytest.fixture(autouse=True)
def prerequisites(setup_answer: dict[str, str], request: pytest.FixtureRequest) -> None:
    """A missing prerequisite skips each test here with one reason, shown once (as a skip
    mark, which pytest -rs folds into one line for the module); under CI, which has them
    all, it fails."""
    if "MISSING" in setup_answer:
        reason = f"the VS Code test cannot run here: {setup_answer['MISSING']}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        request.node.add_marker(pytest.mark.skip(reason=reason))
        pytest.skip(reason)


@pytest.fixture(scope="module")
def tools(setup_answer: dict[str, str]) -> dict[str, str]:
    """Where the set-up put what the test runs (nothing when a prerequisite is missing:
    `prerequisites` then skips each test, after the module's fixtures are made)."""
    if "MISSING" in setup_answer:
        return setup_answer
    for key in ("CODE_SERVER", "CHROMIUM", "VSIX", "DRIVER"):
        assert Path(setup_answer[key]).exists(), f"{key}={setup_answer.get(key)} is missing"
    return setup_answer


@pytest.fixture(scope="module")
def page(tools: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """One code-server session through the driver: what the page showed, per step."""
    if "MISSING" in tools:
        yield {}
        return
    base = tmp_path_factory.mktemp("vscode")
    env = clean_env(base)
    extensions, user_data, profile = base / "extensions", base / "user-data", base / "chrome"
    workspace = base / "records"
    workspace.mkdir()
    shutil.copy(EXAMPLE, workspace / EXAMPLE.name)
    settings = dict(SETTINGS)
    if not system_python_is_enough(env):
        settings["mtgr.interpreter"] = [sys.executable]
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
    code_server = tools["CODE_SERVER"]
    common = ["--extensions-dir", str(extensions), "--user-data-dir", str(user_data)]

    installed = subprocess.run(
        [code_server, *common, "--install-extension", tools["VSIX"], "--force"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    listed = subprocess.run(
        [code_server, *common, "--list-extensions", "--show-versions"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert "mtgr-tools.mtgr@" in listed.stdout, listed.stdout + listed.stderr

    port = free_port()
    log = (base / "code-server.log").open("w")
    server = subprocess.Popen(
        [
            code_server,
            *common,
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--auth",
            "none",
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            "--disable-getting-started-override",
            str(workspace),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    driver: subprocess.Popen[str] | None = None
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:  # until code-server answers
            assert server.poll() is None, (base / "code-server.log").read_text()
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "code-server did not answer in 2 minutes"
            time.sleep(0.2)

        if ARTIFACTS.exists():
            shutil.rmtree(ARTIFACTS)
        ARTIFACTS.mkdir(parents=True)
        shot = ARTIFACTS / "success.png"
        config = {
            "url": f"{url}/?folder={workspace}",
            "chromium": tools["CHROMIUM"],
            "profile": str(profile),
            "artifacts": str(ARTIFACTS),
            "successScreenshot": str(shot),
            "file": EXAMPLE.name,
            "codes": [code for code, _, _ in MISTAKES],
            "squiggleLine": MISTAKES[0][1],
            # the hover line low in the view and the K301 squiggle above it: the screenshot
            "hover": {"linePrefix": HOVER_LINE, "revealLine": line_of(HOVER_LINE) - 11},
            "inspect": list(SCOPES),
            "completion": {"line": line_of("#9 cast"), "typed": "#9 ", "expect": "resolve"},
            "explain": EXPLAINED,
            # above the completion's edit, so that these line numbers still hold
            "board": {
                "first": line_of("#2 resolve -> battlefield"),
                "second": line_of("#1 tap by #1"),
                "typed": BOARD_TYPED,
                "screenshot": str(ARTIFACTS / "board.png"),
            },
        }
        config_path = base / "drive" / "config.json"
        config_path.parent.mkdir()
        config_path.write_text(json.dumps(config, indent=2))
        driver = subprocess.Popen(
            ["node", tools["DRIVER"], str(config_path)],
            cwd=DRIVER.parent,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            output, _ = driver.communicate(timeout=420)
        except subprocess.TimeoutExpired:
            stop_group(driver)
            output, _ = driver.communicate()
            output += "\n(the driver timed out after 7 minutes)"
        result_path = config_path.parent / "result.json"
        result = json.loads(result_path.read_text()) if result_path.exists() else {"steps": {}}
        result["output"] = output
        result["returncode"] = driver.returncode
        result["extension_log"] = "\n".join(
            p.read_text(errors="replace")
            for p in sorted(user_data.glob("logs/*/exthost*/mtgr-tools.mtgr/mtgr.log"))
        )
        passed = all(s.get("ok") for s in result["steps"].values()) and shot.exists()
        if passed and (not SCREENSHOT.exists() or os.environ.get("MTGR_UPDATE_SCREENSHOTS")):
            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, SCREENSHOT)
        board_shot = ARTIFACTS / "board.png"
        update = not BOARD_SCREENSHOT.exists() or os.environ.get("MTGR_UPDATE_SCREENSHOTS")
        if passed and board_shot.exists() and update:
            shutil.copy(board_shot, BOARD_SCREENSHOT)
        (ARTIFACTS / "result.json").write_text(json.dumps(result, indent=2))
        (ARTIFACTS / "extension.log").write_text(result["extension_log"])
        yield result
    finally:
        if driver is not None and driver.poll() is None:
            stop_group(driver)
        stop_group(server)
        log.close()
        shutil.copy(base / "code-server.log", ARTIFACTS / "code-server.log")


def step(page: dict, name: str) -> dict:
    entry = page["steps"].get(name)
    assert entry is not None, f"the driver never reached {name!r}:\n{page['output']}"
    assert entry["ok"], (
        f"{name} failed (screenshot: {entry.get('screenshot')}):\n{entry.get('error')}\n"
        f"driver output:\n{page['output']}\nextension log:\n{page['extension_log'][-3000:]}"
    )
    return entry


def test_the_driver_ran_every_step(page: dict) -> None:
    assert page["returncode"] == 0, page["output"]
    assert set(page["steps"]) == {
        "open",
        "squiggles",
        "problems",
        "hover",
        "tokens",
        "completion",
        "explainCommand",
        "explainLink",
        "board",
    }


def test_the_bundled_server_runs_with_the_system_python(page: dict) -> None:
    step(page, "open")
    assert "server: bundled mtgr with" in page["extension_log"], page["extension_log"]
    assert "server started" in page["extension_log"]


def test_mistakes_are_underlined(page: dict) -> None:
    assert step(page, "squiggles")["count"] >= 1


def test_problems_panel_lists_the_five_mistakes(page: dict) -> None:
    rows = [row["text"] for row in step(page, "problems")["rows"]]
    for code, line, message in MISTAKES:
        matching = [row for row in rows if code in row and message in row]
        assert matching, f"no Problems row with {code} and {message!r}:\n" + "\n".join(rows)
        assert any(f"[Ln {line}," in row for row in matching), matching


def test_hover_on_replacement_cites_decision_0018_and_rule_614_6(page: dict) -> None:
    text = step(page, "hover")["text"]
    assert "0018" in text, text
    assert "614.6" in text, text


def test_the_screenshot_shows_a_squiggle_and_the_hover(page: dict) -> None:
    assert step(page, "hover")["squigglesInView"] >= 1
    assert (ARTIFACTS / "success.png").exists()


def test_grammar_scopes_in_the_token_inspector(page: dict) -> None:
    entry = step(page, "tokens")
    for word, scope in SCOPES.items():
        shown = entry["scopes"][word]
        assert "textmate scopes" in shown, shown
        scopes = shown.split("textmate scopes", 1)[1].split()
        assert scopes[0] == scope, shown
        assert "source.mtgr" in scopes, shown


def test_tokens_of_a_line_are_coloured_differently(page: dict) -> None:
    tokens = step(page, "tokens")["tokens"]
    classes = {cls for text, cls in tokens if text.strip()}
    assert len(classes) >= 4, tokens


def test_completion_after_an_object_on_the_stack_offers_resolve(page: dict) -> None:
    labels = step(page, "completion")["labels"]
    assert "resolve" in labels, labels


def test_the_explain_command_shows_mtgr_explain_in_an_editor(page: dict) -> None:
    entry = step(page, "explainCommand")
    assert f"{EXPLAINED}.md" in entry["tab"]
    assert entry["text"].startswith(f"{EXPLAINED}: "), entry["text"]
    assert "What it flags" in entry["text"]


def test_a_diagnostic_code_link_opens_its_explanation(page: dict) -> None:
    entry = step(page, "explainLink")
    assert entry["href"] == f"mtgr-explain:/{EXPLAINED}.md", entry["href"]
    assert f"{EXPLAINED}.md" in entry["tab"]
    assert "What it flags" in entry["text"]


def test_the_board_view_follows_the_cursor_and_edits(page: dict) -> None:
    board = step(page, "board")
    first, second = board["first"], board["second"]
    champion_resolves, cavern_taps = line_of("#2 resolve -> battlefield"), line_of("#1 tap by #1")
    assert first["where"].startswith(f"after line {champion_resolves} of")
    assert first["text"] == "#2 resolve -> battlefield" and first["stack"] == []
    assert second["where"].startswith(f"after line {cavern_taps} of")
    # Cavern of Souls, named on a `choose` line that does not show the card: still hidden
    assert second["tapped"] == ["#1 hidden card, tapped"]
    assert second["stack"] == ["#2 Champion of the Parish"]
    assert first["life"]["Alice"] == "20"
    edited = board["afterEdit"]
    assert edited["text"] == BOARD_TYPED
    assert edited["life"]["Alice"] == "15"
    # the page takes the theme's colours
    assert second["themeBackground"], second
    assert second["background"] not in ("", "rgba(0, 0, 0, 0)")
