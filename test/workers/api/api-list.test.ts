import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addCredential, callJson, createWorkspace, TX_JOB } from "../../support/workers/helpers";

type Json = Record<string, any>;

async function seedJobs(key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await callJson<Json>("/api/v1/data-jobs", { method: "POST", key, json: TX_JOB })).body.id);
  return ids;
}

async function walk(key: string, query: string, startCursor: string | null = null): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = startCursor;
  do {
    const q: string = `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page = await callJson<Json>(`/api/v1/data-jobs?${q}`, { key });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

describe("GET /data-jobs", () => {
  it("pages newest first with limit and an opaque cursor, without repeats or gaps", async () => {
    const ws = await createWorkspace();
    const ids = await seedJobs(ws.apiKey, 7);
    const first = await callJson<Json>("/api/v1/data-jobs?limit=3", { key: ws.apiKey });
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const all = await walk(ws.apiKey, "limit=3");
    expect(all.map((j) => j.id)).toEqual([...ids].reverse());
    expect(all[0]).toMatchObject({ kind: "Failed", providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", error: { code: "CREDENTIAL_NOT_FOUND" } });
  });

  it("defaults to 20 and validates limit", async () => {
    const ws = await createWorkspace();
    await seedJobs(ws.apiKey, 21);
    expect((await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey })).body.items).toHaveLength(20);
    for (const limit of ["0", "101", "abc", "1.5"]) {
      const res = await callJson<Json>(`/api/v1/data-jobs?limit=${limit}`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_PARAM_FORMAT");
      expect(res.body.fieldErrors[0].field).toBe("query.limit");
    }
    expect((await callJson<Json>("/api/v1/data-jobs?limit=100", { key: ws.apiKey })).body.items).toHaveLength(21);
  });

  it("stays stable when jobs are inserted between pages", async () => {
    const ws = await createWorkspace();
    const ids = await seedJobs(ws.apiKey, 6);
    const first = await callJson<Json>("/api/v1/data-jobs?limit=2", { key: ws.apiKey });
    await seedJobs(ws.apiKey, 3);
    const rest = await walk(ws.apiKey, "limit=2", first.body.nextCursor);
    expect([...first.body.items, ...rest].map((j) => j.id)).toEqual([...ids].reverse());
  });

  it("rejects tampered, foreign and garbage cursors with INVALID_CURSOR", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    await seedJobs(ws.apiKey, 3);
    await seedJobs(other.apiKey, 3);
    const cursor: string = (await callJson<Json>("/api/v1/data-jobs?limit=1", { key: ws.apiKey })).body.nextCursor;
    const decoded = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
    decoded.p = decoded.p.replace(/\d/, "9");
    const tampered = btoa(JSON.stringify(decoded)).replace(/=+$/, "");
    for (const [key, bad] of [[ws.apiKey, tampered], [other.apiKey, cursor], [ws.apiKey, "!!!"], [ws.apiKey, "e30"], [ws.apiKey, ""]] as const) {
      const res = await callJson<Json>(`/api/v1/data-jobs?cursor=${encodeURIComponent(bad)}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_CURSOR");
    }
    const withOtherFilter = await callJson<Json>(`/api/v1/data-jobs?status=FAILED&cursor=${cursor}`, { key: ws.apiKey });
    expect(withOtherFilter.body.code).toBe("INVALID_CURSOR");
  });

  it("filters by status and actionCodes", async () => {
    const ws = await createWorkspace();
    const failed = await seedJobs(ws.apiKey, 2);
    await addCredential(ws.workspaceId);
    const pending = await seedJobs(ws.apiKey, 1);
    const accounts = (await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" } })).body.id;
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED' WHERE id = ?").bind(accounts).run();
    const ids = async (q: string) => (await walk(ws.apiKey, q)).map((j) => j.id).sort();
    expect(await ids("status=FAILED")).toEqual([...failed].sort());
    expect(await ids("status=PENDING,RUNNING")).toEqual(pending);
    expect(await ids("status=SUCCEEDED&status=FAILED")).toEqual([...failed, accounts].sort());
    expect(await ids("actionCodes=bank.accounts.cb.v1")).toEqual([accounts]);
    const bad = await callJson<Json>("/api/v1/data-jobs?status=DONE", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors[0].field).toMatch(/^query\.status/);
  });
});

describe("GET /api-keys and GET /credentials", () => {
  it("page newest first with limit and an opaque cursor bound to the workspace, like the job list", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    for (let i = 0; i < 4; i++) await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: `키 ${i}` } });
    // One live credential per provider.
    for (const provider of ["sandbox.bank", "sandbox.card", "sandbox.taxportal"]) await addCredential(ws.workspaceId, provider);
    for (const [path, total] of [["/api/v1/api-keys", 5], ["/api/v1/credentials", 3]] as const) {
      const seen: Json[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Json } = await callJson<Json>(`${path}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: ws.apiKey });
        expect(page.status, path).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.items);
        cursor = page.body.nextCursor;
        if (cursor) expect((await callJson<Json>(`${path}?cursor=${encodeURIComponent(cursor)}`, { key: other.apiKey })).body.code, path).toBe("INVALID_CURSOR");
      } while (cursor);
      expect(seen.map((item) => item.id), path).toHaveLength(total);
      expect(new Set(seen.map((item) => item.id)).size).toBe(total);
      expect(seen.map((item) => item.createdAt)).toEqual([...seen.map((item) => item.createdAt)].sort().reverse());
      expect((await callJson<Json>(`${path}?limit=101`, { key: ws.apiKey })).body.code).toBe("INVALID_PARAM_FORMAT");
    }
  });
});
