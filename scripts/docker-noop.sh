#!/usr/bin/env bash
# Stands in for the Docker CLI in `npm run deploy:check` (WRANGLER_DOCKER_BIN): no Docker engine runs here or in CI.
# Wrangler pipes the Dockerfile to `docker build`, so it reads its input to the end (a bare /bin/true races that write,
# EPIPE) and succeeds without building anything.
cat >/dev/null
