"""Quick fixes: the fixes of `mtgr.fixes` offered as LSP code actions for the client's
diagnostics that still stand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mtgr.fixes import Edit, Fix, fixes
from mtgr.fixes import apply_edits as apply_edits  # tests apply the fixes they are offered
from mtgr.syntax import tree as t

if TYPE_CHECKING:
    from mtgr.server.app import MtgrServer
    from mtgr.server.session import OpenDocument


# ---- the LSP side ----------------------------------------------------------------------


def _text_edit(document: OpenDocument, edit: Edit) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=types.Position(
                line=edit.line, character=document.to_character(edit.line, edit.start)
            ),
            end=types.Position(
                line=edit.end_line, character=document.to_character(edit.end_line, edit.end)
            ),
        ),
        new_text=edit.text,
    )


def _workspace_edit(server: MtgrServer, document: OpenDocument, fix: Fix) -> types.WorkspaceEdit:
    edits = [_text_edit(document, e) for e in fix.edits]
    workspace = server.client_capabilities.workspace
    versioned = workspace and workspace.workspace_edit and workspace.workspace_edit.document_changes
    if versioned:
        identifier = types.OptionalVersionedTextDocumentIdentifier(
            uri=document.uri, version=document.version
        )
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=edits)]
        )
    return types.WorkspaceEdit(changes={document.uri: edits})


def code_actions(
    server: MtgrServer, document: OpenDocument, params: types.CodeActionParams
) -> list[types.CodeAction]:
    only = params.context.only
    if only and not any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only):
        return []
    current = {(d.code, d.line, d.span) for d in document.diagnostics(document.settings)}
    actions: list[types.CodeAction] = []
    for diagnostic in params.context.diagnostics:
        code = diagnostic.code
        if diagnostic.source not in (None, "mtgr") or not isinstance(code, str):
            continue
        line = diagnostic.range.start.line
        if not 0 <= line < len(document.document) or diagnostic.range.end.line != line:
            continue
        span = t.Span(
            document.to_column(line, diagnostic.range.start.character),
            document.to_column(line, diagnostic.range.end.character),
        )
        if (code, line, span) not in current:
            continue  # a stale diagnostic: the document has changed under it
        for fix in fixes(document, code, line, span):
            actions.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=fix.preferred or None,
                    edit=_workspace_edit(server, document, fix),
                )
            )
    return actions


def register(server: MtgrServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def actions(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        document = server.session.get(params.text_document.uri)
        if document is None or document.is_markdown:
            return None
        return code_actions(server, document, params)
