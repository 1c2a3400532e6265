#!/usr/bin/env bash
# The one command that runs every test (README: `npm test`).
#  1. build all bundles, 2. typecheck, 3. static checks (ESLint layer zones, Prettier, test names),
#  4. plain-Node mocha, in tiers: the unit tier (`*.spec.ts`, no process started:
#     .mocharc.json), the process tier (`*.process.spec.ts`: real conductors, ElizACP, language
#     servers, git; .mocharc.process.json; among them conductor/test/package.process.spec.ts builds the
#     npm package's tarball, installs it offline and drives it with acpx); the real agents' specs
#     (`realAgent*`, .mocharc.agents.json) run last, beside the real chat in the browser,
#  5. extension-host suites in a real VS Code host (code-server): the single-folder suites, then the
#  multi-root suite on a two-folder workspace, 6. real-browser webview tests (Playwright + chromium),
#  then the history's real-reload and two-window test, checkpoints, the packaged .vsix installed
#  into a server, then the real agents: their node
#  specs and the real chat with Claude Code, Codex and Gemini CLI against the scripted model server.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; cd "$ROOT"
# The Debian packages first: installed when this user may, else stop now with the command to run.
bash scripts/debian-packages.sh
mkdir -p test-results
rm -f test-results/*.json

# Each stage's time, printed at the end with the total (and kept in test-results/stage-times.txt).
STARTED=$SECONDS
: > test-results/stage-times.txt
# Keep going after a failing stage so the summary shows every stage; fail at the end.
status=0
# Installs and the real agents' stage are summed apart from the other stages.
installs=0
real_agents=0
# The machine's busy and total CPU ticks (all cores, /proc/stat): a stage's share of busy time
# says whether it waits (room to run things beside it) or computes.
cpu_ticks() { awk '/^cpu /{ print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat; }
stage() {
  local name=$1 t0=$SECONDS rc=0 b0 a0 b1 a1
  shift
  read -r b0 a0 < <(cpu_ticks)
  "$@" || rc=$?
  read -r b1 a1 < <(cpu_ticks)
  local took=$((SECONDS - t0)) busy=$(( (b1 - b0) * 100 / (a1 - a0 > 0 ? a1 - a0 : 1) ))
  case $name in install:*) installs=$((installs + took)) ;; *'real agents'*) real_agents=$((real_agents + took)) ;; esac
  printf '%-34s %4ds  cpu %3d%%%s\n' "$name" $took $busy "$([ $rc -eq 0 ] || echo '  (failed)')" >> test-results/stage-times.txt
  [ $rc -eq 0 ] || status=1
  return 0
}

stage 'build' node esbuild.mjs
# The host/conductor and the webview projects, at once.
stage 'typecheck' bash -c 'npx tsc -p . --noEmit & p=$!; npx tsc -p webview --noEmit; w=$?; wait $p && exit $w'
[ $status -eq 0 ] || { cat test-results/stage-times.txt; exit 1; }
# Lint (layer zones), formatter, test names: test-results/checks.json.
stage 'static checks' node scripts/static-checks.mjs
stage 'install: test tools' bash scripts/test-tools-install.sh  # acpx and the pinned real agents some node tests drive
# code-server and its Node 24: the host stages run in it, and Qwen Code (a real agent of the node
# stage) needs Node 22 or later, so it is installed before the node stage.
stage 'install: code-server' bash scripts/vscode-host-install.sh
stage 'node: unit' env TEST_STAGE=node-unit bash scripts/mocha-tier.sh .mocharc.json --reporter ./scripts/mocha-json-reporter.cjs
# Two spec files at a time (they share no state: each starts its own processes in its own folders).
stage 'node: processes' env TEST_STAGE=node-process bash scripts/mocha-tier.sh .mocharc.process.json --reporter ./scripts/mocha-json-reporter.cjs
stage 'host (code-server)' bash scripts/vscode-host-run.sh scripts/run-ext-tests.mjs
# A second host, on a two-folder workspace: only the multi-root suite (workspace-folder pick).
stage 'host, multi-root' bash scripts/vscode-host-run.sh scripts/run-ext-tests.mjs --suite multiroot \
  --workspace test-fixtures/workspace-multi/symposium-multi.code-workspace --name host-multiroot
stage 'browser: chat' bash scripts/vscode-host-run.sh scripts/webview-e2e.mjs
# The history across real window reloads and two windows (its own code-server: reloads end its windows).
stage 'browser: history' bash scripts/vscode-host-run.sh scripts/history-e2e.mjs
# Checkpoints: the "files changed" card clicked in the real page (Revert, Keep, a file's diff, Review changes).
stage 'browser: checkpoints' bash scripts/vscode-host-run.sh scripts/checkpoints-e2e.mjs
# The packaged extension: `npm run package` (production bundles into out/, then the .vsix), out/
# rebuilt for development at once, and the .vsix installed into a server as a user installs it.
stage 'browser: the .vsix' bash -c '
  npm run package > test-results/package.log 2>&1; p=$?
  node esbuild.mjs > /dev/null || exit 1
  [ $p -eq 0 ] || { cat test-results/package.log; exit 1; }
  VSCODE_HOST_INSTALL="$PWD/symposium.vsix" bash scripts/vscode-host-run.sh scripts/vsix-e2e.mjs'
# The agents people run, offline (the pinned agents of test-tools-install.sh): their specs through
# the conductor and the chat's controller (`realAgent*`, and the "with real agents" blocks of spec
# files that also test ElizACP), beside the real chat in a browser. Both mostly wait on the agents,
# so they run at once.
stage 'real agents: node and browser' bash -c '
  { TEST_STAGE=node-agents bash scripts/mocha-tier.sh .mocharc.agents.json --reporter ./scripts/mocha-json-reporter.cjs; a=$?
    TEST_STAGE=node-agents-inline bash scripts/mocha-tier.sh .mocharc.agents-inline.json --reporter ./scripts/mocha-json-reporter.cjs; i=$?
    [ $a -eq 0 ] && [ $i -eq 0 ]; } > test-results/node-agents.log 2>&1 & n=$!
  bash scripts/vscode-host-run.sh scripts/agents-e2e.mjs; b=$?
  wait $n; m=$?; cat test-results/node-agents.log; [ $m -eq 0 ] && [ $b -eq 0 ]'
stage 'summary' node scripts/summarize-results.mjs
total=$((SECONDS - STARTED))
{
  printf '%-34s %4ds\n' 'total' $total
  printf '%-34s %4ds\n' '  installs' $installs
  printf '%-34s %4ds\n' '  real agents' $real_agents
  printf '%-34s %4ds\n' '  the other stages' $((total - installs - real_agents))
} >> test-results/stage-times.txt
echo; echo 'Stage times:'; cat test-results/stage-times.txt
exit $status
