import { defineConfig } from "vitest/config";
import { SlowFirst } from "./test/support/slow-first";

/**
 * End-to-end tests against the real local stack (wrangler dev, scraper, sandbox). The global setup starts
 * each stack profile once for the whole run (test/support/e2e/profiles.ts) and every file claims a workspace of its
 * own, so four files run side by side (they wait on jobs more than they compute). Every file says where it starts
 * (`// start-order: N` in its first lines, test/support/start-order.ts): the two that mostly wait (faults' restarts
 * and schedule, bank-errors' page timeouts) beside the two that compute most, so their waits overlap others' work
 * and no file that waits is left for the lane's end (167 s and 317 CPU-seconds against 185-196 s and 364 with the
 * longest first: docs/testing.md, "stop 54"); so marked, a fresh clone without vitest's cache of durations starts
 * them in the same order.
 */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/support/e2e/global-setup.ts"],
    maxWorkers: 4,
    // A worker's files share one module graph (the client, puppeteer, the ground truths imported once, not per file):
    // the lane's vitest processes 35 CPU-seconds against 47. Each file works in browser contexts of its own in the
    // worker's Chromium (test/support/chromium.ts) and claims its own workspace, so none shares state with another.
    isolate: false,
    sequence: { sequencer: SlowFirst },
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
