#!/usr/bin/env bash
# Runs before `npm start` and `npm test`: a fresh clone needs nothing but these two commands.
set -euo pipefail
cd "$(dirname "$0")/.."
# Chromium and the fonts (apt, on a new machine: 20-30 s) install while npm installs: neither needs the other, and a
# new machine, CI's among them, needs both (docs/testing.md, "stop 54").
# The Java and Python clients' toolchains (apt too) after Chromium's: two apt runs at once would fight over dpkg's lock.
{ bash scripts/ensure-chromium.sh && bash scripts/ensure-client-toolchains.sh; } &
chromium=$!
if [ ! -x node_modules/.bin/wrangler ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install`, not `npm ci`: npm cannot lock the other platforms' optional workerd binaries for two
  # workerd versions (wrangler's and the vitest plugin's), which makes `npm ci` refuse the lock.
  # Quiet on every machine: allowScripts in package.json decides each dependency's install script
  # (docs/testing.md says why), so npm has nothing left to warn about.
  npm install --no-audit --no-fund --loglevel=error
fi
wait "$chromium"
