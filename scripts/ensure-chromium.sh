#!/usr/bin/env bash
# The scraper and the browser tests drive Debian's Chromium headless shell (puppeteer's own download is not reachable
# here; scraper-container/browser-pool.ts says why the shell).
# apt is skipped entirely when Chromium and the Korean fonts are already on the machine; when it runs, it
# installs without recommends (they add hundreds of MB that headless Chromium never uses).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
FONTS=/usr/share/fonts/truetype/nanum
if [ -x "$CHROMIUM" ] && [ -d "$FONTS" ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell fonts-nanum >/dev/null
else
  echo "Chromium or the Nanum fonts are missing. Install them with: sudo apt-get install -y --no-install-recommends chromium-headless-shell fonts-nanum (or set CHROMIUM_PATH)." >&2
  exit 1
fi
