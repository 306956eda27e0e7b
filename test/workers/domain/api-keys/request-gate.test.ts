import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addressGate, keyGate, LIMIT_PER_HOUR, LIMIT_PER_MINUTE, type RequestGate } from "../../../../worker/domain/api-keys/request-gate";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { createWorkspace, gateStorage } from "../../../support/workers/helpers";

const MINUTE = 60_000;
const HOUR = 3_600_000;

type Window = { size: number; startedAt: number; count: number };

/** The gate's fixed windows as stored: the minute's row, then the hour's. */
const windows = (gate: DurableObjectStub<RequestGate>) =>
  runInDurableObject(gate, (_gate: RequestGate, state) =>
    state.storage.sql.exec<Window>("SELECT size, started_at AS startedAt, count FROM windows ORDER BY size").toArray().map((row) => ({ ...row })),
  );

/** Requests an address gate counted in its hour window (0 before its first). */
const addressCount = async (address: string) => {
  const gate = addressGate(env, address);
  if ((await gateStorage(gate)).tables.length === 0) return 0;
  return (await windows(gate))[1]!.count;
};

describe("RequestGate", () => {
  it("keeps a minute and an hour row, refuses past the minute's limit without counting the refusal, and starts the next minute afresh", async () => {
    const gate = env.REQUEST_GATES.getByName(`test:${crypto.randomUUID()}`);
    // Nothing stored before the first count.
    expect((await gateStorage(gate)).tables).toEqual([]);
    const hourStart = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const minuteStart = hourStart + 5 * MINUTE;
    const at = minuteStart + 30_000;

    expect(await gate.hit(at)).toEqual({ allowed: true, limitMinute: LIMIT_PER_MINUTE, limitHour: LIMIT_PER_HOUR, remaining: LIMIT_PER_MINUTE - 1, retryAfterSeconds: 0 });
    expect(await windows(gate)).toEqual([
      { size: MINUTE, startedAt: minuteStart, count: 1 },
      { size: HOUR, startedAt: hourStart, count: 1 },
    ]);
    // The rest of the minute's allowance, counted inside the object (RPCs would only add time).
    const remaining = await runInDurableObject(gate, (instance: RequestGate) => Array.from({ length: LIMIT_PER_MINUTE - 1 }, (_, i) => instance.hit(at + i).remaining));
    expect(remaining).toEqual(Array.from({ length: LIMIT_PER_MINUTE - 1 }, (_, i) => LIMIT_PER_MINUTE - 2 - i));

    // One past the limit: refused until the minute's end, and not counted.
    expect(await gate.hit(at + 10_000)).toEqual({ allowed: false, limitMinute: LIMIT_PER_MINUTE, limitHour: LIMIT_PER_HOUR, remaining: 0, retryAfterSeconds: 20 });
    expect(await gate.hit(minuteStart + MINUTE - 1)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(await windows(gate)).toEqual([
      { size: MINUTE, startedAt: minuteStart, count: LIMIT_PER_MINUTE },
      { size: HOUR, startedAt: hourStart, count: LIMIT_PER_MINUTE },
    ]);

    // The next minute has its own count; the hour's goes on.
    expect(await gate.hit(minuteStart + MINUTE)).toMatchObject({ allowed: true, remaining: LIMIT_PER_MINUTE - 1 });
    expect(await windows(gate)).toEqual([
      { size: MINUTE, startedAt: minuteStart + MINUTE, count: 1 },
      { size: HOUR, startedAt: hourStart, count: LIMIT_PER_MINUTE + 1 },
    ]);
    // The next hour resets both.
    await gate.hit(hourStart + HOUR);
    expect(await windows(gate)).toEqual([
      { size: MINUTE, startedAt: hourStart + HOUR, count: 1 },
      { size: HOUR, startedAt: hourStart + HOUR, count: 1 },
    ]);
  });

  it("charges the caller's address only for the first lookup of its key, trusts what it read for a minute, and reads again after forget()", async () => {
    const ws = await createWorkspace();
    const hash = await sha256Hex(ws.apiKey);
    const gate = keyGate(env, hash);
    const address = `test-${crypto.randomUUID()}`;
    const now = Date.now();

    expect(await gate.admitKey(hash, address, now)).toEqual({
      key: { id: ws.apiKeyId, workspaceId: ws.workspaceId, isPartner: false, rights: { canManageKeys: true, expiresAt: null } },
      decision: expect.objectContaining({ allowed: true, remaining: LIMIT_PER_MINUTE - 1 }),
      // One request unless more are asked for, spent within its window and five seconds.
      lease: { granted: 1, windowStart: now - (now % 60_000), expiresAt: Math.min(now + 5_000, now - (now % 60_000) + 60_000) },
    });
    expect(await addressCount(address)).toBe(1);
    expect(await gate.admitKey(hash, address, now + 1)).toMatchObject({ key: { id: ws.apiKeyId }, decision: { remaining: LIMIT_PER_MINUTE - 2 } });
    expect(await addressCount(address)).toBe(1);

    // Suspended in D1: the gate's record, read a moment ago, still stands until the workspace is forgotten.
    await env.DB.prepare("UPDATE workspaces SET suspended_at = ? WHERE id = ?").bind(now, ws.workspaceId).run();
    expect(await gate.admitKey(hash, address, now + 2)).toHaveProperty("key");
    await gate.forget();
    // Refused, and counted against the address, not the key.
    expect(await gate.admitKey(hash, address, now + 3)).toMatchObject({ failure: "WORKSPACE_SUSPENDED", decision: { allowed: true, remaining: LIMIT_PER_MINUTE - 2 } });
    expect(await addressCount(address)).toBe(2);
    expect((await windows(gate))[1]!.count).toBe(3);

    // Restored in D1: the refusal's read stands for a minute, then the key is read again.
    await env.DB.prepare("UPDATE workspaces SET suspended_at = NULL WHERE id = ?").bind(ws.workspaceId).run();
    expect(await gate.admitKey(hash, address, now + 4)).toMatchObject({ failure: "WORKSPACE_SUSPENDED" });
    expect(await gate.admitKey(hash, address, now + 3 + MINUTE + 1)).toMatchObject({ key: { id: ws.apiKeyId } });
  });

  it("keeps a revocation in storage, so the key stays refused after the object is evicted, while D1 still holds it live", async () => {
    const ws = await createWorkspace();
    const hash = await sha256Hex(ws.apiKey);
    const gate = keyGate(env, hash);
    const address = `test-${crypto.randomUUID()}`;
    const now = Date.now();
    expect(await gate.admitKey(hash, address, now)).toHaveProperty("key");
    await gate.revoke(now);
    expect(await runInDurableObject(gate, (_gate: RequestGate, state) => state.storage.sql.exec("SELECT id, revoked_at FROM revocation").toArray().map((row) => ({ ...row })))).toEqual([
      { id: 1, revoked_at: now },
    ]);

    await evictDurableObject(gate);
    expect(await gate.admitKey(hash, address, now + 1)).toMatchObject({ failure: "INVALID_TOKEN" });
    // A fresh instance knows from storage that it has counted: the reload was not charged to the address, the refusal was.
    expect(await addressCount(address)).toBe(2);
    expect((await windows(gate))[1]!.count).toBe(1);
  });
});
