import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CredentialLock } from "../../worker/durable-objects/credential-lock";

const stub = () => env.CREDENTIAL_LOCKS.get(env.CREDENTIAL_LOCKS.idFromName(crypto.randomUUID()));

describe("CredentialLock", () => {
  it("grants one job, refuses another until release, and keeps the holder's scraper session", async () => {
    const lock = stub();
    expect(await lock.acquire("job-a", 60_000)).toMatchObject({ granted: true, scraperSessionId: null });
    expect(await lock.rememberSession("job-a", "s-1")).toBe(true);
    expect(await lock.acquire("job-b", 60_000)).toMatchObject({ granted: false, heldBy: "job-a" });
    expect(await lock.acquire("job-a", 60_000)).toMatchObject({ granted: true, scraperSessionId: "s-1" });
    expect(await lock.forgetSession("job-a")).toBe("s-1");
    expect(await lock.holds("job-a")).toBe(true);
    expect(await lock.release("job-b")).toBeNull();
    expect(await lock.release("job-a")).toBeNull();
    expect(await lock.acquire("job-b", 60_000)).toMatchObject({ granted: true });
  });

  it("lets an expired lease be taken over, after which the old holder no longer holds it", async () => {
    const lock = stub();
    const now = Date.now();
    await lock.acquire("job-a", 1000, now);
    expect(await lock.holds("job-a", now + 500)).toBe(true);
    expect(await lock.acquire("job-b", 1000, now + 1500)).toMatchObject({ granted: true });
    expect(await lock.holds("job-a", now + 1600)).toBe(false);
    expect(await lock.rememberSession("job-a", "stale")).toBe(false);
  });

  it("keeps a live lease through an early alarm and clears it once expired", async () => {
    const lock = stub();
    const count = () => runInDurableObject(lock, (_instance: CredentialLock, state) => state.storage.sql.exec("SELECT count(*) AS n FROM lease").one().n);
    await lock.acquire("job-a", 300);
    expect(await runDurableObjectAlarm(lock)).toBe(true);
    expect(await count()).toBe(1);
    expect(await lock.holds("job-a")).toBe(true);
    // The rescheduled alarm fires by itself once the lease has run out.
    await new Promise((r) => setTimeout(r, 600));
    expect(await count()).toBe(0);
  });
});
