#!/usr/bin/env bash
# One plain-Node test tier: `scripts/mocha-tier.sh <mocharc> [mocha args…]`.
# The process tier runs its spec files two at a time (.mocharc.process.json: parallel), each in a
# worker process that mocha ends without running its exit handlers; so the run's one temp folder
# (TMPDIR for the specs and every process they start: conductor/test/testEnv.setup.cjs) is made
# and removed here, around the whole tier, whatever the workers leave. SYMPOSIUM_KEEP_TEST_TMP=1
# keeps it.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; cd "$ROOT"
config=$1; shift
run=$(mktemp -d "${TMPDIR:-/tmp}/symposium-test-run-XXXXXX")
export SYMPOSIUM_TEST_TMP="$run" TMPDIR="$run"
npx mocha --config "$config" "$@"
rc=$?
if [ -n "${SYMPOSIUM_KEEP_TEST_TMP:-}" ]; then echo "test temp folder kept: $run" >&2; else rm -rf "$run"; fi
exit $rc
