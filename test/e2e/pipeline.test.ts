import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/bank/ground-truth";
import { documentsOf } from "../../sandbox/taxportal/documents";
import { DEMO_BUSINESS_NUMBER } from "../../scripts/demo-seed";
import { parseCsv } from "../support/parse-csv";
import { client, type LocalStack, startStack } from "./stack";

type Json = Record<string, any>;

let stack: LocalStack;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  stack = await startStack("pipeline");
  api = client(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-04-30" };
const byIdentifier = (a: Json, b: Json) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0);

async function results(id: string) {
  return (await api.json("GET", `/api/v1/data-jobs/${id}/results`)).body;
}

async function csvRows(id: string): Promise<string[][]> {
  const response = await api.request("GET", `/api/v1/data-jobs/${id}/results.csv`);
  expect(response.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(new TextDecoder().decode(bytes.slice(3)));
}

describe("bank jobs through the real stack", () => {
  it("collects the account list exactly", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    const done = await api.waitForJob(job.id);
    const truth = bankGroundTruth("user_good").accounts;
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect((await results(job.id)).data).toEqual(truth);
  });

  it("collects a multi-account, multi-month range exactly, with progress and partial results", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    expect(job).toMatchObject({ kind: "InProgress", phase: "PENDING", totalTaskCount: 0, completedTaskCount: 0 });
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    const seen: Json[] = [];
    let partialChecked = false;
    const done = await api.waitForJob(job.id, async (snapshot) => {
      seen.push(snapshot);
      if (!partialChecked && snapshot.phase === "RUNNING" && snapshot.completedTaskCount > 0 && snapshot.completedTaskCount < snapshot.totalTaskCount) {
        const partial = await results(job.id);
        expect(partial.data.length).toBe(partial.totalCount);
        expect(partial.totalCount).toBeGreaterThan(0);
        expect(partial.totalCount).toBeLessThan(truth.length);
        partialChecked = true;
      }
    });
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const running = seen.filter((s) => s.phase === "RUNNING");
    expect(running.length).toBeGreaterThan(0);
    // 3 accounts x 4 windows of at most 31 days
    for (const s of running) expect(s.totalTaskCount).toBe(12);
    const counts = running.map((s) => s.completedTaskCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(partialChecked).toBe(true);

    const body = await results(job.id);
    expect(body.totalCount).toBe(truth.length);
    expect(new Set(body.data.map((r: Json) => r.identifier)).size).toBe(body.data.length);
    expect([...body.data].sort(byIdentifier)).toEqual([...truth].sort(byIdentifier));
    expect(await results(job.id)).toEqual(body);

    const rows = await csvRows(job.id);
    expect(rows[0]).toEqual(["스키마", "계좌번호", "계좌번호(표시형식)", "계좌유형", "거래금액", "거래후잔액", "통화", "적요", "거래식별자", "거래일시"]);
    expect(rows.length - 1).toBe(done.recordCount);
    expect(rows.slice(1).map((r) => r[8]).sort()).toEqual(body.data.map((r: Json) => r.identifier).sort());
  });

  it("narrows to one account and keeps exact results when the scraper process is killed mid-job", async () => {
    const all = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd });
    const account = all.accounts[0]!.accountNumber;
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { ...RANGE, accountNumber: [account] } });
    let killed = false;
    const done = await api.waitForJob(job.id, async (snapshot) => {
      if (!killed && snapshot.completedTaskCount >= 1) {
        killed = true;
        await stack.killScraper();
        await new Promise((r) => setTimeout(r, 1500));
        await stack.startScraper();
      }
    });
    expect(killed).toBe(true);
    const truth = all.transactions.filter((t) => t.accountNumber === account);
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect([...(await results(job.id)).data].sort(byIdentifier)).toEqual([...truth].sort(byIdentifier));
  });

  it("fails with INVALID_ACCOUNT_FOR_SERVICE for an account the bank does not show", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { ...RANGE, accountNumber: ["999-999-999999"] } });
    const done = await api.waitForJob(job.id);
    expect(done).toMatchObject({ kind: "Failed", error: { code: "INVALID_ACCOUNT_FOR_SERVICE", category: "INVALID_INPUT", retryable: false } });
  });

  it("collects tax invoices from the tax portal with the demo workspace's certificate, exactly", async () => {
    const range = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-02-28" };
    const job = await api.createJob({ providerCode: "sandbox.taxportal", schema: "taxportal.tax-invoices.purchase.v1", params: range });
    const done = await api.waitForJob(job.id);
    const truth = documentsOf(DEMO_BUSINESS_NUMBER, "taxportal.tax-invoices.purchase.v1", { start: range.dateRangeStart, end: range.dateRangeEnd });
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect((await results(job.id)).data).toEqual(truth);
    const rows = await csvRows(job.id);
    expect(rows.length - 1).toBe(truth.length);
    expect(rows[0]).toContain("공급가액");
  });
});
