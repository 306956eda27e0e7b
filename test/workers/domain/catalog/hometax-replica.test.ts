import { describe, expect, it } from "vitest";
import { issueJointCertificate } from "../../../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../../../sandbox/hometax/ground-truth";
import { BUSINESS_CHOICES, HOMETAX_MEMBERS } from "../../../../sandbox/hometax/members";
import { callJson, createWorkspace } from "../../../support/workers/helpers";
import { harness, jobRow } from "../../../support/workers/pipeline-harness";
import type { DocumentType } from "../../../../sandbox/sandbox-taxportal/documents";
import { approvalOfPurchase, cardLookback, cardsOfPurchases } from "../../../../collectors/kit/business-card-approvals";

type Json = Record<string, any>;
const RANGE = { dateRangeStart: "2025-10-01", dateRangeEnd: "2025-12-31" };
const SCHEMA = "taxportal.tax-invoices.sales.v1";
const memberOf = (userId: string) => [...HOMETAX_MEMBERS, ...BUSINESS_CHOICES].find((m) => m.userId === userId)!;

/**
 * A Hometax job through the public API against the replica: the member's certificate registered with POST /credentials,
 * the job created with POST /data-jobs, run by the real executor and scraper (retries without waiting), read back.
 */
async function hometaxJob(userId: string, runs = 1, schema = SCHEMA, range: Record<string, string> = RANGE): Promise<{ job: Json; data: Json[] | null; truth: Json[]; jobs: Json[] }> {
  const { businessNumber } = memberOf(userId);
  const ws = await createWorkspace({ businessNumber });
  const { certificate, privateKey, password } = await issueJointCertificate({ idn: businessNumber });
  const credential = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", authMethod: "CERTIFICATE", fields: { certificate, privateKey, password } } });
  expect(credential.status, JSON.stringify(credential.body)).toBe(201);
  const jobs: Json[] = [];
  let data: Json[] | null = null;
  for (let run = 0; run < runs; run++) {
    const h = harness();
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", schema, params: range }, env: h.env });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await h.drain();
    const job = (await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey })).body;
    data = job.kind === "Succeeded" ? (await callJson<Json>(`/api/v1/data-jobs/${created.body.id}/results`, { key: ws.apiKey })).body.data : null;
    jobs.push(job);
  }
  return { job: jobs.at(-1)!, jobs, data, truth: schema.startsWith("taxportal.") ? hometaxDocuments(businessNumber, schema as DocumentType, { start: range.dateRangeStart!, end: range.dateRangeEnd! }) : [] };
}

const byId = (rows: Json[]) => [...rows].sort((a, b) => String(a.ntsTransactionId).localeCompare(String(b.ntsTransactionId)));

describe("Hometax through the public API against its replica (docs/institutions/hometax.md §11)", () => {
  it("collects the business the portal script's rule chooses for a login that switched to it, and refuses a login with none chosen", async () => {
    const switched = await hometaxJob("switched");
    // A quarter of invoices is three units of a month (a detail request each: worker/domain/catalog/providers.ts).
    expect(switched.job, JSON.stringify(switched.job.error)).toMatchObject({ kind: "Succeeded", recordCount: switched.truth.length });
    // A quarter of invoices runs as three units of a month: a detail request each makes a large business's quarter
    // longer than a unit may run (worker/domain/catalog/providers.ts, unitWindowDays).
    expect(await jobRow(switched.job.id)).toMatchObject({ total_task_count: 3, completed_task_count: 3 });
    expect(switched.truth.length).toBeGreaterThan(0);
    expect(byId(switched.data!)).toEqual(byId(switched.truth));

    const none = await hometaxJob("nobusiness");
    expect(none.job).toMatchObject({ kind: "Failed", error: { code: "BUSINESS_NUMBER_MISMATCH", category: "CREDENTIAL" } });
  });

  it.each(["nodownload", "newlayout"])("collects every invoice from the JSON pages when the cross-check download is refused or unreadable (%s), and the credential stays usable", async (userId) => {
    const { jobs, data, truth } = await hometaxJob(userId, 2);
    expect(truth.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job, JSON.stringify(job.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect(byId(data!)).toEqual(byId(truth));
  });

  it("gives the spec's card schemas from the business-card purchases of every issuer: a card's approvals of a month equal that month's purchases on it, and the cards are those of the ground truth", async () => {
    const month = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" };
    const cards = await hometaxJob("sandboxtwo", 1, "card.cards.corp.v1", {});
    expect(cards.job, JSON.stringify(cards.job.error)).toMatchObject({ kind: "Succeeded" });
    expect(cards.data).toEqual(cardsOfPurchases(hometaxDocuments(memberOf("sandboxtwo").businessNumber, "taxportal.business-card-purchases.v1", cardLookback())));
    const approvals = await hometaxJob("sandboxtwo", 1, "card.approvals.corp.v1", month);
    const purchases = await hometaxJob("sandboxtwo", 1, "taxportal.business-card-purchases.v1", month);
    expect(approvals.job, JSON.stringify(approvals.job.error)).toMatchObject({ kind: "Succeeded", recordCount: purchases.truth.length });
    expect(purchases.data).toEqual(purchases.truth);
    const byId = (rows: Json[]) => [...rows].sort((a, b) => String(a.transactionIdentifier).localeCompare(String(b.transactionIdentifier)));
    for (const card of cards.data!) {
      const mine = approvals.data!.filter((a) => a.cardNumberMasked === card.cardNumberMasked);
      expect(mine.length).toBeGreaterThan(0);
      expect(byId(mine)).toEqual(byId(purchases.truth.filter((p) => p.cardNumberMasked === card.cardNumberMasked).map(approvalOfPurchase)));
    }
  });

  it.each(["repeatpage", "movingcount", "dupapproval"])("fails a job whose list moves between pages (%s) as PROVIDER_RESPONSE_MALFORMED after its retries, storing nothing", async (userId) => {
    // Cash-receipt purchases: a quarter a unit, two pages of 50 at the replica. An invoice unit is a month (one page
    // here); the invoice list's own faults are collectors/hometax/lists.test.ts's, over a quarter's window.
    const { job } = await hometaxJob(userId, 1, "taxportal.cash-receipts.purchase.v1");
    expect(job).toMatchObject({ kind: "Failed", error: { code: "PROVIDER_RESPONSE_MALFORMED" } });
    expect(job.recordCount ?? 0).toBe(0);
  });
});
