"""A diagnostic's code links to its explanation: the code's section of the published
docs/diagnostics.md (https, from the package's `Diagnostics` project URL), whose anchors
the generated page holds."""

import re
import sys
import tomllib
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
PAGE = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"][
    "Diagnostics"
]
ANCHORS = set(
    re.findall(r'<a id="([a-z0-9]+)"></a>', (ROOT / "docs" / "diagnostics.md").read_text())
)
MISTAKES = ROOT / "examples" / "mistakes.mtgr"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_every_code_links_to_its_section_of_the_published_page(
    client: LanguageClient,
) -> None:
    assert PAGE.startswith("https://") and PAGE.endswith("/docs/diagnostics.md")
    found = await _mistakes_diagnostics(client)
    for diagnostic in found:
        assert diagnostic.code_description is not None, diagnostic
        href = diagnostic.code_description.href
        assert href == f"{PAGE}#{str(diagnostic.code).lower()}"
        assert href.rsplit("#", 1)[1] in ANCHORS


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mtgr", "lsp"]),
)
async def plain_client(lsp_client: LanguageClient):
    """A client that declares no publishDiagnostics capabilities."""
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_client_that_takes_no_links_or_related_places_gets_neither(
    plain_client: LanguageClient,
) -> None:
    """Only what the client says it supports (LSP 3.17, PublishDiagnosticsClientCapabilities:
    relatedInformation, codeDescriptionSupport): the rest of each diagnostic is the same."""
    found = await _mistakes_diagnostics(plain_client)
    assert all(d.code_description is None and d.related_information is None for d in found)
    assert all(d.code and d.source == "mtgr" and d.message for d in found)


async def _mistakes_diagnostics(client: LanguageClient) -> list[types.Diagnostic]:
    """The diagnostics pushed for examples/mistakes.mtgr once it opens (five or more)."""
    uri = MISTAKES.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="mtgr", version=1, text=MISTAKES.read_text(encoding="utf-8")
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = client.diagnostics[uri]
    assert len(found) >= 5
    return found
