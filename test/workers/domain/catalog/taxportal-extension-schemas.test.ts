import { describe, expect, it, vi } from "vitest";
import { parseCsv } from "../../../support/parse-csv";
import { fieldInfos } from "../../../../contracts/records/field-kinds";
import { documentsOf } from "../../../../sandbox/sandbox-taxportal/documents";
import { TAXPORTAL_RECORDS } from "../../../../contracts/records/taxportal";
import { ID_MEMBERS } from "../../../../sandbox/sandbox-taxportal/members";
import { addCredential, call, callJson, createWorkspace } from "../../../support/workers/helpers";
import { approvalOfPurchase, cardLookback, cardsOfPurchases } from "../../../../collectors/kit/business-card-approvals";

type Json = Record<string, any>;
const PERIOD = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-10" };
const SCHEMAS = ["taxportal.tax-invoice-lines.v1", "taxportal.business-card-purchases.v1"] as const;

describe("the tax portal's extension schemas through the public API, against the sandbox tax portal", () => {
  it.each(SCHEMAS)("collects %s and answers the ground truth in JSON and, under the Korean labels, in CSV", async (schema) => {
    const { job, results, apiKey, businessNumber } = await portalJob(schema, PERIOD);
    const truth = documentsOf(businessNumber, schema, { start: PERIOD.dateRangeStart, end: PERIOD.dateRangeEnd });
    expect(truth.length).toBeGreaterThan(5);
    expect(job).toMatchObject({ kind: "Succeeded", recordCount: truth.length });

    expect(results).toMatchObject({ schema, totalCount: truth.length });
    expect(results.data).toEqual(truth);

    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${job.id}/results.csv`, { key: apiKey })).arrayBuffer()).slice(3)));
    const fields = fieldInfos(TAXPORTAL_RECORDS[schema]);
    expect(csv[0]).toEqual(fields.map((f) => f.title));
    expect(csv.slice(1).filter((row) => row.length > 1)).toEqual(truth.map((record) => fields.map((f) => (record[f.name] === null ? "" : String(record[f.name])))));
  });

  /** A sandbox.taxportal job of the member's, run to its end: the job, its results and records, and the key that reads them. */
  async function portalJob(schema: string, params: Record<string, unknown>) {
    const member = ID_MEMBERS[0]!;
    const ws = await createWorkspace({ businessNumber: member.businessNumber });
    await addCredential(ws.workspaceId, "sandbox.taxportal", { authMethod: "PROVIDER_LOGIN", loginId: member.loginId, password: member.password, secondFactor: member.residentPrefix });
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", schema, params } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = await vi.waitUntil(
      async () => {
        const polled = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey });
        return polled.body.kind === "InProgress" ? null : polled.body;
      },
      { timeout: 180_000, interval: 250 },
    );
    expect(job, JSON.stringify(job.error)).toMatchObject({ kind: "Succeeded" });
    const results = (await callJson<Json>(`/api/v1/data-jobs/${created.body.id}/results`, { key: ws.apiKey })).body;
    return { job, results, data: results.data as Json[], apiKey: ws.apiKey, businessNumber: member.businessNumber };
  }

  it("gives the spec's card schemas from the business-card purchases: the cards with their issuers, and a card's approvals of a month equal that month's purchases on it", async () => {
    const month = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" };
    const [cards, approvals, purchases] = await Promise.all([portalJob("card.cards.corp.v1", {}), portalJob("card.approvals.corp.v1", month), portalJob("taxportal.business-card-purchases.v1", month)]);
    const lookback = cardLookback();
    expect(cards.data).toEqual(cardsOfPurchases(documentsOf(cards.businessNumber, "taxportal.business-card-purchases.v1", lookback)));
    expect(cards.data.map((c) => c.cardName).sort()).toEqual(["KB국민카드", "신한카드"]);
    expect(purchases.data.length).toBeGreaterThan(5);
    const byId = (rows: Json[]) => [...rows].sort((a, b) => String(a.transactionIdentifier).localeCompare(String(b.transactionIdentifier)));
    for (const card of cards.data) {
      const mine = approvals.data.filter((a) => a.cardNumberMasked === card.cardNumberMasked);
      expect(mine.length, card.cardNumberMasked).toBeGreaterThan(0);
      expect(byId(mine)).toEqual(byId(purchases.data.filter((p) => p.cardNumberMasked === card.cardNumberMasked).map(approvalOfPurchase)));
    }
    expect(approvals.data).toHaveLength(purchases.data.length);
    // March was published in April: nothing in the range is unpublished.
    expect(approvals.job.unpublishedFrom).toBeUndefined();
  });

  it("says which days of a job's range the portal had not published yet, in the job and per schema in the catalog, never as a failure", async () => {
    const catalog = await callJson<Json>("/api/v1/providers/hometax", { key: (await createWorkspace()).apiKey });
    expect(catalog.body.freshness).toEqual(expect.arrayContaining([
      { schema: "card.approvals.corp.v1", lag: "NEXT_MONTH", publishedFromDay: 15, note: expect.any(String) },
      { schema: "taxportal.business-card-purchases.v1", lag: "NEXT_MONTH", publishedFromDay: 15, note: expect.any(String) },
      { schema: "taxportal.tax-invoices.sales.v1", lag: "AT_COLLECTION", publishedFromDay: null, note: expect.any(String) },
    ]));
    // Asked in a month's first half, the month before is not published yet (the 15th), nor this one.
    const today = new Date(Date.now() + 9 * 3_600_000);
    const monthStart = (back: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
    const first = today.getUTCDate() >= 15 ? monthStart(0) : monthStart(1);
    const range = { dateRangeStart: monthStart(3), dateRangeEnd: new Date(Date.parse(first) + 2 * 86_400_000).toISOString().slice(0, 10) };
    const { job } = await portalJob("taxportal.business-card-purchases.v1", range);
    expect(job).toMatchObject({ kind: "Succeeded", unpublishedFrom: first });
  });
});
