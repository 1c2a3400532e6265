#!/usr/bin/env bash
# The one command that runs every test (README: `npm test`).
#  1. build all bundles, 2. typecheck, 3. plain-Node mocha suites (unit + real-process conductor
#  and ElizACP tests), 4. extension-host suites in a real VS Code host (code-server),
#  5. real-browser webview tests (Playwright + Debian chromium).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; cd "$ROOT"
mkdir -p test-results

node esbuild.mjs
npx tsc -p . --noEmit
[ -f webview/tsconfig.json ] && npx tsc -p webview --noEmit

npx mocha --config .mocharc.json --reporter spec --reporter-option "output=" 2>&1 | tee test-results/unit.txt

if [ -f scripts/run-ext-tests.mjs ]; then
  bash scripts/vscode-host-install.sh
  bash scripts/vscode-host-run.sh scripts/run-ext-tests.mjs
fi
if [ -f scripts/webview-e2e.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/webview-e2e.mjs
fi
node scripts/summarize-results.mjs
