import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { asPartner, partnerWithConnection } from "../../../support/workers/partner-helpers";

type Json = Record<string, any>;
const ACCOUNTS = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} };
const BIZNO = "1208800767";

/** The SQL this app's requests prepare, in order, through a D1 binding that only records. */
function recordingDb(seen: string[]): D1Database {
  return new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => (seen.push(sql), target.prepare(sql));
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Creates a job through the API with its D1 statements recorded: how many read the create context, inserted a job, read endpoints. */
async function createRecorded(ws: TestWorkspace, body: Json = ACCOUNTS, init: { key?: string; headers?: Headers } = {}) {
  const seen: string[] = [];
  const res = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, ...init, json: body, env: { ...env, DB: recordingDb(seen) } as Env });
  return {
    ...res,
    contextReads: seen.filter((sql) => sql.includes("FROM workspaces w JOIN workspaces b")).length,
    inserts: seen.filter((sql) => sql.includes("INSERT INTO jobs")).length,
    endpointReads: seen.filter((sql) => sql.includes("FROM webhook_endpoints")).length,
  };
}

const register = (ws: TestWorkspace, loginId: string) =>
  callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" } } });

describe("what a job's create decides from, kept between creates", () => {
  it("decides a second create from what the first read, so it is the key's gate and one insert, and a changed label keeps it so", async () => {
    const ws = await createWorkspace();
    const credential = (await register(ws, "user_good")).body;
    const first = await createRecorded(ws);
    const second = await createRecorded(ws);
    expect([first.status, first.body.credentialId, first.contextReads, first.inserts]).toEqual([201, credential.id, 1, 1]);
    expect([second.status, second.body.credentialId, second.contextReads, second.inserts]).toEqual([201, credential.id, 0, 1]);
    // A label is nothing a create decides from: changing it keeps the context.
    await env.DB.prepare("UPDATE credentials SET label = '본점' WHERE id = ?").bind(credential.id).run();
    const third = await createRecorded(ws);
    expect([third.status, third.contextReads, third.inserts]).toEqual([201, 0, 1]);
    // Another workspace of the same provider is read for itself, and takes its own credential.
    const other = await createWorkspace();
    const its = (await register(other, "user_good")).body;
    const elsewhere = await createRecorded(other);
    expect([elsewhere.status, elsewhere.body.credentialId, elsewhere.contextReads]).toEqual([201, its.id, 1]);
  });

  it("sees a credential revoked by any writer at the very next create: the kept context's insert is refused and the create decides again", async () => {
    const ws = await createWorkspace();
    const credential = (await register(ws, "user_good")).body;
    expect((await createRecorded(ws)).body.credentialId).toBe(credential.id);
    // Straight to D1, as no route of the app would: the triggers, not the callers, move the revision.
    await env.DB.prepare("UPDATE credentials SET status = 'DELETED' WHERE id = ?").bind(credential.id).run();
    const next = await createRecorded(ws);
    expect([next.status, next.body.kind, next.body.credentialId, next.body.error?.code]).toEqual([201, "Failed", null, "CREDENTIAL_NOT_FOUND"]);
    expect([next.contextReads, next.inserts]).toEqual([1, 2]);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ? AND credential_id IS NULL").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(1);
  });

  it("sees a changed cap and a suspension at the very next create", async () => {
    const ws = await createWorkspace();
    await register(ws, "user_good");
    expect((await createRecorded(ws)).status).toBe(201);
    await env.DB.prepare("UPDATE workspaces SET monthly_job_cap = 1 WHERE id = ?").bind(ws.workspaceId).run();
    const capped = await createRecorded(ws);
    expect([capped.status, capped.body.code]).toEqual([429, "FREE_PLAN_JOB_CAP_REACHED"]);
    await env.DB.prepare("UPDATE workspaces SET monthly_job_cap = NULL WHERE id = ?").bind(ws.workspaceId).run();
    expect((await createRecorded(ws)).status).toBe(201);
    // The key's gate trusts its cached suspension for a minute; the create's own check must not.
    await env.DB.prepare("UPDATE workspaces SET suspended_at = ? WHERE id = ?").bind(Date.now(), ws.workspaceId).run();
    const suspended = await createRecorded(ws);
    expect([suspended.status, suspended.body.code]).toEqual([403, "WORKSPACE_ACCESS_DENIED"]);
  });

  it("sees a partner's plan change at its business's very next create", async () => {
    const partner = await partnerWithConnection(BIZNO);
    const asBusiness = asPartner(partner.apiKey, BIZNO);
    const first = await createRecorded(partner, ACCOUNTS, asBusiness);
    const second = await createRecorded(partner, ACCOUNTS, asBusiness);
    expect([first.status, first.body.kind, first.contextReads, second.status, second.contextReads]).toEqual([201, "Failed", 1, 201, 0]);
    // The business's own row is untouched: only the partner's, the billing workspace's, revision moves.
    await env.DB.prepare("UPDATE workspaces SET monthly_job_cap = 2 WHERE id = ?").bind(partner.workspaceId).run();
    const capped = await createRecorded(partner, ACCOUNTS, asBusiness);
    expect([capped.status, capped.body.code, capped.contextReads]).toEqual([429, "FREE_PLAN_JOB_CAP_REACHED", 1]);
  });

  it("announces a job born Failed to an endpoint subscribed after the context was kept, without reading the endpoints again", async () => {
    const ws = await createWorkspace();
    const unheard = await createRecorded(ws);
    expect([unheard.body.kind, unheard.contextReads]).toEqual(["Failed", 1]);
    const endpoint = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url: "https://hooks.partner.example/collect", events: ["data_job.failed"] } });
    expect(endpoint.status).toBe(201);
    const heard = await createRecorded(ws);
    const again = await createRecorded(ws);
    expect([heard.body.kind, heard.contextReads, again.contextReads, again.endpointReads]).toEqual(["Failed", 1, 0, 0]);
    const delivered = await env.DB.prepare("SELECT endpoint_id AS endpointId, event_type AS type, payload FROM webhook_deliveries WHERE workspace_id = ? ORDER BY created_at").bind(ws.workspaceId).all<Json>();
    expect(delivered.results.map((d) => [d.endpointId, d.type, JSON.parse(d.payload).data.object.id])).toEqual([
      [endpoint.body.id, "data_job.failed", heard.body.id],
      [endpoint.body.id, "data_job.failed", again.body.id],
    ]);
  });
});
