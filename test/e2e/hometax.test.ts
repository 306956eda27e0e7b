// start-order: 14 (why: vitest.e2e.config.ts)
import { beforeAll, describe, expect, it } from "vitest";
import { issueJointCertificate } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { DEMO_BUSINESS_NUMBER } from "../../scripts/demo-seed";
import { specViolations } from "../support/spec-field-tables";
import { csvRows } from "../support/e2e/result-csv";
import { client, startStack } from "../support/e2e/stack";

type Json = Record<string, any>;

let api: ReturnType<typeof client>;

// The workspace holds the demo's certificate for hometax too; the stack points hometax at the sandbox's replica.
beforeAll(async () => {
  api = client(await startStack());
});

const RANGE = { dateRangeStart: "2025-10-01", dateRangeEnd: "2026-02-28" };
/** A record's identity: one field, or several (an invoice line is its invoice's approval number and its place). */
const keyOf = (keys: readonly string[]) => (r: Json) => keys.map((k) => String(r[k])).join("/");


describe("hometax through the public API, against its replica", () => {
  // The sales receipts come by the portal's text download, the invoices checked against theirs; the purchase invoices
  // hold exempt and amended ones; lines and card purchases are the extension schemas (docs/institutions/hometax.md).
  it.each([
    ["taxportal.tax-invoices.sales.v1", ["ntsTransactionId"], "승인번호"],
    ["taxportal.tax-invoices.purchase.v1", ["ntsTransactionId"], "승인번호"],
    ["taxportal.cash-receipts.sales.v1", ["approvalNumber"], "승인번호"],
    ["taxportal.cash-receipts.purchase.v1", ["approvalNumber"], "승인번호"],
    ["taxportal.tax-invoice-lines.v1", ["approvalNumber", "lineNumber"], "승인번호"],
    ["taxportal.business-card-purchases.v1", ["transactionIdentifier"], "거래일련번호"],
  ] as const)("collects %s over several units exactly, in JSON and CSV", async (schema, keys, header) => {
    const job = await api.createJob({ providerCode: "hometax", schema, params: RANGE });
    const done = await api.waitForJob(job.id);
    const truth = hometaxDocuments(DEMO_BUSINESS_NUMBER, schema, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd });
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const { data } = (await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body;
    const key = keyOf(keys);
    const sorted = (rows: Json[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(truth.length).toBeGreaterThan(0);
    expect(sorted(data)).toEqual(sorted(truth));
    expect(data.flatMap(specViolations)).toEqual([]);
    const rows = await csvRows(api, job.id);
    const column = rows[0]!.indexOf(header);
    expect(rows.length - 1).toBe(truth.length);
    expect(rows.slice(1).map((r) => r[column]).sort()).toEqual(truth.map((d) => String(d[keys[0]])).sort());
  });

  it("collects with a real-format certificate registered through the API in place of the seeded one", async () => {
    const seeded = (await api.json("GET", "/api/v1/credentials")).body.items.find((c: Json) => c.providerCode === "hometax");
    expect((await api.request("DELETE", `/api/v1/credentials/${seeded.id}`)).status).toBe(204);
    const { certificate, privateKey, password } = await issueJointCertificate({ idn: DEMO_BUSINESS_NUMBER });
    const registered = await api.json("POST", "/api/v1/credentials", { providerCode: "hometax", authMethod: "CERTIFICATE", fields: { certificate, privateKey, password } });
    expect(registered).toMatchObject({ status: 201, body: { authMethod: "CERTIFICATE", status: "ACTIVE" } });
    const range = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" };
    const job = await api.createJob({ providerCode: "hometax", schema: "taxportal.cash-receipts.sales.v1", params: range });
    const truth = hometaxDocuments(DEMO_BUSINESS_NUMBER, "taxportal.cash-receipts.sales.v1", { start: range.dateRangeStart, end: range.dateRangeEnd });
    expect(await api.waitForJob(job.id)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect((await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data).toEqual(truth);
  });
});
