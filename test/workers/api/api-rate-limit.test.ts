// start-order: 3 (why: vitest.config.ts)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../worker/platform/lib/crypto";
import { keyGate, type RequestGate } from "../../../worker/domain/api-keys/request-gate";
import { runInDurableObject } from "cloudflare:test";
import { call, callJson, createWorkspace, gateStorage, madeUpToken, onClock } from "../../support/workers/helpers";

describe("rate limiting per API key", () => {
  it("admits exactly 100 of 150 concurrent requests in a minute and answers the rest 429 with Retry-After", async () => {
    const ws = await createWorkspace();
    await onClock(0, async () => {
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
  });

  it("keeps keys independent", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    await onClock(0, async () => {
      await Promise.all(Array.from({ length: 100 }, () => call("/api/v1/schemas", { key: a.apiKey }).then((r) => r.arrayBuffer())));
      expect((await callJson("/api/v1/schemas", { key: a.apiKey })).status).toBe(429);
      expect((await callJson("/api/v1/schemas", { key: b.apiKey })).status).toBe(200);
    });
  });

  it("enforces the hourly window across minutes", async () => {
    const ws = await createWorkspace();
    const limiter = keyGate(env, await sha256Hex(ws.apiKey));
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour;
    // 5,000 hits inside the object itself (its real storage and code): as RPCs they took a minute on a loaded machine.
    const refusedBefore = await runInDurableObject(limiter, (gate: RequestGate) => {
      let refused = 0;
      for (let minute = 0; minute < 50; minute++) {
        for (let i = 0; i < 100; i++) if (!gate.hit(start + minute * 60_000).allowed) refused++;
      }
      return refused;
    });
    expect(refusedBefore).toBe(0);
    const over = await limiter.hit(start + 50 * 60_000);
    expect(over.allowed).toBe(false);
    expect(over.retryAfterSeconds).toBe(10 * 60);
  });

  it("limits unauthenticated callers by address too", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.9" };
    await onClock(0, async () => {
      const statuses = await Promise.all(Array.from({ length: 105 }, () => call("/api/v1/data-jobs", { headers }).then(async (r) => (await r.arrayBuffer(), r.status))));
      expect(statuses.filter((s) => s === 401)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    });
  });
});

describe("requests with keys nobody issued", () => {
  it("leave nothing stored in the gate such a key would have", async () => {
    const token = madeUpToken("sk_");
    const res = await callJson("/api/v1/data-jobs", { key: token, headers: { "CF-Connecting-IP": "192.0.2.10" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("INVALID_TOKEN");
    const untouched = await gateStorage(keyGate(env, await sha256Hex(madeUpToken("sk_"))));
    expect(await gateStorage(keyGate(env, await sha256Hex(token)))).toEqual({ tables: [], bytes: untouched.bytes });
  });

  it("are refused per address after 100 a minute, before their keys are looked up", async () => {
    const address = { "CF-Connecting-IP": "192.0.2.20" };
    // The burst, a new workspace and two more calls, all in one window on a stopped clock.
    await onClock(0, async () => {
      const responses = await Promise.all(Array.from({ length: 105 }, () => callJson("/api/v1/schemas", { key: madeUpToken("sk_"), headers: address })));
      expect(responses.filter((r) => r.status === 401 && r.body.code === "INVALID_TOKEN")).toHaveLength(100);
      const limited = responses.filter((r) => r.status === 429);
      expect(limited).toHaveLength(5);
      for (const r of limited) {
        expect(r.body.code).toBe("API_RATE_LIMITED");
        expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      }
      // Had the gate asked D1, this real key would have been admitted on its own limit.
      const ws = await createWorkspace();
      const firstSeen = await callJson("/api/v1/schemas", { key: ws.apiKey, headers: address });
      expect(firstSeen.status).toBe(429);
      expect(firstSeen.body.code).toBe("API_RATE_LIMITED");
      expect((await callJson("/api/v1/schemas", { key: ws.apiKey, headers: { "CF-Connecting-IP": "192.0.2.21" } })).status).toBe(200);
    });
  });

  it("charge a real key's address once, for its first lookup, however many of its requests arrive together", async () => {
    const ws = await createWorkspace();
    const address = { "CF-Connecting-IP": "192.0.2.30" };
    await onClock(0, async () => {
      const statuses = await Promise.all(Array.from({ length: 20 }, () => call("/api/v1/schemas", { key: ws.apiKey, headers: address }).then(async (r) => (await r.arrayBuffer(), r.status))));
      expect(statuses.every((s) => s === 200)).toBe(true);
      const byAddress = await callJson("/api/v1/schemas", { headers: address });
      expect(byAddress.status).toBe(401);
      expect(byAddress.headers.get("X-RateLimit-Remaining")).toBe("98");
    });
  });

  it("do not lock a known key out of an address they exhausted", async () => {
    const ws = await createWorkspace();
    const address = { "CF-Connecting-IP": "192.0.2.40" };
    await onClock(0, async () => {
      expect((await callJson("/api/v1/schemas", { key: ws.apiKey, headers: address })).status).toBe(200);
      const made = await Promise.all(Array.from({ length: 100 }, () => callJson("/api/v1/schemas", { key: madeUpToken("sk_"), headers: address })));
      expect(made.filter((r) => r.status === 429)).toHaveLength(1);
      const known = await callJson("/api/v1/schemas", { key: ws.apiKey, headers: address });
      expect(known.status).toBe(200);
      expect(known.headers.get("X-RateLimit-Remaining")).toBe("98");
    });
  });
});
