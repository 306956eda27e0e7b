import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { keyGate } from "../../worker/durable-objects/request-gate";
import { call, callJson, createWorkspace } from "./helpers";

/** Fixed windows reset on the minute; starting a burst just before that would split it across two windows. */
async function awayFromMinuteEdge(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 55_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}

describe("rate limiting per API key", () => {
  it("admits exactly 100 of 150 concurrent requests in a minute and answers the rest 429 with Retry-After", async () => {
    const ws = await createWorkspace();
    await awayFromMinuteEdge();
    const responses = await Promise.all(Array.from({ length: 150 }, () => call("/api/v1/providers", { key: ws.apiKey })));
    const bodies = await Promise.all(responses.map((r) => r.json<Record<string, unknown>>()));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.map((r, i) => ({ r, body: bodies[i]! })).filter(({ r }) => r.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(50);
    for (const { r, body } of limited) {
      expect(body.code).toBe("API_RATE_LIMITED");
      const retryAfter = Number(r.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(r.headers.get("X-Request-Id")).toBe(body.requestId);
    }
    const remaining = ok.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it("keeps keys independent", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    await awayFromMinuteEdge();
    await Promise.all(Array.from({ length: 100 }, () => call("/api/v1/schemas", { key: a.apiKey }).then((r) => r.arrayBuffer())));
    expect((await callJson("/api/v1/schemas", { key: a.apiKey })).status).toBe(429);
    expect((await callJson("/api/v1/schemas", { key: b.apiKey })).status).toBe(200);
  });

  it("enforces the hourly window across minutes", async () => {
    const ws = await createWorkspace();
    const limiter = keyGate(env, await sha256Hex(ws.apiKey));
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour;
    for (let minute = 0; minute < 50; minute++) {
      const at = start + minute * 60_000;
      const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.hit(at)));
      expect(decisions.every((d) => d.allowed)).toBe(true);
    }
    const over = await limiter.hit(start + 50 * 60_000);
    expect(over.allowed).toBe(false);
    expect(over.retryAfterSeconds).toBe(10 * 60);
  });

  it("limits unauthenticated callers by address too", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.9" };
    await awayFromMinuteEdge();
    const statuses = await Promise.all(Array.from({ length: 105 }, () => call("/api/v1/data-jobs", { headers }).then(async (r) => (await r.arrayBuffer(), r.status))));
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});
