import { defineConfig } from "vitest/config";

/** Node tests: the sandbox institutions, adapters in real Chromium, the scraper service over HTTP. */
export default defineConfig({
  test: {
    include: ["test/node/**/*.test.ts"],
    environment: "node",
    // Two files at once: most of a file's time is spent waiting on Chromium and local servers.
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
