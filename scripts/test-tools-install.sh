#!/usr/bin/env bash
# Installs third-party ACP clients the tests drive, outside the project's own dependency tree:
# acpx (npm `acpx`, a headless ACP CLI). It lives in .test-tools/ rather than in devDependencies
# because its dependency tree has platform packages this registry does not serve (darwin, win32),
# which `npm ci` refuses as "missing from lock file"; `npm install` here skips them as optional.
# Idempotent, like scripts/vscode-host-install.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; TOOLS="$ROOT/.test-tools"
ACPX_VER=0.19.1
if [ ! -f "$TOOLS/node_modules/acpx/dist/cli.js" ]; then
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && echo '{"private":true}' > package.json && npm install --no-save --no-audit --no-fund "acpx@$ACPX_VER")
fi
echo "test tools ready: $TOOLS"
