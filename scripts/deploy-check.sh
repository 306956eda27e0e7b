#!/usr/bin/env bash
# Validates the production deployment without a Cloudflare account (`npm run deploy:check`, part of `npm test`):
# `wrangler deploy --dry-run --env production` bundles the worker and checks [env.production] in wrangler.toml
# (bindings, queue consumer, Durable Object classes exported and migrated, the container's Dockerfile and limits).
# No Docker engine runs here or in CI, so WRANGLER_DOCKER_BIN points at a no-op (scripts/docker-noop.sh, which reads
# the Dockerfile wrangler pipes to it and exits 0): the container image is not built by this check. A real deploy
# builds and pushes it (docs/deploying.md).
# With WORKER_BUNDLE_DIR set, the bundle is kept there: `npm test`'s end-to-end stacks serve it (the bundle of the
# production environment is the top level's, byte for byte), so the run bundles the worker once.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
log="$out/wrangler.log"
bundle="${WORKER_BUNDLE_DIR:-$out/bundle}"
if ! WRANGLER_DOCKER_BIN="$PWD/scripts/docker-noop.sh" WRANGLER_SEND_METRICS=false CI=1 NO_COLOR=1 \
  node_modules/.bin/wrangler deploy --dry-run --env production --outdir "$bundle" >"$log" 2>&1; then
  cat "$log"
  echo "deploy:check failed: the production configuration does not build" >&2
  exit 1
fi
# Wrangler only warns about some mistakes (a var or binding left out of the environment): any warning fails the check.
if grep -q "WARNING" "$log"; then
  cat "$log"
  echo "deploy:check failed: wrangler warned about the production configuration" >&2
  exit 1
fi
sed -n '/Your Worker has access to/,/--dry-run: exiting now/p' "$log"
echo "deploy:check passed: production bundle $(du -k "$bundle/index.js" | cut -f1) KiB, configuration valid"
