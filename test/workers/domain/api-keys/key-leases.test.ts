import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { KeyLeases } from "../../../../worker/domain/api-keys/key-leases";
import { LEASE_MS, MINUTE } from "../../../../worker/domain/api-keys/lease";
import { keyGate, LIMIT_PER_MINUTE, type RequestGate } from "../../../../worker/domain/api-keys/request-gate";
import { revokeKey } from "../../../../worker/domain/api-keys/revoke";
import { changeSuspension } from "../../../../worker/domain/api-keys/suspension";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { call, createWorkspace, onClock, type TestWorkspace } from "../../../support/workers/helpers";

/** Work an isolate would keep alive past its request (a refill asked for early), gathered so a test can wait for it. */
const background = () => {
  const kept: Promise<unknown>[] = [];
  return { keep: (work: Promise<unknown>) => void kept.push(work), settled: () => Promise.all(kept) };
};

/** The minute the gate counted, as stored. */
const minuteCount = (hash: string) =>
  runInDurableObject(keyGate(env, hash), (_gate: RequestGate, state) => state.storage.sql.exec<{ count: number }>("SELECT count FROM windows WHERE size = ?", MINUTE).one().count);

describe("leases of an API key's gate", () => {
  it("admit at most the key's limit across twelve isolates asking at once, and what they did not spend goes back when their leases end", async () => {
    const ws = await createWorkspace();
    const hash = await sha256Hex(ws.apiKey);
    const isolates = Array.from({ length: 12 }, () => new KeyLeases());
    const work = background();
    const start = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE + 1_000;
    const admitted = (answers: { admission: { decision: { allowed: boolean } } }[]) => answers.filter((a) => a.admission.decision.allowed).length;

    const first = await Promise.all(isolates.flatMap((isolate) => Array.from({ length: 25 }, () => isolate.admit(env, hash, "test-address", work.keep, start))));
    await work.settled();
    const firstAdmitted = admitted(first);
    expect(firstAdmitted).toBeLessThanOrEqual(LIMIT_PER_MINUTE);
    expect(first.filter((a) => !a.admission.decision.allowed).every((a) => a.admission.decision.retryAfterSeconds > 0)).toBe(true);
    // Every request of the minute is counted, spent or held in a lease.
    expect(await minuteCount(hash)).toBe(LIMIT_PER_MINUTE);

    // Once the leases end, each isolate in turn hands back what it held and spends until refused: the minute admits
    // its limit exactly, no more.
    let later = 0;
    for (const isolate of isolates) {
      for (;;) {
        const { admission } = await isolate.admit(env, hash, "test-address", work.keep, start + LEASE_MS);
        if (!admission.decision.allowed) break;
        later++;
      }
    }
    await work.settled();
    expect(firstAdmitted + later).toBe(LIMIT_PER_MINUTE);
  });

  it("stop admitting a revoked key, or a suspended workspace's key, in another isolate once its lease ends, within LEASE_MS", async () => {
    const start = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE + 1_000;
    const ends = [
      { end: (ws: TestWorkspace) => revokeKey(env, ws.workspaceId, ws.apiKeyId), failure: "INVALID_TOKEN" },
      { end: (ws: TestWorkspace) => changeSuspension(env, ws.workspaceId, start), failure: "WORKSPACE_SUSPENDED" },
    ];
    for (const { end, failure } of ends) {
      const ws = await createWorkspace();
      const hash = await sha256Hex(ws.apiKey);
      const elsewhere = new KeyLeases();
      const work = background();
      // A second request soon after the first takes a lease of several.
      await elsewhere.admit(env, hash, "test-address", work.keep, start);
      expect((await elsewhere.admit(env, hash, "test-address", work.keep, start + 100)).gate).toMatchObject({ waitedMs: expect.any(Number) });

      await end(ws);
      // Within its lease the other isolate still admits, without asking the gate.
      expect(await elsewhere.admit(env, hash, "test-address", work.keep, start + 200)).toMatchObject({ admission: { key: { id: ws.apiKeyId } }, gate: null });
      expect(await elsewhere.admit(env, hash, "test-address", work.keep, start + 100 + LEASE_MS)).toMatchObject({ admission: { failure } });
      await work.settled();
    }
  });

  it("keep the API's rate headers exact in one isolate and ask the gate for a few requests in ten, saying so in Server-Timing", async () => {
    const ws = await createWorkspace();
    await onClock(1_000, async () => {
      const answers: Response[] = [];
      for (let i = 0; i < 40; i++) answers.push(await call("/api/v1/providers", { key: ws.apiKey }));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      expect(answers.map((r) => Number(r.headers.get("X-RateLimit-Remaining")))).toEqual(answers.map((_, i) => LIMIT_PER_MINUTE - 1 - i));
      const timings = answers.map((r) => r.headers.get("Server-Timing"));
      expect(timings[0]).toMatch(/^gate;dur=\d+(\.\d)?$/);
      const asked = timings.filter((t) => t?.startsWith("gate"));
      // The first two wait for the gate (a lease of one, then one sized to the rate); later ones are asked for early.
      expect(asked.length).toBeLessThanOrEqual(12);
      expect(timings.filter((t) => t === null).length).toBeGreaterThanOrEqual(28);
    });
  });
});
