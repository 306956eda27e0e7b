import { defineConfig } from "vitest/config";
import { SlowFirst } from "./test/support/slow-first";

/** Node tests: the sandbox institutions, adapters in real Chromium (beside each adapter, collectors/<institution>/), the scraper service over HTTP. */
export default defineConfig({
  test: {
    include: ["test/node/**/*.test.ts", "collectors/**/*.test.ts", "contracts/**/*.test.ts"],
    environment: "node",
    // Two files at once: most of a file's time is spent waiting on Chromium and local servers.
    maxWorkers: 2,
    // A worker's files share one module graph (puppeteer, the sandbox, the adapters imported once, not per file):
    // 13% less CPU for the lane; every file starts its own servers and browsers, so none shares state.
    isolate: false,
    // The slowest files (the card, Hometax, tax portal and bank adapters in Chromium, then the scraper's) say
    // `// start-order: N` in their first lines and start first, so none is left for the lane's end (docs/testing.md).
    sequence: { sequencer: SlowFirst },
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
