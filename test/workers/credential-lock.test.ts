import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { credentialLock, type LeaseGrant } from "../../worker/durable-objects/credential-lock";

const stub = () => credentialLock(env, crypto.randomUUID());

describe("CredentialLock", () => {
  it("grants one job, refuses another until release, and keeps the holder's scraper session across its deliveries", async () => {
    const lock = stub();
    const first = (await lock.acquire("job-a", 60_000)) as LeaseGrant;
    expect(first).toMatchObject({ granted: true, scraperSessionId: null, supersededSessionId: null });
    expect(await lock.rememberSession(first.fence, "s-1")).toBe(true);
    expect(await lock.acquire("job-b", 60_000)).toMatchObject({ granted: false, heldBy: "job-a", busy: false });
    await lock.park(first.fence);
    const second = (await lock.acquire("job-a", 60_000)) as LeaseGrant;
    expect(second).toMatchObject({ granted: true, scraperSessionId: "s-1" });
    expect(second.fence).toBeGreaterThan(first.fence);
    expect(await lock.forgetSession(second.fence)).toBe("s-1");
    expect(await lock.holds("job-a")).toBe(true);
    expect(await lock.release("job-b")).toBeNull();
    expect(await lock.release("job-a")).toBeNull();
    expect(await lock.acquire("job-b", 60_000)).toMatchObject({ granted: true });
  });

  it("refuses a second delivery of the same job while the first works, and tells it the job is busy", async () => {
    const lock = stub();
    const held = (await lock.acquire("job-a", 60_000)) as LeaseGrant;
    expect(await lock.acquire("job-a", 60_000)).toMatchObject({ granted: false, heldBy: "job-a", busy: true, leaseUntil: held.leaseUntil });
  });

  it("renews only the fence that holds the lease, and never a lapsed one", async () => {
    const lock = stub();
    const now = Date.now();
    const grant = (await lock.acquire("job-a", 1000, now)) as LeaseGrant;
    expect(await lock.renew(grant.fence, 1000, now + 900)).toBe(true);
    expect(await lock.holds("job-a", now + 1500)).toBe(true);
    expect(await lock.renew(grant.fence + 1, 1000, now + 1000)).toBe(false);
    expect(await lock.renew(grant.fence, 1000, now + 2000)).toBe(false);
  });

  it("lets an expired lease be taken over with a higher fence, handing over the old job's session for closing", async () => {
    const lock = stub();
    const now = Date.now();
    const a = (await lock.acquire("job-a", 1000, now)) as LeaseGrant;
    await lock.rememberSession(a.fence, "s-a", now);
    expect(await lock.holds("job-a", now + 500)).toBe(true);
    const b = (await lock.acquire("job-b", 1000, now + 1500)) as LeaseGrant;
    expect(b).toMatchObject({ granted: true, scraperSessionId: null, supersededSessionId: "s-a" });
    expect(b.fence).toBeGreaterThan(a.fence);
    expect(await lock.holds("job-a", now + 1600)).toBe(false);
    expect(await lock.rememberSession(a.fence, "stale", now + 1600)).toBe(false);
  });

  it("keeps increasing fences after a lease is released", async () => {
    const lock = stub();
    const a = (await lock.acquire("job-a", 60_000)) as LeaseGrant;
    await lock.release("job-a");
    const b = (await lock.acquire("job-b", 60_000)) as LeaseGrant;
    expect(b.fence).toBe(a.fence + 1);
  });
});
