#!/usr/bin/env bash
# The Debian packages `npm test` needs, checked first: installed here when this user may (root, or
# sudo without a password), else the run stops at once with the one command to run. Also used by
# .ci/run, so the list lives in one place.
#   chromium, chromium-headless-shell: real-browser tests (the shell) and benches (the full browser); libkrb5-dev, python3, make, g++: code-server's native addons;
#   curl, tar: installers; git: checkpoints (their shadow repositories) and their tests; librust-serde-dev, librust-itoa-dev: real crate sources (crate-sources
#   tests); gopls, golang-go: the Go language server (ide-lsp fallback tests); bubblewrap: the
#   sandbox Codex, one of the real agents of the tests, runs its commands in.
set -euo pipefail
PACKAGES=(chromium chromium-headless-shell libkrb5-dev python3 make g++ curl tar git librust-serde-dev librust-itoa-dev gopls golang-go bubblewrap)
# `debian-packages.sh start`: only what `npm start` needs (code-server's native addons; git for checkpoints).
COMMAND="npm test"
if [ "${1:-}" = start ]; then PACKAGES=(libkrb5-dev python3 make g++ git); COMMAND="npm start"; fi
command -v dpkg-query >/dev/null || { echo "debian-packages: not a Debian system; make sure these are installed: ${PACKAGES[*]}" >&2; exit 0; }
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo"; else
  echo "Missing Debian packages: ${missing[*]}" >&2
  echo "Install them, then run $COMMAND again:  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "installing missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
