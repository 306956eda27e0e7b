#!/usr/bin/env bash
# `npm run test:quick [REF]`: the contributor's inner loop. Typecheck, then the Workers runtime tests that import
# a file changed since REF (default HEAD, so uncommitted changes), through vitest's module graph.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck
npx vitest run --config vitest.config.ts --changed "${1:-HEAD}" --passWithNoTests
