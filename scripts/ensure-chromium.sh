#!/usr/bin/env bash
# The scraper and the browser tests drive Debian's Chromium (puppeteer's own download is not reachable here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum
else
  echo "Chromium not found at $CHROMIUM. Install it with: sudo apt-get install -y chromium fonts-nanum (or set CHROMIUM_PATH)." >&2
  exit 1
fi
