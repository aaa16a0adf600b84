'use strict';
// mtgr: Show Board: a webview beside the editor with the board after the cursor's line.
// The board comes from the language server only (the `mtgr/board` request, documented in
// docs/server.md): the extension never checks anything itself. It follows cursor moves
// and edits, debounced, and ignores answers that a newer request overtook. The page takes
// the server's HTML and stylesheet and maps the stylesheet's colours to the VS Code theme.

const vscode = require('vscode');

const DEBOUNCE_MS = 25;
const LANGUAGES = new Set(['mtgr', 'markdown']);

// the board's CSS custom properties (server/mtgr/render/html.py) as theme colours
const THEME_CSS = `
body { padding: 0; background: var(--vscode-editor-background); }
.mtgr-board {
  --mtgr-bg: var(--vscode-editor-background);
  --mtgr-fg: var(--vscode-editor-foreground);
  --mtgr-muted: var(--vscode-descriptionForeground);
  --mtgr-zone: var(--vscode-sideBar-background, var(--vscode-editorWidget-background));
  --mtgr-card: var(--vscode-editorWidget-background);
  --mtgr-card-border: var(--vscode-editorWidget-border, var(--vscode-contrastBorder, #8d7b58));
  --mtgr-accent: var(--vscode-focusBorder);
  --mtgr-error: var(--vscode-editorError-foreground);
  --mtgr-warning: var(--vscode-editorWarning-foreground);
  --mtgr-information: var(--vscode-editorInfo-foreground);
  --mtgr-hint: var(--vscode-editorHint-foreground, var(--vscode-descriptionForeground));
  --mtgr-font: var(--vscode-font-family);
  --mtgr-mono: var(--vscode-editor-font-family);
}
.placeholder { padding: 12px; color: var(--vscode-descriptionForeground); }
`;

function nonce() {
  let text = '';
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 32; i++) text += chars.charAt(Math.floor(Math.random() * chars.length));
  return text;
}

function page(webview) {
  const key = nonce();
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'unsafe-inline'; script-src 'nonce-${key}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style id="board-css"></style><style>${THEME_CSS}</style></head>
<body><div id="board"><div class="placeholder">Put the cursor in an .mtgr file.</div></div>
<script nonce="${key}">
  const board = document.getElementById('board');
  const style = document.getElementById('board-css');
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message.css !== undefined && style.textContent !== message.css) style.textContent = message.css;
    if (message.html !== undefined) board.innerHTML = message.html;
    if (message.note !== undefined) {
      board.innerHTML = '';
      const note = document.createElement('div');
      note.className = 'placeholder';
      note.textContent = message.note;
      board.appendChild(note);
    }
    document.body.dataset.line = message.line === undefined ? '' : String(message.line);
  });
</script></body></html>`;
}

class BoardView {
  constructor(getClient, output) {
    this.getClient = getClient;
    this.output = output;
    this.panel = null;
    this.editor = null; // the editor the board follows
    this.timer = null;
    this.asked = 0; // the number of the latest request; older answers are dropped
  }

  show() {
    const editor = vscode.window.activeTextEditor;
    if (editor && LANGUAGES.has(editor.document.languageId)) this.editor = editor;
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      this.panel = vscode.window.createWebviewPanel(
        'mtgr.board',
        'mtgr board',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
      );
      this.panel.webview.html = page(this.panel.webview);
      this.panel.onDidDispose(() => {
        this.panel = null;
      });
    }
    this.schedule(0);
  }

  follow(editor) {
    if (!this.panel || !editor || !LANGUAGES.has(editor.document.languageId)) return;
    this.editor = editor;
    this.schedule(DEBOUNCE_MS);
  }

  schedule(delay) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.update();
    }, delay);
  }

  async update() {
    const panel = this.panel;
    const editor = this.editor;
    if (!panel || !editor) return;
    const client = this.getClient();
    const asked = ++this.asked;
    const line = editor.selection.active.line;
    const name = editor.document.uri.path.split('/').pop();
    if (!client || !client.isRunning()) {
      panel.webview.postMessage({ note: 'The mtgr language server is not running.' });
      return;
    }
    let answer;
    try {
      answer = await client.sendRequest('mtgr/board', {
        textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
        line,
        formats: ['html'],
      });
    } catch (error) {
      this.output.warn(`mtgr/board: ${error}`);
      return;
    }
    if (asked !== this.asked || panel !== this.panel) return; // a newer request is on its way
    if (!answer) {
      panel.webview.postMessage({ note: 'Checking the record...' });
      this.schedule(250);
      return;
    }
    panel.title = `Board: ${name}:${answer.line + 1}`;
    panel.webview.postMessage({ html: answer.html, css: answer.css, line: answer.line + 1 });
  }
}

function register(context, getClient, output) {
  const view = new BoardView(getClient, output);
  context.subscriptions.push(
    vscode.commands.registerCommand('mtgr.showBoard', () => view.show()),
    vscode.window.onDidChangeTextEditorSelection((event) => view.follow(event.textEditor)),
    vscode.window.onDidChangeActiveTextEditor((editor) => view.follow(editor)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (view.editor && event.document === view.editor.document) view.follow(view.editor);
    }),
  );
  return view;
}

module.exports = { register };
