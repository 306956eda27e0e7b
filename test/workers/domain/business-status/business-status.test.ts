import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { parseCsv } from "../../../support/parse-csv";
import { REPLICA_BUSINESSES, UNREGISTERED_NUMBER } from "../../../../sandbox/nts-business-status/ground-truth";
import { withCheckDigit } from "../../../../contracts/business-number";
import { call, callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { ConsoleBrowser } from "../../../support/workers/console-browser";

type Json = Record<string, any>;
const PROVIDER = "nts.business-status";
const SCHEMA = "business.status.v1";

const create = (ws: TestWorkspace, body: Json) => callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: PROVIDER, schema: SCHEMA, ...body } });

async function finished(ws: TestWorkspace, id: string): Promise<Json> {
  return vi.waitUntil(
    async () => {
      const job = await callJson<Json>(`/api/v1/data-jobs/${id}`, { key: ws.apiKey });
      return job.body.kind === "InProgress" ? null : job.body;
    },
    { timeout: 60_000, interval: 200 },
  );
}

const [active, simplified, suspended, closed, unitClosed] = REPLICA_BUSINESSES;

describe("business.status.v1 through the public API, against the NTS replica", () => {
  it("runs with no credential of the workspace's and answers the ground truth in JSON and CSV", async () => {
    const ws = await createWorkspace();
    // A duplicate is asked once; the order first given is kept.
    const numbers = [suspended!.b_no, active!.b_no, UNREGISTERED_NUMBER, closed!.b_no, active!.b_no, unitClosed!.b_no, simplified!.b_no];
    const created = await create(ws, { params: { businessNumbers: numbers } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.kind).toBe("InProgress");
    const job = await finished(ws, created.body.id);
    expect(job.kind, JSON.stringify(job)).toBe("Succeeded");

    const json = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}/results`, { key: ws.apiKey });
    const records = json.body.data as Json[];
    expect(records.map((r) => r.businessNumber)).toEqual([suspended!.b_no, active!.b_no, UNREGISTERED_NUMBER, closed!.b_no, unitClosed!.b_no, simplified!.b_no]);
    expect(records.map((r) => [r.registered, r.statusCode, r.status])).toEqual([
      [true, "02", "휴업자"],
      [true, "01", "계속사업자"],
      [false, null, null],
      [true, "03", "폐업자"],
      [true, "03", "폐업자"],
      [true, "01", "계속사업자"],
    ]);
    expect(records[3]).toMatchObject({ schema: SCHEMA, closureDate: "2025-03-31", taxType: "부가가치세 면세사업자", taxTypeCode: "04", unitTaxationClosure: false });
    expect(records[4]).toMatchObject({ closureDate: "2025-12-31", unitTaxationClosure: true });
    expect(records[5]).toMatchObject({ taxTypeCode: "02", taxTypeChangeDate: "2024-07-01", invoiceApplyDate: "2024-07-01", previousTaxType: "부가가치세 일반과세자", previousTaxTypeCode: "01" });

    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${created.body.id}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    const header = csv[0]!;
    expect(header).toEqual(expect.arrayContaining(["사업자등록번호", "국세청등록여부", "납세자상태", "납세자상태코드", "과세유형", "폐업일자", "단위과세전환폐업여부", "직전과세유형"]));
    const rows = csv.slice(1).filter((row) => row.length > 1);
    expect(rows).toHaveLength(6);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(column("사업자등록번호")).toEqual(records.map((r) => r.businessNumber));
    expect(column("납세자상태")).toEqual(["휴업자", "계속사업자", "", "폐업자", "폐업자", "계속사업자"]);
    expect(column("폐업일자")[3]).toBe("2025-03-31");
  });

  it("refuses numbers that are not business numbers, and more than 1000, before any job", async () => {
    const ws = await createWorkspace();
    const wrongCheckDigit = `${active!.b_no.slice(0, 9)}${(Number(active!.b_no[9]) + 1) % 10}`;
    for (const businessNumbers of [[], ["123-45-67890"], [wrongCheckDigit], Array.from({ length: 1001 }, (_, i) => withCheckDigit(String(800000000 + i)))]) {
      const res = await create(ws, { params: { businessNumbers } });
      expect(res.status, JSON.stringify(businessNumbers.slice(0, 2))).toBe(400);
      expect(res.body.fieldErrors?.[0]?.field).toMatch(/^body\.params\.businessNumbers/);
    }
    expect((await create(ws, { params: {} })).status).toBe(400);
  });

  it("takes no credential: naming one is refused", async () => {
    const ws = await createWorkspace();
    const res = await create(ws, { params: { businessNumbers: [active!.b_no] }, credentialId: crypto.randomUUID() });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("is in the catalog: the provider with its one schema, on the replica", async () => {
    const ws = await createWorkspace();
    const provider = await callJson<Json>(`/api/v1/providers/${PROVIDER}`, { key: ws.apiKey });
    expect(provider.status).toBe(200);
    expect(provider.body).toMatchObject({ code: PROVIDER, verification: "replica", acceptedAuthMethods: [] });
    const schema = await callJson<Json>(`/api/v1/schemas/${SCHEMA}`, { key: ws.apiKey });
    expect(schema.status, JSON.stringify(schema.body)).toBe(200);
  });

  it("is a real institution: a workspace whose owner has not confirmed their e-mail is refused its jobs and schedules, until confirmed", async () => {
    const browser = new ConsoleBrowser();
    const { email, workspaceId } = await browser.signUp();
    const issued = await browser.post(`/console/w/${workspaceId}/keys`, { name: "서버", canManageKeys: "1" });
    const ws = { workspaceId, apiKey: /id="issued-secret">([^<]+)</.exec(issued.html)![1]!, apiKeyId: "" };
    const params = { businessNumbers: [active!.b_no] };
    const schedule = () => callJson<Json>("/api/v1/schedules", { method: "POST", key: ws.apiKey, json: { providerCode: PROVIDER, schema: SCHEMA, cron: "0 3 * * *", params } });
    for (const refused of [await create(ws, { params }), await schedule()]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe("WORKSPACE_ACCESS_DENIED");
      expect(refused.body.message).toContain("이메일 주소를 확인하기 전에는");
    }
    const stored = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`).bind(workspaceId).first<{ n: number }>())!.n;
    expect([await stored("jobs"), await stored("schedules")]).toEqual([0, 0]);
    // The sandbox's institutions stay open to it.
    expect((await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} } })).status).toBe(201);

    await browser.verifyEmail(email);
    expect((await create(ws, { params })).status).toBe(201);
    expect((await schedule()).status).toBe(201);
  });
});
