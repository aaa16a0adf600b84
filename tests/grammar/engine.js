'use strict';
// The TextMate engine VS Code uses (vscode-textmate + the Oniguruma WASM), loaded with the
// project's grammars, the Markdown grammar VS Code ships (from tm-grammars) and the mtgr
// injection into it.

const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const ROOT = path.resolve(__dirname, '..', '..');
const SYNTAXES = path.join(ROOT, 'syntaxes');
const GRAMMAR_FILES = {
  'source.mtgr': path.join(SYNTAXES, 'mtgr.tmLanguage.json'),
  'markdown.mtgr.codeblock': path.join(SYNTAXES, 'mtgr.markdown.tmLanguage.json'),
  'text.html.markdown': require.resolve('tm-grammars/grammars/markdown.json'),
};

let registryPromise = null;

function registry() {
  if (registryPromise === null) {
    registryPromise = (async () => {
      const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
      await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
      return new vsctm.Registry({
        onigLib: Promise.resolve({
          createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
          createOnigString: (text) => new oniguruma.OnigString(text),
        }),
        loadGrammar: async (scopeName) => {
          const file = GRAMMAR_FILES[scopeName];
          if (!file) return null; // languages embedded in Markdown that we do not load
          return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
        },
        // what VS Code does for a grammar contributed with injectTo
        getInjections: (scopeName) =>
          scopeName === 'text.html.markdown' ? ['markdown.mtgr.codeblock'] : undefined,
      });
    })();
  }
  return registryPromise;
}

async function loadGrammar(scopeName) {
  const grammar = await (await registry()).loadGrammar(scopeName);
  if (!grammar) throw new Error(`grammar ${scopeName} did not load`);
  return grammar;
}

// Tokenizes lines as an editor does, carrying the rule stack from line to line.
// Returns one array per line of {start, end, text, scopes}.
function tokenizeLines(grammar, lines) {
  let stack = vsctm.INITIAL;
  return lines.map((line) => {
    const result = grammar.tokenizeLine(line, stack, 1000);
    if (result.stoppedEarly) throw new Error(`tokenizing took too long: ${line}`);
    stack = result.ruleStack;
    return result.tokens.map((t) => ({
      start: t.startIndex,
      end: Math.min(t.endIndex, line.length),
      text: line.slice(t.startIndex, t.endIndex),
      scopes: t.scopes,
    }));
  });
}

// Lines of ```mtgr fenced blocks (any indentation, ``` or ~~~ fences) with 1-based numbers.
function mtgrBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const found = [];
  let fence = null;
  lines.forEach((line, index) => {
    if (fence === null) {
      const open = /^(\s*)(`{3,}|~{3,})\s*mtgr(?:[\s:,{?][^`]*)?$/i.exec(line);
      if (open) fence = open[2];
      return;
    }
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1][0] === fence[0] && close[1].length >= fence.length) {
      fence = null;
      return;
    }
    found.push({ number: index + 1, text: line });
  });
  return found;
}

module.exports = { ROOT, loadGrammar, tokenizeLines, mtgrBlocks };
