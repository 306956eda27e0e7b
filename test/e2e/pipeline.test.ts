// start-order: 4 (why: vitest.e2e.config.ts)
import { beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { CERTIFICATE_CUSTOMERS } from "../../sandbox/sandbox-card/certificate-customers";
import { cardGroundTruth } from "../../sandbox/sandbox-card/ground-truth";
import { fromDay, toDay } from "../../sandbox/dates";
import { kstDate } from "../../contracts/korean-time";
import { issueJointCertificate } from "../../sandbox/certificates/issue";
import { documentsOf } from "../../sandbox/sandbox-taxportal/documents";
import { ID_MEMBERS } from "../../sandbox/sandbox-taxportal/members";
import { DEMO_BUSINESS_NUMBER } from "../../scripts/demo-seed";
import { specViolations } from "../support/spec-field-tables";
import { csvRows as csvRowsOf } from "../support/e2e/result-csv";
import { client, type Stack, startStack } from "../support/e2e/stack";

type Json = Record<string, any>;

let stack: Stack;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  stack = await startStack();
  api = client(stack);
});

const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" };
const byIdentifier = (a: Json, b: Json) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0);

async function results(id: string) {
  return (await api.json("GET", `/api/v1/data-jobs/${id}/results`)).body;
}

const csvRows = (id: string) => csvRowsOf(api, id);

describe("bank jobs through the real stack", () => {
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
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const running = seen.filter((s) => s.phase === "RUNNING");
    expect(running.length).toBeGreaterThan(0);
    // 3 accounts x 3 windows of at most 31 days
    for (const s of running) expect(s.totalTaskCount).toBe(9);
    const counts = running.map((s) => s.completedTaskCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(partialChecked).toBe(true);

    const body = await results(job.id);
    expect(body.totalCount).toBe(truth.length);
    expect(new Set(body.data.map((r: Json) => r.identifier)).size).toBe(body.data.length);
    expect([...body.data].sort(byIdentifier)).toEqual([...truth].sort(byIdentifier));
    expect(body.data.flatMap(specViolations)).toEqual([]);
    expect(await results(job.id)).toEqual(body);

    const rows = await csvRows(job.id);
    expect(rows[0]).toEqual(["스키마", "계좌번호(오픈뱅킹: 핀테크이용번호)", "계좌번호(표시형식)", "계좌유형", "거래금액", "거래후잔액", "통화", "적요", "거래식별자", "거래일시"]);
    expect(rows.length - 1).toBe(done.recordCount);
    expect(rows.slice(1).map((r) => r[8]).sort()).toEqual(body.data.map((r: Json) => r.identifier).sort());
  });

  it("runs three jobs created at once on one credential one after the other, on one login, each exactly", async () => {
    const loginId = `line_${crypto.randomUUID().slice(0, 8)}`;
    const credential = await api.json("POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" } });
    expect(credential.status).toBe(201);
    // Each transactions job narrowed to one account, so a job is one unit.
    const [first, second] = bankGroundTruth(loginId).accounts.map((a) => a.accountNumber);
    const months = [["2026-01-01", "2026-01-31", first!], ["2026-02-01", "2026-02-28", second!]] as const;
    const requests = [
      { schema: "bank.accounts.cb.v1" },
      ...months.map(([dateRangeStart, dateRangeEnd, account]) => ({ schema: "bank.transactions.cb.v1", params: { dateRangeStart, dateRangeEnd, accountNumber: [account] } })),
    ];
    const jobs = await Promise.all(requests.map((r) => api.createJob({ providerCode: "sandbox.bank", credentialId: credential.body.id, ...r })));
    const [accounts, ...transactions] = await Promise.all(jobs.map((job) => api.waitForJob(job.id)));
    const truth = bankGroundTruth(loginId).accounts;
    expect(accounts, JSON.stringify(accounts!.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const { data } = await results(accounts!.id);
    expect(data).toEqual(truth);
    expect(data.flatMap(specViolations)).toEqual([]);
    transactions.forEach((job, i) => {
      const expected = bankGroundTruth(loginId, { start: months[i]![0], end: months[i]![1] }).transactions.filter((t) => t.accountNumber === months[i]![2]);
      expect(job, JSON.stringify(job.error)).toMatchObject({ kind: "Succeeded", recordCount: expected.length });
    });
    const logins = await (await fetch(`${stack.sandboxUrl}/bank/sandbox/logins?loginId=${loginId}`)).json();
    expect(logins.logins).toBeLessThanOrEqual(jobs.length);
    expect(logins.logins).toBeGreaterThan(0);
    expect((await api.request("DELETE", `/api/v1/credentials/${credential.body.id}`)).status).toBe(204);
  });

  it("collects only what changed since an earlier job, each record marked as the bank's history moved, in JSON and CSV", async () => {
    const loginId = `since_${crypto.randomUUID().slice(0, 8)}`;
    const credential = await api.json("POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" } });
    const [account] = bankGroundTruth(loginId).accounts.map((a) => a.accountNumber);
    // The last two weeks, where the bank's next revision posts late and takes a posting back (sandbox/sandbox-bank/ledger.ts).
    const range = { start: fromDay(toDay(kstDate()) - 14), end: kstDate() };
    const params = { dateRangeStart: range.start, dateRangeEnd: range.end, accountNumber: [account] };
    const request = { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", credentialId: credential.body.id };
    const first = await api.waitForJob((await api.createJob({ ...request, params })).id);
    expect(first, JSON.stringify(first.error)).toMatchObject({ kind: "Succeeded", since: expect.any(String) });
    expect((await fetch(`${stack.sandboxUrl}/bank/sandbox/history?loginId=${loginId}`, { method: "POST" })).status).toBe(200);
    const second = await api.waitForJob((await api.createJob({ ...request, params: { ...params, since: first.since } })).id);

    const truth = (revision: number) => new Map(bankGroundTruth(loginId, range, revision).transactions.filter((t) => t.accountNumber === account).map((t) => [t.identifier, t]));
    const [before, after] = [truth(0), truth(1)];
    const expected = [
      ...[...after.values()].filter((t) => JSON.stringify(t) !== JSON.stringify(before.get(t.identifier))).map((t) => ({ ...t, change: before.has(t.identifier) ? "modified" : "added" })),
      ...[...before.values()].filter((t) => !after.has(t.identifier)).map((t) => ({ ...t, change: "removed" })),
    ];
    expect(new Set(expected.map((t) => t.change))).toEqual(new Set(["added", "modified", "removed"]));
    expect(second).toMatchObject({ kind: "Succeeded", recordCount: expected.length, since: expect.any(String) });
    expect((await results(second.id)).data).toEqual(expected);
    const rows = await csvRows(second.id);
    expect(rows[0]!.at(-1)).toBe("변경");
    expect(rows.slice(1).map((row) => [row[8], row.at(-1)])).toEqual(expected.map((t) => [t.identifier, t.change]));
  });

  it("fails INVALID_ACCOUNT_FOR_SERVICE for an account the bank does not show, listing those it shows; then refuses it at creation", async () => {
    // A login of its own, so no earlier job of this file has shown its accounts yet.
    const fresh = await api.json("POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_accounts", password: "pass_good" } });
    const request = { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { ...RANGE, accountNumber: ["999-999-999999"] }, credentialId: fresh.body.id };
    const done = await api.waitForJob((await api.createJob(request)).id);
    const shown = bankGroundTruth("user_accounts").accounts.map((a) => a.accountNumber);
    expect(done).toMatchObject({ kind: "Failed", credentialId: fresh.body.id, error: { code: "INVALID_ACCOUNT_FOR_SERVICE", category: "INVALID_INPUT", retryable: false } });
    for (const account of shown) expect(done.error.message).toContain(account);
    const refused = await api.json("POST", "/api/v1/data-jobs", request);
    expect(refused).toMatchObject({ status: 404, body: { code: "ACCOUNT_NOT_FOUND", fieldErrors: [{ field: "body.params.accountNumber[0]" }] } });
    for (const account of shown) expect(refused.body.message).toContain(account);
  });

  it.each(["taxportal.tax-invoices.purchase.v1", "taxportal.tax-invoices.sales.v1", "taxportal.cash-receipts.purchase.v1"] as const)(
    "collects %s from the tax portal with the demo workspace's certificate exactly, every record within the spec's field table",
    async (schema) => {
      const range = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-02-28" };
      const job = await api.createJob({ providerCode: "sandbox.taxportal", schema, params: range });
      const done = await api.waitForJob(job.id);
      const truth = documentsOf(DEMO_BUSINESS_NUMBER, schema, { start: range.dateRangeStart, end: range.dateRangeEnd });
      expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
      const { data } = await results(job.id);
      expect(data).toEqual(truth);
      expect(data.flatMap(specViolations)).toEqual([]);
      const rows = await csvRows(job.id);
      expect(rows.length - 1).toBe(truth.length);
      expect(rows[0]).toContain("공급가액");
    },
  );
});

describe("card jobs through the real stack", () => {
  // 151 days: two of the issuer's searches of at most 90 days per card.
  const CARD_RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-05-31" };
  const byTransaction = (a: Json, b: Json) => (a.transactionIdentifier < b.transactionIdentifier ? -1 : 1);

  it("lists the card issuer among the providers", async () => {
    const { body } = await api.json("GET", "/api/v1/providers");
    expect(body.items).toContainEqual(expect.objectContaining({ code: "sandbox.card", kind: "CARD", schemas: ["card.cards.corp.v1", "card.approvals.corp.v1"], acceptedAuthMethods: ["PROVIDER_LOGIN", "CERTIFICATE"] }));
  });

  it("collects the corporate card list with the demo workspace's login exactly, under Korean CSV headers", async () => {
    const job = await api.createJob({ providerCode: "sandbox.card", schema: "card.cards.corp.v1" });
    const done = await api.waitForJob(job.id);
    const truth = cardGroundTruth("user_good").cards;
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const { data } = await results(job.id);
    expect(data).toEqual(truth);
    for (const record of data) expect(specViolations(record)).toEqual([]);
    const rows = await csvRows(job.id);
    expect(rows[0]).toEqual(["스키마", "카드명", "카드번호"]);
    expect(rows.slice(1)).toEqual(truth.map((c) => [c.schema, c.cardName, c.cardNumberMasked]));
  });

  it("collects every card's approvals over several of the issuer's searches exactly, every record within the spec's field table", async () => {
    const job = await api.createJob({ providerCode: "sandbox.card", schema: "card.approvals.corp.v1", params: CARD_RANGE });
    const totals = new Set<number>();
    const done = await api.waitForJob(job.id, (snapshot) => {
      if (snapshot.phase === "RUNNING") totals.add(snapshot.totalTaskCount);
    });
    const truth = cardGroundTruth("user_good", { start: CARD_RANGE.dateRangeStart, end: CARD_RANGE.dateRangeEnd }).approvals;
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    // every card (suspended and expired ones too) x 2 windows of at most 90 days
    expect([...totals]).toEqual([cardGroundTruth("user_good").cards.length * 2]);
    const { data } = await results(job.id);
    for (const record of data) expect(specViolations(record), JSON.stringify(record)).toEqual([]);
    expect([...data].sort(byTransaction)).toEqual([...truth].sort(byTransaction));

    const rows = await csvRows(job.id);
    expect(rows[0]).toEqual([
      "스키마", "승인번호", "승인일시", "카드번호", "할부개월", "처리단계", "가맹점주소", "가맹점사업자번호", "가맹점업종", "가맹점전화번호", "가맹점명",
      "가맹점대표자명", "현지거래금액", "현지통화", "해외여부", "결제방법", "승인금액", "결제통화", "승인상태", "부가세", "거래식별자",
    ]);
    expect(rows.length - 1).toBe(truth.length);
    expect(rows.slice(1).map((r) => r[20]).sort()).toEqual(truth.map((a) => a.transactionIdentifier).sort());
  });

  it("narrows a job to the cards named by cardNumberMasked", async () => {
    const range = { dateRangeStart: "2026-06-01", dateRangeEnd: "2026-07-31" };
    const cards = cardGroundTruth("user_good").cards.slice(0, 2).map((c) => c.cardNumberMasked);
    const job = await api.createJob({ providerCode: "sandbox.card", schema: "card.approvals.corp.v1", params: { ...range, cardNumberMasked: cards } });
    const done = await api.waitForJob(job.id);
    const truth = cardGroundTruth("user_good", { start: range.dateRangeStart, end: range.dateRangeEnd }).approvals.filter((a) => cards.includes(a.cardNumberMasked));
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect([...(await results(job.id)).data].sort(byTransaction)).toEqual([...truth].sort(byTransaction));
  });

  it("fails with INVALID_CARD_FOR_SERVICE for a card the issuer does not show", async () => {
    const job = await api.createJob({ providerCode: "sandbox.card", schema: "card.approvals.corp.v1", params: { ...CARD_RANGE, cardNumberMasked: ["1234-56**-****-7890"] } });
    const done = await api.waitForJob(job.id);
    expect(done).toMatchObject({ kind: "Failed", error: { code: "INVALID_CARD_FOR_SERVICE", category: "INVALID_INPUT", retryable: false } });
    for (const card of cardGroundTruth("user_good").cards) expect(done.error.message).toContain(card.cardNumberMasked);
  });
});

/** Deletes the demo workspace's credential for the provider and registers another way in to the same business. */
async function registerInstead(providerCode: string, authMethod: "PROVIDER_LOGIN" | "CERTIFICATE", fields: Record<string, string>) {
  const existing = (await api.json("GET", "/api/v1/credentials")).body.items.find((c: Json) => c.providerCode === providerCode);
  expect((await api.request("DELETE", `/api/v1/credentials/${existing.id}`)).status).toBe(204);
  const registered = await api.json("POST", "/api/v1/credentials", { providerCode, authMethod, fields });
  expect(registered).toMatchObject({ status: 201, body: { authMethod, status: "ACTIVE" } });
}

describe("other ways in through the real stack", () => {
  it("collects cash receipts exactly with a tax portal ID login registered in place of the demo workspace's certificate", async () => {
    const member = ID_MEMBERS.find((m) => m.businessNumber === DEMO_BUSINESS_NUMBER)!;
    await registerInstead("sandbox.taxportal", "PROVIDER_LOGIN", { loginId: member.loginId, password: member.password, secondFactor: member.residentPrefix });
    const range = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-04-15" };
    const job = await api.createJob({ providerCode: "sandbox.taxportal", schema: "taxportal.cash-receipts.sales.v1", params: range });
    const done = await api.waitForJob(job.id);
    const truth = documentsOf(member.businessNumber, "taxportal.cash-receipts.sales.v1", { start: range.dateRangeStart, end: range.dateRangeEnd });
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const { data } = await results(job.id);
    expect(data).toEqual(truth);
    expect(data.flatMap(specViolations)).toEqual([]);
  });

  it("collects the card list exactly with the business certificate registered in place of the demo workspace's card ID login", async () => {
    const { certificate, privateKey, password } = await issueJointCertificate({ idn: DEMO_BUSINESS_NUMBER });
    await registerInstead("sandbox.card", "CERTIFICATE", { certificate, privateKey, password });
    const job = await api.createJob({ providerCode: "sandbox.card", schema: "card.cards.corp.v1" });
    const truth = cardGroundTruth(CERTIFICATE_CUSTOMERS[DEMO_BUSINESS_NUMBER]!).cards;
    expect(await api.waitForJob(job.id)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect((await results(job.id)).data).toEqual(truth);
  });
});
