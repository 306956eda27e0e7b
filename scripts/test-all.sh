#!/usr/bin/env bash
# `npm test`: every check CI runs.
#   checks:  the bindings' types against wrangler.toml, typecheck, deploy:check, the SDK build (the end-to-end tests
#            load it)
#   node:    the sandbox, adapters in Chromium, the scraper service, the OpenAPI lint
#   workers: the Workers runtime tests
#   e2e:     the end-to-end tests against the real local stack
# The quick checks run first, so a type error shows within a minute (started beside the other lanes, they cost a fresh
# clone more than they saved: docs/testing.md, "stop 55"). The node lane then runs beside the Workers lane, one file at
# a time: its files mostly wait on Chromium and local servers, and fill the cores the Workers lane leaves idle while
# its runtimes load the worker's modules ("stop 54"). The end-to-end lane runs last, on its own: it keeps both cores
# busy.
# Each lane's output goes to test-artifacts/reports/<lane>.log and is printed when the lane ends; vitest's JSON
# reports beside it give the summary's counts. Every lane runs even after one failed, so one run reports every
# failure; the exit status is non-zero when any lane failed.
set -uo pipefail
cd "$(dirname "$0")/.."
REPORTS=test-artifacts/reports
# The runtimes keep their local storage under TMPDIR: Miniflare's D1, R2 and Durable Object SQLite files, the
# end-to-end stacks' state, Chromium's profiles. Every D1 commit there is an fsync, which on a disk cost the Workers
# lane alone 205 s against 178 s on memory, and the end-to-end lane 193 s against 183 s (docs/testing.md). The
# directory goes with the run.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  TMPDIR=$(mktemp -d /dev/shm/collect-tests.XXXXXX)
  export TMPDIR
  own_tmpdir=1
fi
# deploy:check keeps the worker's bundle here for the end-to-end stacks to serve (scripts/deploy-check.sh).
WORKER_BUNDLE_DIR=$(mktemp -d)
export WORKER_BUNDLE_DIR
trap 'rm -rf "$WORKER_BUNDLE_DIR" ${own_tmpdir:+"$TMPDIR"}' EXIT
rm -rf "$REPORTS"
mkdir -p "$REPORTS"
vitest() { npx vitest run --config "$1" --reporter=default --reporter=json --outputFile.json="$REPORTS/$2.json" "${@:3}"; }

lane() {
  local name=$1
  shift
  local started=$SECONDS
  if ("$@") >"$REPORTS/$name.log" 2>&1; then
    echo "== lane $name passed in $((SECONDS - started)) s"
    tail -n 6 "$REPORTS/$name.log"
  else
    echo "== lane $name FAILED in $((SECONDS - started)) s; its output:"
    cat "$REPORTS/$name.log"
    return 1
  fi
}
workers() { vitest vitest.config.ts workers; }
e2e() { vitest vitest.e2e.config.ts e2e; }
# Three checks side by side, each under one core most of its time: on a fresh clone 10 s, 5 s and 3 s one after the
# other.
checks() {
  npm run -s deploy:check &
  local bundle=$!
  npm run -s build:sdk &
  local sdk=$!
  # worker-configuration.d.ts is generated from wrangler.toml: a binding changed there and not regenerated fails here.
  WRANGLER_SEND_METRICS=false npm run -s types:bindings -- --check && npm run -s typecheck
  local types=$?
  wait "$bundle" && wait "$sdk" && return "$types"
}
node_lane() { vitest vitest.node.config.ts node --maxWorkers=1; }

status=0
lane checks checks || status=1
lane node node_lane &
node_pid=$!
lane workers workers || status=1
wait "$node_pid" || status=1
lane e2e e2e || status=1
node scripts/test-summary.mjs "$REPORTS" || status=1
exit $status
