import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { credentialLock, HOLDER_ASKS_PER_HOUR, type LeaseGrant, type LineTicket } from "../../../../worker/domain/pipeline/credential-lock";

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
    expect(await lock.release("job-b", 60_000)).toEqual({ closeSessionId: null, handedTo: null, waiting: [] });
    expect(await lock.release("job-a", 60_000)).toEqual({ closeSessionId: null, handedTo: null, waiting: [] });
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
    await lock.rememberSession(a.fence, "s-a", 0, now);
    expect(await lock.holds("job-a", now + 500)).toBe(true);
    const b = (await lock.acquire("job-b", 1000, now + 1500)) as LeaseGrant;
    expect(b).toMatchObject({ granted: true, scraperSessionId: null, supersededSessionId: "s-a" });
    expect(b.fence).toBeGreaterThan(a.fence);
    expect(await lock.holds("job-a", now + 1600)).toBe(false);
    expect(await lock.rememberSession(a.fence, "stale", 0, now + 1600)).toBe(false);
  });

  it("keeps increasing fences after a lease is released", async () => {
    const lock = stub();
    const a = (await lock.acquire("job-a", 60_000)) as LeaseGrant;
    await lock.release("job-a", 60_000);
    const b = (await lock.acquire("job-b", 60_000)) as LeaseGrant;
    expect(b.fence).toBe(a.fence + 1);
  });
});

describe("the line of jobs waiting for a credential", () => {
  const ticket = (requestKey: string, deadlineAt = Date.now() + 3_600_000): LineTicket => ({ requestKey, deadlineAt });

  it("queues jobs in arrival order and hands the lease, with its logged-in session, from each to the next", async () => {
    const lock = stub();
    const a = (await lock.acquireOrQueue("job-a", 60_000, ticket("a"))) as LeaseGrant;
    await lock.rememberSession(a.fence, "s-1");
    expect(await lock.acquireOrQueue("job-b", 60_000, ticket("b"))).toMatchObject({ granted: false, line: "waiting", position: 1 });
    expect(await lock.acquireOrQueue("job-c", 60_000, ticket("c"))).toMatchObject({ granted: false, line: "waiting", position: 2 });
    // Asking again keeps a job's place.
    expect(await lock.acquireOrQueue("job-b", 60_000, ticket("b"))).toMatchObject({ line: "waiting", position: 1 });

    expect(await lock.release("job-a", 60_000)).toEqual({ closeSessionId: null, handedTo: "job-b", waiting: ["job-c"] });
    expect(await lock.acquireOrQueue("job-c", 60_000, ticket("c"))).toMatchObject({ granted: false, heldBy: "job-b", line: "waiting", position: 1 });
    const b = (await lock.acquireOrQueue("job-b", 60_000, ticket("b"))) as LeaseGrant;
    expect(b).toMatchObject({ granted: true, scraperSessionId: "s-1", supersededSessionId: null });
    expect(await lock.release("job-b", 60_000)).toEqual({ closeSessionId: null, handedTo: "job-c", waiting: [] });
    expect(await lock.acquireOrQueue("job-c", 60_000, ticket("c"))).toMatchObject({ granted: true, scraperSessionId: "s-1" });
    expect(await lock.release("job-c", 60_000)).toEqual({ closeSessionId: "s-1", handedTo: null, waiting: [] });
  });

  it("refuses the same collection twice, and a place the jobs ahead would leave no time to use", async () => {
    const lock = stub();
    const now = Date.now();
    await lock.acquireOrQueue("job-a", 60_000, ticket("same"), now);
    expect(await lock.acquireOrQueue("job-b", 60_000, ticket("same"), now)).toMatchObject({ granted: false, heldBy: "job-a", line: "identical" });
    // One job has held it 10 s, so a job behind one other needs about 20 s before its deadline.
    await lock.release("job-a", 60_000, now + 10_000);
    await lock.acquireOrQueue("job-c", 60_000, ticket("c"), now + 10_000);
    expect(await lock.acquireOrQueue("job-d", 60_000, ticket("d", now + 25_000), now + 10_000)).toMatchObject({ line: "overBudget" });
    expect(await lock.acquireOrQueue("job-e", 60_000, ticket("e", now + 35_000), now + 10_000)).toMatchObject({ line: "waiting", position: 1 });
    // The refused job holds no place: the next one is handed the lease.
    expect(await lock.release("job-c", 60_000, now + 11_000)).toMatchObject({ handedTo: "job-e", waiting: [] });
  });

  it("gives 20 jobs asking at once on one credential each its own place, and 20 on 20 credentials each the lease", async () => {
    const one = stub();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => one.acquireOrQueue(`job-${i}`, 60_000, ticket(`r-${i}`))));
    expect(results.filter((r) => r.granted)).toHaveLength(1);
    const places = results.flatMap((r) => (!r.granted && r.line === "waiting" ? [r.position] : []));
    expect(places.sort((a, b) => a - b)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));

    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => stub().acquireOrQueue(`job-${i}`, 60_000, ticket("same"))));
    expect(many.every((r) => r.granted)).toBe(true);
  });

  it("keeps a login its holder approved for the credential's next job, until its keep ends, then has it closed", async () => {
    const lock = stub();
    const now = Date.now();
    const first = (await lock.acquire("job-a", 60_000, now)) as LeaseGrant;
    expect(await lock.rememberSession(first.fence, "approved", 60_000, now)).toBe(true);
    // Nobody waits: the login is kept, not handed back for closing.
    expect(await lock.release("job-a", 60_000, now)).toEqual({ closeSessionId: null, handedTo: null, waiting: [] });
    const next = (await lock.acquire("job-b", 60_000, now + 1_000)) as LeaseGrant;
    expect(next).toMatchObject({ granted: true, scraperSessionId: "approved", supersededSessionId: null });
    // A login without a keep is handed back for closing, as before.
    expect(await lock.release("job-b", 60_000, now + 2_000)).toEqual({ closeSessionId: "approved", handedTo: null, waiting: [] });

    const other = stub();
    const a = (await other.acquire("job-a", 60_000, now)) as LeaseGrant;
    await other.rememberSession(a.fence, "kept-too-long", 60_000, now);
    await other.release("job-a", 60_000, now);
    // Past its keep the next grant gets no session and closes the old one.
    expect(await other.acquire("job-b", 60_000, now + 61_000)).toMatchObject({ granted: true, scraperSessionId: null, supersededSessionId: "kept-too-long" });
  });

  it("lets a credential ring its holder's phone a few times an hour, then says how long until it may again", async () => {
    const lock = stub();
    const now = Date.now();
    for (let i = 0; i < HOLDER_ASKS_PER_HOUR; i++) expect(await lock.holderAsk(now + i)).toBe(0);
    const wait = await lock.holderAsk(now + 10_000);
    expect(wait).toBeGreaterThan(3_500_000);
    expect(wait).toBeLessThanOrEqual(3_600_000);
    // An hour after the first ask, one more may ring.
    expect(await lock.holderAsk(now + 3_600_001)).toBe(0);
  });
});
