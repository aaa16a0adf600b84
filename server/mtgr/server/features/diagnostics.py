"""Diagnostics: pushed after every change, or pulled by clients that ask (textDocument/diagnostic)."""

from __future__ import annotations

import asyncio
from functools import cache
from importlib.metadata import PackageNotFoundError, metadata
from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.check import Diagnostic
from mtgr.rules.registry import Severity, rule
from mtgr.server.features.log import LOGGER

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


@cache
def _diagnostics_page() -> str | None:
    """The published docs/diagnostics.md: the package's `Diagnostics` project URL
    (pyproject.toml's [project.urls], read back from the installed metadata)."""
    try:
        urls = metadata("mtgr").get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip() == "Diagnostics":
            return url.strip()
    return None


def explanation_uri(code: str) -> str | None:
    """Where a code is explained: its section of the published docs/diagnostics.md (whose
    `<a id>` anchors are the codes in lower case)."""
    page = _diagnostics_page()
    return f"{page}#{code.lower()}" if page else None


def to_lsp(document: OpenDocument, diagnostic: Diagnostic) -> types.Diagnostic:
    found = rule(diagnostic.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=document.uri,
                range=document.range(r.line, r.span or _whole_line(document, r.line)),
            ),
            message=r.message,
        )
        for r in diagnostic.related
    ]
    href = explanation_uri(diagnostic.code)
    return types.Diagnostic(
        range=document.range(diagnostic.line, diagnostic.span),
        severity=SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source="mtgr",
        message=diagnostic.message,
        related_information=related or None,
        data={"title": found.title} if found else None,
    )


def _whole_line(document: OpenDocument, line: int):
    from mtgr.syntax.tree import Span

    return Span(0, len(document.document.texts[line]))


def lsp_diagnostics(server: MtgrServer, document: OpenDocument) -> list[types.Diagnostic]:
    return [to_lsp(document, d) for d in document.diagnostics(server.session.settings)]


def client_pulls(server: MtgrServer) -> bool:
    text_document = server.client_capabilities.text_document
    return bool(text_document and text_document.diagnostic)


def publish(server: MtgrServer, document: OpenDocument) -> None:
    if client_pulls(server):
        return
    found = lsp_diagnostics(server, document)
    LOGGER.debug("%s version %s: %d diagnostics", document.uri, document.version, len(found))
    server.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(
            uri=document.uri, version=document.version, diagnostics=found
        )
    )


def publish_all(server: MtgrServer) -> None:
    for document in server.session.documents.values():
        publish(server, document)
    if client_pulls(server):
        workspace = server.client_capabilities.workspace
        if workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
            server.workspace_diagnostic_refresh(None)


def register(server: MtgrServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="mtgr", inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )
    async def pull(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        document = server.session.get(params.text_document.uri)
        while document is not None and not document.checked:
            await asyncio.sleep(0.02)  # a large document's first check is still running
            document = server.session.get(params.text_document.uri)
        items = lsp_diagnostics(server, document) if document else []
        return types.RelatedFullDocumentDiagnosticReport(items=items)
