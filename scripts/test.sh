#!/usr/bin/env bash
# The one command that runs every test (README: `npm test`).
#  1. build all bundles, 2. typecheck, 3. static checks (ESLint layer zones, Prettier, test names),
#  4. plain-Node mocha suites (`*.spec.ts`: unit + real-process conductor and ElizACP tests; among
#     them conductor/test/package.process.spec.ts builds the npm package's tarball, once, installs it
#     offline and drives it with acpx),
#  5. extension-host suites in a real VS Code host (code-server): the single-folder suites, then the
#  multi-root suite on a two-folder workspace, 6. real-browser webview tests (Playwright + chromium),
#  then the history's real-reload and two-window test, then the real chat with Claude Code, Codex and
#  Gemini CLI against the scripted model server.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; cd "$ROOT"
# The Debian packages first: installed when this user may, else stop now with the command to run.
bash scripts/debian-packages.sh
mkdir -p test-results
rm -f test-results/*.json

node esbuild.mjs
npx tsc -p . --noEmit
if [ -f webview/tsconfig.json ]; then npx tsc -p webview --noEmit; fi

# Keep going after a failing stage so the summary shows every stage; fail at the end.
status=0
# Lint (layer zones), formatter, test names: test-results/checks.json.
node scripts/static-checks.mjs || status=1
bash scripts/test-tools-install.sh  # acpx and the pinned real agents some node tests drive
# code-server and its Node 24: the host stages run in it, and Qwen Code (a real agent of the node
# stage) needs Node 22 or later, so it is installed before the node stage.
if [ -f scripts/run-ext-tests.mjs ]; then bash scripts/vscode-host-install.sh; fi
TEST_STAGE=node npx mocha --config .mocharc.json --reporter ./scripts/mocha-json-reporter.cjs || status=1

if [ -f scripts/run-ext-tests.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/run-ext-tests.mjs || status=1
  # A second host, on a two-folder workspace: only the multi-root suite (workspace-folder pick).
  bash scripts/vscode-host-run.sh scripts/run-ext-tests.mjs --suite multiroot \
    --workspace test-workspace-multi/symposium-multi.code-workspace --name host-multiroot || status=1
fi
if [ -f scripts/webview-e2e.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/webview-e2e.mjs || status=1
fi
# The history across real window reloads and two windows (its own code-server: reloads end its windows).
if [ -f scripts/history-e2e.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/history-e2e.mjs || status=1
fi
# Checkpoints: the "files changed" card clicked in the real page (Revert, Keep, a file's diff, Review changes).
if [ -f scripts/checkpoints-e2e.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/checkpoints-e2e.mjs || status=1
fi
# The agents people run, in the real chat, offline (the pinned agents of test-tools-install.sh).
if [ -f scripts/agents-e2e.mjs ]; then
  bash scripts/vscode-host-run.sh scripts/agents-e2e.mjs || status=1
fi
node scripts/summarize-results.mjs || status=1
exit $status
