import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ProbeMessage } from "../../../../worker/domain/credentials/login-checks";
import { type CredentialLock, credentialLock } from "../../../../worker/domain/pipeline/credential-lock";
import type { DetachedDeliveries } from "../../../../worker/domain/pipeline/detached-delivery";

// Jobs run end to end through these objects in ../concurrent-deliveries.test.ts; here, what one object keeps and runs.

const kept = (stub: DurableObjectStub<DetachedDeliveries>) =>
  runInDurableObject(stub, async (_deliveries: DetachedDeliveries, state) => ({ stored: Object.fromEntries(await state.storage.list()), alarm: await state.storage.getAlarm() }));

/** The credential lock's fence counter and lease: a delivery that ran took and gave back the lease. */
const lockState = (credentialId: string) =>
  runInDurableObject(credentialLock(env, credentialId), (_lock: CredentialLock, state) => ({
    lastFence: state.storage.sql.exec<{ fence: number }>("SELECT fence FROM last_fence").toArray()[0]?.fence ?? null,
    leases: state.storage.sql.exec("SELECT 1 FROM lease").toArray().length,
  }));

describe("DetachedDeliveries", () => {
  it("keeps its message until its alarm, after the message's delay, runs it, and then keeps nothing", async () => {
    const stub = env.DETACHED_DELIVERIES!.getByName(crypto.randomUUID());
    // A credential check of a credential nobody registered: run, it takes the credential's lease, finds nothing to log in with, and lets go.
    const credentialId = crypto.randomUUID();
    const message: ProbeMessage = { type: "probe", credentialId, workspaceId: crypto.randomUUID(), providerCode: "sandbox.bank", checkId: crypto.randomUUID() };
    const before = Date.now();
    await stub.deliver(message, 60);
    const after = Date.now();
    const waiting = await kept(stub);
    expect(waiting.stored).toEqual({ message });
    expect(waiting.alarm).toBeGreaterThanOrEqual(before + 60_000);
    expect(waiting.alarm).toBeLessThanOrEqual(after + 60_000);
    expect(await lockState(credentialId)).toEqual({ lastFence: null, leases: 0 });

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await lockState(credentialId)).toEqual({ lastFence: 1, leases: 0 });
    expect(await kept(stub)).toEqual({ stored: {}, alarm: null });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });
});
