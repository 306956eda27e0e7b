import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type CredentialLock, credentialLock, type LineTicket } from "../../../../worker/domain/pipeline/credential-lock";

// Leases, fences, sessions and the line's order are asserted through the lock's RPC methods in ../credential-lock.test.ts;
// here, what the object keeps of its line and of how long jobs hold the credential.

const LEASE_MS = 60_000;

const kept = (lock: DurableObjectStub<CredentialLock>) =>
  runInDurableObject(lock, (_lock: CredentialLock, state) => {
    const rows = (query: string) => state.storage.sql.exec(query).toArray().map((r) => ({ ...r }));
    return {
      line: rows("SELECT job_id, seq, granted_at FROM line ORDER BY seq"),
      lease: rows("SELECT job_id, fence, lease_until, active FROM lease"),
      lastFence: rows("SELECT fence FROM last_fence")[0]?.fence ?? null,
      holdEstimateMs: rows("SELECT ms FROM hold_estimate")[0]?.ms ?? null,
    };
  });

describe("CredentialLock's storage", () => {
  it("drops a waiting job from the line once its deadline passed, and learns how long jobs hold the credential from each release", async () => {
    const lock = credentialLock(env, crypto.randomUUID());
    const now = Date.now();
    const ticket = (requestKey: string, deadlineAt: number): LineTicket => ({ requestKey, deadlineAt });
    expect(await lock.acquireOrQueue("job-a", LEASE_MS, ticket("a", now + 3_600_000), now)).toMatchObject({ granted: true, fence: 1 });
    // With no history a hold is reckoned at 30 s: job-b, first behind job-a, needs 60 s before its deadline, and has 70.
    expect(await lock.acquireOrQueue("job-b", LEASE_MS, ticket("b", now + 70_000), now + 1)).toMatchObject({ line: "waiting", position: 1 });
    expect(await lock.acquireOrQueue("job-c", LEASE_MS, ticket("c", now + 3_600_000), now + 2)).toMatchObject({ line: "waiting", position: 2 });
    expect(await kept(lock)).toEqual({
      line: [
        { job_id: "job-a", seq: 1, granted_at: now },
        { job_id: "job-b", seq: 2, granted_at: null },
        { job_id: "job-c", seq: 3, granted_at: null },
      ],
      lease: [{ job_id: "job-a", fence: 1, lease_until: now + LEASE_MS, active: 1 }],
      lastFence: 1,
      holdEstimateMs: null,
    });

    // job-a ends after job-b's deadline: job-b has left the line, and the lease goes, parked, to job-c.
    expect(await lock.release("job-a", LEASE_MS, now + 70_000)).toEqual({ closeSessionId: null, handedTo: "job-c", waiting: [] });
    expect(await kept(lock)).toEqual({
      line: [{ job_id: "job-c", seq: 3, granted_at: null }],
      lease: [{ job_id: "job-c", fence: 1, lease_until: now + 70_000 + LEASE_MS, active: 0 }],
      lastFence: 1,
      // The first hold measured is taken as it is.
      holdEstimateMs: 70_000,
    });

    expect(await lock.acquireOrQueue("job-c", LEASE_MS, ticket("c", now + 3_600_000), now + 70_001)).toMatchObject({ granted: true, fence: 2 });
    expect((await kept(lock)).line).toEqual([{ job_id: "job-c", seq: 3, granted_at: now + 70_001 }]);
    expect(await lock.release("job-c", LEASE_MS, now + 110_001)).toEqual({ closeSessionId: null, handedTo: null, waiting: [] });
    // Later holds weigh a third: (2 × 70 s + 40 s) / 3.
    expect(await kept(lock)).toEqual({ line: [], lease: [], lastFence: 2, holdEstimateMs: 60_000 });
  });
});
