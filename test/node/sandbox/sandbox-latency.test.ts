import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";

// Long enough that a health check answered without it stays below it on a loaded machine (353 ms for one, c4).
const LATENCY_MS = 1000;
let slow: SandboxServer;

beforeAll(async () => {
  slow = await startSandbox({ port: 0, pageLatencyMs: LATENCY_MS });
});
afterAll(async () => {
  await slow?.close();
});

async function timed(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

describe("sandbox page latency", () => {
  it("answers every page of the institutions after the configured latency, and its health check at once", async () => {
    for (const path of ["/bank/", "/taxportal/"]) {
      const page = await timed(`${slow.url}${path}`);
      expect(page.status).toBeLessThan(500);
      expect(page.ms).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
    expect((await timed(`${slow.url}/healthz`)).ms).toBeLessThan(LATENCY_MS);
  });

  it("waits for each request on its own, so concurrent visitors are not served one after another", async () => {
    const started = performance.now();
    const visits = await Promise.all(Array.from({ length: 8 }, () => timed(`${slow.url}/bank/`)));
    // One after another would take eight times the slowest visit.
    expect(performance.now() - started).toBeLessThan(Math.max(...visits.map((v) => v.ms)) * 2);
  });
});
