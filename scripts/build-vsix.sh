#!/usr/bin/env bash
# Builds the VS Code extension, vscode-extension/dist/mtgr.vsix, from this checkout:
#   1. the mtgr wheel from the repository (pip wheel --no-deps);
#   2. that wheel and its runtime dependencies installed into vscode-extension/bundled/libs
#      (pip install --target; PyPI only), pure Python: the optional compiled `regex`
#      (parsimonious falls back to `re`) is left out, and any other compiled file stops
#      the build, since one .vsix serves every platform and Python 3.11+;
#   3. the TextMate grammars copied in from syntaxes/;
#   4. npm ci, then vsce package.
# Needs Python 3.11+ with pip (PYTHON=..., default: the repo's .venv, else python3), Node
# 20+ and npm. Works from a fresh clone; everything it makes is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ext=$root/vscode-extension
libs=$ext/bundled/libs

if [ -n "${PYTHON:-}" ]; then
  python=$PYTHON
elif [ -x "$root/.venv/bin/python" ]; then
  python=$root/.venv/bin/python
else
  python=python3
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== wheel"
"$python" -m pip wheel --quiet --no-deps --wheel-dir "$work/wheel" "$root"
wheel=$(ls "$work"/wheel/mtgr-*.whl)
echo "$(basename "$wheel")"

echo "== bundled/libs"
rm -rf "$ext/bundled"
"$python" -m pip install --quiet --no-compile --disable-pip-version-check \
  --root-user-action=ignore --target "$libs" "$wheel"
rm -rf "$libs/bin" "$libs"/regex "$libs"/regex-*.dist-info
compiled=$(find "$libs" -type f \( -name '*.so' -o -name '*.pyd' -o -name '*.dylib' \))
if [ -n "$compiled" ]; then
  echo "compiled files in the bundle (it must be pure Python):" >&2
  echo "$compiled" >&2
  exit 1
fi
# the bundle alone (-S: no site-packages) imports the server and runs the command line
PYTHONPATH=$libs "$python" -S -c 'import mtgr.server.app, mtgr.syntax.parser, pygls, lsprotocol'
PYTHONPATH=$libs "$python" -S -m mtgr lsp --help >/dev/null
ls "$libs"

echo "== grammars"
mkdir -p "$ext/syntaxes"
cp "$root/syntaxes/mtgr.tmLanguage.json" "$root/syntaxes/mtgr.markdown.tmLanguage.json" \
  "$ext/syntaxes/"

echo "== vsce package"
cd "$ext"
npm ci --no-audit --no-fund --loglevel=error
mkdir -p dist
npx --no-install @vscode/vsce package --allow-missing-repository --skip-license \
  --out dist/mtgr.vsix
listing=$(unzip -l dist/mtgr.vsix)
for needed in extension/bundled/libs/mtgr/__main__.py extension/bundled/libs/pygls/ \
  extension/syntaxes/mtgr.tmLanguage.json extension/node_modules/vscode-languageclient/; do
  if ! grep -qF "$needed" <<<"$listing"; then
    echo "dist/mtgr.vsix lacks $needed" >&2
    exit 1
  fi
done
ls -l dist/mtgr.vsix
