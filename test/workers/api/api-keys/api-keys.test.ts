import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { keyGate, type RequestGate } from "../../../../worker/domain/api-keys/request-gate";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { callJson, createWorkspace } from "../../../support/workers/helpers";

type Json = Record<string, any>;
const HOUR = 3_600_000;

const createKey = (key: string, json: unknown) => callJson<Json>("/api/v1/api-keys", { method: "POST", key, json });

describe("the right to manage keys", () => {
  it("refuses listing, issuing and revoking keys to a key without it, with 403 ADMIN_ACTION_FORBIDDEN", async () => {
    const ws = await createWorkspace();
    const plain = await createKey(ws.apiKey, { name: "배치" });
    expect(plain.status).toBe(201);
    expect(plain.body.canManageKeys).toBe(false);
    const attempts = [
      callJson<Json>("/api/v1/api-keys", { key: plain.body.secret }),
      createKey(plain.body.secret, { name: "영원한 키" }),
      // Refused before the body is even read.
      createKey(plain.body.secret, { name: "" }),
      callJson<Json>(`/api/v1/api-keys/${ws.apiKeyId}`, { method: "DELETE", key: plain.body.secret }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    // The refused key still does its own work, and the managing key was not revoked.
    expect((await callJson("/api/v1/schemas", { key: plain.body.secret })).status).toBe(200);
    const list = await callJson<Json>("/api/v1/api-keys", { key: ws.apiKey });
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items.every((k: Json) => k.revokedAt === null)).toBe(true);
  });

  it("refuses a key without it managing partner connections and webhook endpoints, changing nothing", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const connection = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: "1208800767" } });
    expect(connection.status).toBe(201);
    const endpoint = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: partner.apiKey, json: { url: "https://hooks.partner.example/collect", events: ["data_job.succeeded"] } });
    expect(endpoint.status).toBe(201);
    const plain = (await createKey(partner.apiKey, { name: "수집 전용" })).body.secret as string;
    const endpointPath = `/api/v1/webhook-endpoints/${endpoint.body.id}`;
    const attempts: [string, Parameters<typeof callJson>[1]][] = [
      ["/api/v1/connections", { method: "POST", json: { businessNumber: "2208162517" } }],
      [`/api/v1/connections/${connection.body.id}`, { method: "DELETE" }],
      ["/api/v1/webhook-endpoints", { method: "POST", json: { url: "https://attacker.example/steal", events: ["data_job.succeeded"] } }],
      [endpointPath, { method: "PATCH", json: { url: "https://attacker.example/steal" } }],
      [endpointPath, { method: "DELETE" }],
      [`${endpointPath}/rotate-secret`, { method: "POST" }],
      [`${endpointPath}/deliveries/${crypto.randomUUID()}/replay`, { method: "POST" }],
    ];
    for (const [path, init] of attempts) {
      const res = await callJson<Json>(path, { ...init, key: plain });
      expect(res.status, `${init!.method} ${path}`).toBe(403);
      expect(res.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    }
    // What a data key may do it still does: read the connections and the endpoint, unchanged.
    const connections = await callJson<Json>("/api/v1/connections", { key: plain });
    expect(connections.body.items.map((c: Json) => [c.id, c.status])).toEqual([[connection.body.id, "ACTIVE"]]);
    const shown = await callJson<Json>(endpointPath, { key: plain });
    expect(shown.body).toMatchObject({ url: "https://hooks.partner.example/collect" });
    expect((await callJson<Json>("/api/v1/webhook-endpoints", { key: partner.apiKey })).body.items).toHaveLength(1);
  });

  it("passes the right on only when asked, from a key that has it", async () => {
    const ws = await createWorkspace();
    const manager = await createKey(ws.apiKey, { name: "관리", canManageKeys: true });
    expect(manager.body.canManageKeys).toBe(true);
    const made = await createKey(manager.body.secret, { name: "하위" });
    expect(made.status).toBe(201);
    expect((await callJson<Json>(`/api/v1/api-keys/${made.body.id}`, { method: "DELETE", key: manager.body.secret })).status).toBe(204);
  });

  it("never issues a key that outlives the key issuing it", async () => {
    const ws = await createWorkspace();
    const expiresAt = Date.now() + HOUR;
    const { secret } = await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "임시 관리", expiresAt, canManageKeys: true });

    const later = await createKey(secret, { name: "더 오래", expiresAt: new Date(expiresAt + 1000).toISOString() });
    expect(later.status).toBe(400);
    expect(later.body).toMatchObject({ code: "INVALID_PARAM_FORMAT", fieldErrors: [{ field: "body.expiresAt", code: "INVALID_PARAM_FORMAT" }] });

    const unbounded = await createKey(secret, { name: "만료 없음" });
    expect(unbounded.status).toBe(201);
    expect(Date.parse(unbounded.body.expiresAt)).toBe(expiresAt);

    const sooner = await createKey(secret, { name: "더 짧게", expiresAt: new Date(expiresAt - HOUR / 2).toISOString() });
    expect(sooner.status).toBe(201);
    expect(Date.parse(sooner.body.expiresAt)).toBe(expiresAt - HOUR / 2);
  });

  it("lets a key without expiry issue keys with any expiry", async () => {
    const ws = await createWorkspace();
    const far = new Date(Date.now() + 365 * 24 * HOUR).toISOString();
    const res = await createKey(ws.apiKey, { name: "1년", expiresAt: far });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBe(far);
    expect((await createKey(ws.apiKey, { name: "만료 없음" })).body.expiresAt).toBeNull();
  });
});

describe("revocation", () => {
  it("refuses a revoked key on the very next request", async () => {
    const ws = await createWorkspace();
    const other = await createKey(ws.apiKey, { name: "곧 폐기" });
    // Cached by the key's gate first, as a key in use is.
    expect((await callJson("/api/v1/schemas", { key: other.body.secret })).status).toBe(200);
    expect((await callJson(`/api/v1/api-keys/${other.body.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const next = await callJson<Json>("/api/v1/schemas", { key: other.body.secret });
    expect(next.status).toBe(401);
    expect(next.body.code).toBe("INVALID_TOKEN");
  });

  it("wins over a load of the key that was in flight when the revocation reached the gate", async () => {
    const ws = await createWorkspace();
    const hash = await sha256Hex(ws.apiKey);
    const gate = keyGate(env, hash);
    expect(await gate.admitKey(hash, "test-address")).toHaveProperty("key");
    const later = Date.now() + 2 * 60_000;
    await runInDurableObject(gate, async (instance: RequestGate) => {
      // Two minutes on, the cached record is stale: this admission reloads the key from D1, where it is not
      // revoked (as a read that started before the revocation's write sees it), and is suspended on that read
      // when the revocation reaches the gate.
      const racing = instance.admitKey(hash, "test-address", later);
      instance.revoke();
      expect(await racing).toMatchObject({ failure: "INVALID_TOKEN" });
    });
    // Neither the record that read cached nor a later reload brings the key back.
    for (const at of [later, later + 10 * 60_000]) expect(await gate.admitKey(hash, "test-address", at)).toMatchObject({ failure: "INVALID_TOKEN" });
  });
});
