"""Document sync and settings: open, change, close; the client's `mtgr` settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.server.features import inlay_hints
from mtgr.server.features.diagnostics import publish, publish_all
from mtgr.server.session import Settings

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer


def register(server: MtgrServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.session.encoding = (
            server.workspace.position_encoding or types.PositionEncodingKind.Utf16
        )
        options = params.initialization_options
        if isinstance(options, dict):
            server.session.settings = Settings.from_client(options.get("mtgr", options))

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        await refresh_settings(server)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and "mtgr" in settings:
            server.session.settings = Settings.from_client(settings["mtgr"])
        else:
            await refresh_settings(server)
        publish_all(server)
        inlay_hints.refresh(server)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        publish(server, server.session.open(document.uri, document.text, document.version))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        document = server.session.get(params.text_document.uri)
        if document is None:
            return
        version = params.text_document.version
        if document.version is not None and version is not None and version < document.version:
            return  # a stale change: never apply it over a newer one
        document.change(list(params.content_changes), version, server.session.settings.incremental)
        publish(server, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.session.close(params.text_document.uri)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )


async def refresh_settings(server: MtgrServer) -> None:
    capabilities = server.client_capabilities.workspace
    if capabilities is None or not capabilities.configuration:
        return
    try:
        values = await server.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="mtgr")])
        )
    except Exception:  # a client that fails to answer keeps the settings we have
        return
    if values:
        server.session.settings = Settings.from_client(values[0])
