import { defineConfig } from "vitest/config";

/** End-to-end tests: each file starts the real local stack (wrangler dev, scraper, sandbox) once. */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
