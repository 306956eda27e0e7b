#!/usr/bin/env bash
# `npm run test:quick [REF]`: the contributor's inner loop over what changed since REF (default HEAD, so uncommitted
# changes). Typecheck; then the node lane's tests whose module graph touches a changed file (the adapters' own tests
# against their replicas, the sandbox, the scraper); then the Workers runtime tests whose module graph touches a changed
# file of the worker or the contracts, and those that import a changed adapter or sandbox file themselves.
# Why not the Workers tests an adapter reaches through the worker: Browser Rendering runs the adapters inside it, so
# the pipeline imports every adapter and a change to one selected 75 Workers files (152 s at stop 69); the adapter's own tests are where its change is tested, and `npm test` runs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
ref="${1:-HEAD}"
npm run -s typecheck
npx vitest run --config vitest.node.config.ts --changed "$ref" --passWithNoTests

# Changed or new files that still exist (a deleted one has nothing left to import it).
mapfile -t changed < <({ git diff --name-only "$ref"; git ls-files --others --exclude-standard; } | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done)
selected=()
for file in "${changed[@]}"; do
  case "$file" in
    collectors/* | sandbox/*)
      # A Workers test that imports this file by its path, with or without the extension.
      mapfile -t importers < <(grep -rlE "[\"'/]${file%.*}(\.[jt]sx?)?[\"']" test/workers --include='*.ts' --include='*.tsx' || true)
      selected+=("${importers[@]}")
      ;;
    *) selected+=("$file") ;;
  esac
done
if ((${#selected[@]} == 0)); then
  echo "test:quick: nothing changed that the Workers runtime tests import"
  exit 0
fi
npx vitest related --run --config vitest.config.ts --passWithNoTests "${selected[@]}"
