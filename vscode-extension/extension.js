'use strict';
// The mtgr extension: starts the mtgr language server (Python, stdio) with
// vscode-languageclient. Plain JavaScript; esbuild bundles it with the client library into
// out/extension.js (npm run bundle), the one script in the .vsix.
//
// Which server runs, first match wins:
//   1. mtgr.path: an installed `mtgr` executable (plus arguments); `lsp` is appended;
//   2. mtgr.interpreter, else the Python extension's interpreter, else python3/python,
//      running `python -m mtgr lsp`, with the server bundled in bundled/libs put first on
//      PYTHONPATH (mtgr.importStrategy = useBundled, the default), or only when that
//      interpreter has no mtgr installed (fromEnvironment).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile, spawnSync } = require('node:child_process');
const vscode = require('vscode');
const { LanguageClient, RevealOutputChannelOn, State } = require('vscode-languageclient/node');

const SECTION = 'mtgr';
const MIN_PYTHON = [3, 11];
// settings whose change needs a new server process; the rest reach the running server
const RESTART_SETTINGS = ['interpreter', 'path', 'importStrategy'];

let client = null;
let output = null;
let extensionRoot = '';
let restarting = Promise.resolve();

// ---- settings ------------------------------------------------------------------------

function workspaceFolderFor(scopeUri) {
  const folders = vscode.workspace.workspaceFolders || [];
  if (scopeUri) {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(scopeUri));
    if (folder) return folder;
  }
  return folders[0];
}

// ~, ${userHome}, ${workspaceFolder} and ${env:NAME} in path-like settings
function resolveVariables(value, folder) {
  if (typeof value !== 'string') return value;
  let out = value.replace(/^~(?=$|[\\/])/, os.homedir());
  out = out.replace(/\$\{userHome\}/g, os.homedir());
  out = out.replace(/\$\{env:([^}]+)\}/g, (_, name) => process.env[name] || '');
  if (folder) out = out.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  return out;
}

// the `mtgr` section as the server reads it (workspace/configuration and initializationOptions)
function settings(scopeUri) {
  const folder = workspaceFolderFor(scopeUri);
  const config = vscode.workspace.getConfiguration(SECTION, folder ? folder.uri : undefined);
  const strings = (key) => (config.get(key) || []).map((v) => resolveVariables(String(v), folder));
  return {
    interpreter: strings('interpreter'),
    path: strings('path'),
    importStrategy: config.get('importStrategy', 'useBundled'),
    rulesFile: resolveVariables(config.get('rulesFile', ''), folder),
    cardsFile: resolveVariables(config.get('cardsFile', ''), folder),
    severity: config.get('severity', {}),
    perspective: config.get('perspective', ''),
    inlayHints: { enabled: config.get('inlayHints.enabled', true) },
    trace: { server: config.get('trace.server', 'off') },
  };
}

// ---- finding the server --------------------------------------------------------------

async function pythonExtensionInterpreter(folder) {
  const python = vscode.extensions.getExtension('ms-python.python');
  if (!python) return [];
  try {
    const api = python.isActive ? python.exports : await python.activate();
    const environments = api && api.environments;
    if (!environments) return [];
    const active = environments.getActiveEnvironmentPath(folder ? folder.uri : undefined);
    const resolved = await environments.resolveEnvironment(active);
    const executable = resolved && resolved.executable && resolved.executable.uri;
    return executable ? [executable.fsPath] : [];
  } catch (error) {
    output.warn(`could not ask the Python extension for an interpreter: ${error}`);
    return [];
  }
}

const PROBE = 'import sys, importlib.util; '
  + 'print(sys.version_info[0], sys.version_info[1], importlib.util.find_spec("mtgr") is not None)';

// [major, minor, hasMtgr] of an interpreter, or null when it cannot be run
function probe(interpreter, env) {
  const done = spawnSync(interpreter[0], [...interpreter.slice(1), '-c', PROBE], {
    encoding: 'utf8', env, timeout: 20000, windowsHide: true,
  });
  if (done.error || done.status !== 0) {
    output.error(`${interpreter.join(' ')} did not run: ${done.error || done.stderr.trim()}`);
    return null;
  }
  const [major, minor, found] = done.stdout.trim().split(/\s+/);
  return [Number(major), Number(minor), found === 'True'];
}

function withPythonPath(env, first) {
  const current = env.PYTHONPATH ? [env.PYTHONPATH] : [];
  return { ...env, PYTHONPATH: [first, ...current].join(path.delimiter) };
}

async function serverOptions(config) {
  const folder = workspaceFolderFor();
  const cwd = folder ? folder.uri.fsPath : os.homedir();
  const env = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' };
  if (config.path.length > 0) {
    output.info(`server: ${config.path.join(' ')} lsp (mtgr.path)`);
    return { command: config.path[0], args: [...config.path.slice(1), 'lsp'], options: { cwd, env } };
  }
  let interpreter = config.interpreter;
  let source = 'mtgr.interpreter';
  if (interpreter.length === 0) {
    interpreter = await pythonExtensionInterpreter(folder);
    source = 'the Python extension';
  }
  if (interpreter.length === 0) {
    interpreter = [process.platform === 'win32' ? 'python' : 'python3'];
    source = 'PATH';
  }
  const found = probe(interpreter, env);
  if (found === null) {
    throw new Error(`cannot run Python (${interpreter.join(' ')}, from ${source}): `
      + 'set mtgr.interpreter to a Python 3.11 or newer, or mtgr.path to an installed mtgr');
  }
  const [major, minor, hasMtgr] = found;
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new Error(`${interpreter.join(' ')} is Python ${major}.${minor}; mtgr needs `
      + `${MIN_PYTHON.join('.')} or newer: set mtgr.interpreter`);
  }
  const bundled = path.join(extensionRoot, 'bundled', 'libs');
  let serverEnv = env;
  if (config.importStrategy === 'fromEnvironment' && hasMtgr) {
    output.info(`server: mtgr installed in ${interpreter.join(' ')} (from ${source})`);
  } else {
    if (config.importStrategy === 'fromEnvironment') {
      output.warn(`${interpreter.join(' ')} has no mtgr installed: using the bundled server`);
    }
    if (!fs.existsSync(path.join(bundled, 'mtgr'))) {
      throw new Error(`the bundled server is missing (${bundled}): reinstall the extension`);
    }
    serverEnv = withPythonPath(env, bundled);
    output.info(`server: bundled mtgr with ${interpreter.join(' ')} (from ${source})`);
  }
  return {
    command: interpreter[0],
    args: [...interpreter.slice(1), '-m', 'mtgr', 'lsp'],
    options: { cwd, env: serverEnv },
  };
}

// ---- explanations ------------------------------------------------------------------

// `mtgr explain CODE` in a read-only editor: documents of this scheme, mtgr-explain:/CODE.md
const EXPLAIN_SCHEME = 'mtgr-explain';
const CODE_PATTERN = /^[A-Z][0-9]{3}$/;

function explanationUri(code) {
  return vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: `/${code}.md` });
}

// the text of `mtgr explain CODE`, run by the same program as the server
async function explanation(uri) {
  const code = path.posix.basename(uri.path, '.md');
  if (!CODE_PATTERN.test(code)) return `${code} is not a diagnostic code (a letter and three digits).`;
  const server = await serverOptions(settings());
  const args = server.args.slice(0, -1).concat(['explain', code]);
  return new Promise((resolve) => {
    execFile(server.command, args, { ...server.options, timeout: 20000, windowsHide: true },
      (error, stdout, stderr) => {
        resolve(error ? `mtgr explain ${code} failed: ${stderr || error.message}` : stdout);
      });
  });
}

async function showExplanation(code) {
  const asked = code || await vscode.window.showInputBox({
    prompt: 'The diagnostic code to explain', placeHolder: 'R601',
    validateInput: (value) => (CODE_PATTERN.test(value.trim().toUpperCase()) ? null : 'a letter and three digits, e.g. R601'),
  });
  if (!asked) return;
  const document = await vscode.workspace.openTextDocument(explanationUri(asked.trim().toUpperCase()));
  await vscode.window.showTextDocument(document, { preview: true });
}

// a diagnostic's code opens its explanation in the editor instead of the web page
function withExplanationLinks(diagnostics) {
  for (const diagnostic of diagnostics) {
    const code = diagnostic.code;
    const value = code && typeof code === 'object' ? code.value : code;
    if (diagnostic.source === SECTION && typeof value === 'string' && CODE_PATTERN.test(value)) {
      diagnostic.code = { value, target: explanationUri(value) };
    }
  }
  return diagnostics;
}

// ---- when the server is needed ---------------------------------------------------------

// a line that may open an mtgr fence: at the top level, in a quote or a list item (an
// indented code block matches too: the server then finds no block, no harm)
const MTGR_FENCE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t>]+)*(`{3,}|~{3,})[ \t]*mtgr(?:[ \t{]|$)/im;

function needsServer(document) {
  return document.languageId === 'mtgr'
    || (document.languageId === 'markdown' && MTGR_FENCE.test(document.getText()));
}

async function workspaceHasRecords() {
  const found = await vscode.workspace.findFiles('**/*.mtgr', '**/node_modules/**', 1);
  return found.length > 0;
}

// ---- the client ----------------------------------------------------------------------

function clientOptions(config) {
  return {
    documentSelector: [
      { scheme: 'file', language: 'mtgr' },
      { scheme: 'untitled', language: 'mtgr' },
      // the server checks the ```mtgr blocks of Markdown pages
      { scheme: 'file', language: 'markdown' },
    ],
    outputChannel: output,
    traceOutputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: config,
    // workspace/didChangeConfiguration on every change of an mtgr.* setting
    synchronize: {
      configurationSection: SECTION,
      // the project settings files: the server re-checks open documents when one changes
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/mtgr.toml'),
        vscode.workspace.createFileSystemWatcher('**/pyproject.toml'),
      ],
    },
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => next(uri, withExplanationLinks(diagnostics)),
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        if (report && Array.isArray(report.items)) withExplanationLinks(report.items);
        return report;
      },
      workspace: {
        // answer workspace/configuration for `mtgr` with the resolved settings
        configuration: (params, token, next) => {
          const plain = next(params, token);
          const answer = (values) => (Array.isArray(values)
            ? params.items.map((item, i) => (item.section === SECTION ? settings(item.scopeUri) : values[i]))
            : values);
          return plain && typeof plain.then === 'function' ? plain.then(answer) : answer(plain);
        },
      },
    },
  };
}

async function startServer() {
  const config = settings();
  let server;
  try {
    server = await serverOptions(config);
  } catch (error) {
    output.error(String(error.message || error));
    vscode.window.showErrorMessage(`mtgr: ${error.message || error}`, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
    return;
  }
  client = new LanguageClient(SECTION, 'mtgr', server, clientOptions(config));
  client.onDidChangeState((event) => {
    if (event.newState === State.Stopped) output.info('server stopped');
  });
  try {
    await client.start();
    output.info('server started');
  } catch (error) {
    output.error(`server did not start: ${error}`);
    vscode.window.showErrorMessage('mtgr: the language server did not start.', 'Show Output')
      .then((choice) => {
        if (choice) output.show();
      });
  }
}

async function stopServer() {
  const running = client;
  client = null;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      output.warn(`stopping the server: ${error}`);
    }
  }
}

function restartServer() {
  restarting = restarting.then(async () => {
    await stopServer();
    await startServer();
  });
  return restarting;
}

// ---- activation ----------------------------------------------------------------------

async function activate(context) {
  extensionRoot = context.extensionPath;
  output = vscode.window.createOutputChannel('mtgr', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('mtgr.restartServer', restartServer),
    vscode.commands.registerCommand('mtgr.showOutput', () => output.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
        output.info('server settings changed: restarting');
        restartServer();
      }
    }),
    vscode.commands.registerCommand('mtgr.explain', showExplanation),
    vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, {
      provideTextDocumentContent: explanation,
    }),
    { dispose: () => stopServer() },
  );
  require('./board').register(context, () => client, output);
  // activated by a Markdown page: start the server once a page with an mtgr block opens
  if (await workspaceHasRecords() || vscode.workspace.textDocuments.some(needsServer)) {
    await restartServer();
  } else {
    output.info('no .mtgr file nor Markdown page with an mtgr block yet: the server waits');
    const waiting = vscode.workspace.onDidOpenTextDocument((document) => {
      if (!needsServer(document)) return;
      waiting.dispose();
      restartServer();
    });
    context.subscriptions.push(waiting);
  }
  return {
    // for tests: the running client, if any
    getClient: () => client,
  };
}

function deactivate() {
  return stopServer();
}

module.exports = { activate, deactivate, settings, resolveVariables, needsServer };
