#!/usr/bin/env bash
# `npm test`: every check CI runs, in three lanes at once, since each lane spends much of its time waiting on
# browsers, local servers and the Workers runtime rather than on the CPU (docs/testing.md has the measurements):
#   workers: the Workers runtime tests
#   e2e:     the SDK build, then the end-to-end tests against the real local stack
#   checks:  typecheck, deploy:check, then the sandbox, adapters in Chromium, the scraper service, the OpenAPI lint
# Each lane's output goes to test-artifacts/reports/<lane>.log and is printed when the lane ends; vitest's JSON
# reports beside it give the summary's counts. The exit status is non-zero when any lane failed.
set -uo pipefail
cd "$(dirname "$0")/.."
REPORTS=test-artifacts/reports
rm -rf "$REPORTS"
mkdir -p "$REPORTS"
vitest() { npx vitest run --config "$1" --reporter=default --reporter=json --outputFile.json="$REPORTS/$2.json"; }

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
e2e() { npm run -s build:sdk && vitest vitest.e2e.config.ts e2e; }
checks() {
  npm run -s typecheck && npm run -s deploy:check && vitest vitest.node.config.ts node
}

lane workers workers &
lane e2e e2e &
lane checks checks &
status=0
for _ in 1 2 3; do wait -n || status=1; done
node scripts/test-summary.mjs "$REPORTS" || status=1
exit $status
