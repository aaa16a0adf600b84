"""A folder's own settings must not choose the program the VS Code extension launches
(issue 18): the settings that name it are machine-scoped, which VS Code reads only from
the user's settings, never from a workspace's or folder's."""

from __future__ import annotations

import json

from _text import ROOT

LAUNCH_SETTINGS = ("mtgr.path", "mtgr.interpreter")


def test_the_settings_that_name_the_launched_program_are_machine_scoped() -> None:
    manifest = json.loads((ROOT / "vscode-extension" / "package.json").read_text("utf-8"))
    configuration = manifest["contributes"]["configuration"]
    sections = configuration if isinstance(configuration, list) else [configuration]
    properties = {k: v for section in sections for k, v in section["properties"].items()}
    for name in LAUNCH_SETTINGS:
        assert properties[name].get("scope") == "machine", name
