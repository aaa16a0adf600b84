#!/usr/bin/env bash
# Builds the VS Code extension, vscode-extension/dist/mtgr.vsix, from this checkout:
#   1. the mtgr wheel from the repository (pip wheel --no-deps);
#   2. the server's runtime dependencies, exactly as pinned with their hashes in
#      vscode-extension/requirements.txt (pip-compile --generate-hashes from pyproject.toml;
#      pip install --require-hashes, wheels only, PyPI only), then that wheel, into
#      vscode-extension/bundled/libs; pure Python: the optional compiled `regex`
#      (parsimonious falls back to `re`) is left out, and any other compiled file stops
#      the build, since one .vsix serves every platform and Python 3.11+;
#   3. the TextMate grammars from syntaxes/, LICENSE and CHANGELOG.md copied in;
#   4. npm ci, then vsce package --no-dependencies, whose vscode:prepublish step bundles
#      extension.js and vscode-languageclient into out/extension.js with esbuild. Any vsce
#      warning fails the build, and the .vsix must hold that one JavaScript file and the
#      Python bundle.
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
pip_install=("$python" -m pip install --quiet --no-compile --disable-pip-version-check
  --root-user-action=ignore --no-deps --target "$libs")
"${pip_install[@]}" --require-hashes --only-binary=:all: -r "$ext/requirements.txt"
"${pip_install[@]}" "$wheel"
# every dependency the wheel declares is in the pinned set (pyproject.toml changed
# without re-running pip-compile otherwise)
"$python" - "$libs" <<'PY'
import sys
from importlib.metadata import distributions
from pip._vendor.packaging.requirements import Requirement
found = {d.metadata["Name"].lower().replace("_", "-"): d for d in distributions(path=[sys.argv[1]])}
unmet = []
for line in found["mtgr"].requires or []:
    requirement = Requirement(line)
    if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
        continue
    dist = found.get(requirement.name.lower().replace("_", "-"))
    if dist is None or not requirement.specifier.contains(dist.version, prereleases=True):
        unmet.append(f"{requirement} (pinned: {dist.version if dist else 'none'})")
if unmet:
    sys.exit("vscode-extension/requirements.txt does not satisfy " + ", ".join(unmet)
             + ": re-run the pip-compile command in its header")
PY
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

echo "== grammars, LICENSE, CHANGELOG.md"
mkdir -p "$ext/syntaxes"
cp "$root/syntaxes/mtgr.tmLanguage.json" "$root/syntaxes/mtgr.markdown.tmLanguage.json" \
  "$ext/syntaxes/"
cp "$root/LICENSE" "$root/CHANGELOG.md" "$ext/"

echo "== vsce package"
cd "$ext"
# npm ci, unless node_modules was installed from this very lock file
if [ ! -f node_modules/.package-lock.json ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p dist
rm -rf out dist/mtgr.vsix
npx --no-install @vscode/vsce package --no-dependencies --out dist/mtgr.vsix 2>&1 |
  tee "$work/vsce.log"
if grep -qi 'warning' "$work/vsce.log"; then
  echo "vsce package warned (see above): the build must be clean" >&2
  exit 1
fi
listing=$(unzip -Z1 dist/mtgr.vsix)
for needed in extension/out/extension.js extension/bundled/libs/mtgr/__main__.py \
  extension/bundled/libs/pygls/ extension/syntaxes/mtgr.tmLanguage.json \
  extension/images/icon.png extension/LICENSE.txt; do
  if ! grep -qF "$needed" <<<"$listing"; then
    echo "dist/mtgr.vsix lacks $needed" >&2
    exit 1
  fi
done
scripts=$(grep -E '^extension/.*\.(js|cjs|mjs)$' <<<"$listing" | grep -v '^extension/bundled/' || true)
if [ "$scripts" != extension/out/extension.js ]; then
  echo "dist/mtgr.vsix must hold one JavaScript file, out/extension.js; it holds:" >&2
  echo "$scripts" >&2
  exit 1
fi
ls -l dist/mtgr.vsix
