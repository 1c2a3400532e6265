#!/usr/bin/env bash
# Installs third-party programs the tests drive, outside the project's own dependency tree:
#  - acpx (npm `acpx`, a headless ACP CLI), in .test-tools/;
#  - the real agent CLIs, pinned, in .test-tools/agents/: Claude Code (both ACP adapters), Gemini
#    CLI, Qwen Code, Codex (codex-acp, a linux-x64 binary from npm) and OpenCode. The tests run
#    them offline against a scripted model server on loopback (conductor/test/realAgents/).
# They live here rather than in devDependencies because their dependency trees have platform
# packages this registry does not serve (darwin, win32), which `npm ci` refuses as "missing from
# lock file"; `npm install` here skips them as optional. Idempotent, like scripts/vscode-host-install.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; TOOLS="$ROOT/.test-tools"
ACPX_VER=0.19.1
if [ ! -f "$TOOLS/node_modules/acpx/dist/cli.js" ]; then
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && echo '{"private":true}' > package.json && npm install --no-save --no-audit --no-fund "acpx@$ACPX_VER")
fi
# The agents' versions: change them here, and the stamp below makes the next run reinstall.
AGENTS=(
  "@zed-industries/claude-code-acp@0.16.2"
  "@agentclientprotocol/claude-agent-acp@0.101.0"
  "@google/gemini-cli@0.61.0"
  "@qwen-code/qwen-code@0.24.4"
  "@zed-industries/codex-acp@0.16.0"
  "opencode-ai@1.18.33"
)
STAMP="$TOOLS/agents/installed.txt"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "${AGENTS[*]}" ]; then
  rm -rf "$TOOLS/agents"; mkdir -p "$TOOLS/agents"
  (cd "$TOOLS/agents" && echo '{"private":true}' > package.json && npm install --no-save --no-audit --no-fund --loglevel=error "${AGENTS[@]}")
  echo "${AGENTS[*]}" > "$STAMP"
fi
# Codex runs its commands in a bubblewrap sandbox (Debian package `bubblewrap`, installed by .ci/run).
command -v bwrap >/dev/null || echo "warning: bubblewrap (bwrap) is missing: Codex cannot run commands; apt-get install bubblewrap" >&2
echo "test tools ready: $TOOLS"
