#!/usr/bin/env bash
# `npm run test:quick [REF]`: the contributor's inner loop over what changed since REF (default HEAD, so uncommitted
# changes), within 90 s; `npm test` runs everything. Typecheck; then the node lane's tests whose module graph touches a
# changed file (the adapters' own tests against their replicas, the sandbox, the scraper); then the Workers runtime
# tests of each changed file's concept: a changed test itself, the tests that import a changed file by its path and
# those in the test folder that mirrors its folder (test/workers/domain/jobs/ for worker/domain/jobs/create.ts), or,
# for a worker file with neither, those of the folders of the worker files that import it.
# Why not the Workers tests whose module graph touches the change (`vitest related`): every test that calls the API
# reaches the whole app through test/support/workers/helpers.ts, so any worker change selected some 75 of the 86
# Workers files (3.5 min at stop 71), and an adapter's change did too through Browser Rendering (152 s at stop 69).
set -euo pipefail
cd "$(dirname "$0")/.."
ref="${1:-HEAD}"
npm run -s typecheck
npx vitest run --config vitest.node.config.ts --changed "$ref" --passWithNoTests

# Changed or new files that still exist: a deleted one leaves its importers changed too, or typecheck failing.
mapfile -t changed < <({ git diff --name-only "$ref"; git ls-files --others --exclude-standard; } | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done)

# Files under $2 that import $1 by its path, with or without the extension (a relative import ends with its last two
# segments, or is ./name beside it). Only those under $2: an adapter's own tests beside it are the node lane's.
importers() {
  local file=$1 under=$2 stem=${1%.*}
  local tail="${stem#"${stem%/*/*}"/}"
  { grep -rlE "[\"'/]${tail}(\.[jt]sx?)?[\"']" "$under" --include='*.ts' --include='*.tsx' || true
    grep -lE "[\"']\./${stem##*/}(\.[jt]sx?)?[\"']" "$(dirname "$file")"/*.ts "$(dirname "$file")"/*.tsx 2>/dev/null || true; } |
    { grep "^${under}/" || true; } | { grep -v "^${file}$" || true; } | sort -u
}
# The Workers tests of the folder that mirrors a worker file's (worker/x/y.ts: test/workers/x/).
mirrored() {
  local folder="test/workers/$(dirname "${1#worker/}")"
  folder=${folder%/.}
  [[ -d $folder ]] && find "$folder" -maxdepth 1 -name '*.test.ts' || true
}

selected=()
for file in "${changed[@]}"; do
  case "$file" in
    test/workers/*.test.ts) selected+=("$file") ;;
    worker/*)
      # The storage-wide tests are run for their own folder's files only: one of them that merely sets up with a changed
      # file costs the runner that holds them all (some 25 s).
      mapfile -t found < <(importers "$file" test/workers | { grep -v '\.storage-wide\.test\.ts$' || true; }; mirrored "$file")
      # A file without tests of its own folder (a platform helper) is tested where its users are.
      if ! printf '%s\n' "${found[@]}" | grep -q '\.test\.ts$'; then
        mapfile -t found < <(importers "$file" worker | while read -r user; do mirrored "$user"; done)
      fi
      selected+=("${found[@]}")
      ;;
    collectors/* | sandbox/* | contracts/* | test/support/workers/*)
      mapfile -t found < <(importers "$file" test/workers | grep '\.test\.ts$' || true)
      selected+=("${found[@]}")
      ;;
  esac
done
# The tests that act on every row in storage run through the one file that imports them all (vitest.config.ts).
mapfile -t selected < <(printf '%s\n' "${selected[@]}" | grep '\.test\.ts$' | sed 's#^test/workers/.*\.storage-wide\.test\.ts$#test/workers/storage-wide.test.ts#' | sort -u)
if ((${#selected[@]} == 0)); then
  echo "test:quick: no Workers test is of what changed"
  exit 0
fi
echo "test:quick: ${#selected[@]} Workers test files"
npx vitest run --config vitest.config.ts "${selected[@]}"
