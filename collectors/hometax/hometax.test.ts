// start-order: 2 (why: vitest.node.config.ts)
import { certificateOf, NO_WAIT, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { ReportedFailure, reportingUnreadable } from "../kit/page-report";
import { beforeAll, describe, expect, it } from "vitest";
import type { LoginCredential, TaskUnit } from "../../contracts/task-unit";
import { hometax } from "./index";
import type { HometaxOptions } from "./options";
import { CashReceiptPurchaseRecord, CashReceiptSalesRecord, TaxInvoicePurchaseRecord, TaxInvoiceSalesRecord } from "../../contracts/records/taxportal";
import { issueJointCertificate, SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { HOMETAX_MEMBERS, NOT_REGISTERED } from "../../sandbox/hometax/members";
import type { SandboxServer } from "../../sandbox/server";
import { checkHometax, LIVE_CHECK_SCHEMAS } from "../../scripts/live-check/hometax";
import type { DocumentType } from "../../sandbox/sandbox-taxportal/documents";

const SCHEMAS = {
  "taxportal.tax-invoices.sales.v1": { record: TaxInvoiceSalesRecord, key: "ntsTransactionId" },
  "taxportal.tax-invoices.purchase.v1": { record: TaxInvoicePurchaseRecord, key: "ntsTransactionId" },
  "taxportal.cash-receipts.sales.v1": { record: CashReceiptSalesRecord, key: "approvalNumber" },
  "taxportal.cash-receipts.purchase.v1": { record: CashReceiptPurchaseRecord, key: "approvalNumber" },
} as const;
type Schema = keyof typeof SCHEMAS;

const replicaWith = replicaStarter();
let replica: SandboxServer;

beforeAll(async () => {
  replica = await replicaWith();
});

/** The real adapter against a replica, counting the requests that left it. */
function connect(sandbox: SandboxServer, options: Partial<HometaxOptions> = {}) {
  const sent: string[] = [];
  const { adapter, http } = replicaConnection(sandbox, options, NO_WAIT, (input, init) => {
    sent.push(String(input));
    return fetch(input, init);
  });
  return { adapter, http, sent };
}

const unit = (schema: Schema, start: string, end: string): TaskUnit => ({ jobId: "job", unitIndex: 0, schema, target: null, segment: { start, end }, params: {} });

async function failureOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "no failure",
    (err: { code?: string }) => err.code ?? String(err),
  );
}

describe("Hometax adapter against the replica", () => {
  it("collects all four schemas over two 3-month windows and several pages each, equal to the replica's ground truth", async () => {
    const { adapter, http } = connect(replica);
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
    const session = await adapter.login(http, await certificateOf(SANDBOX_BUSINESS_NUMBER), ctx);
    for (const [schema, { record, key }] of Object.entries(SCHEMAS) as [Schema, (typeof SCHEMAS)[Schema]][]) {
      const records = await adapter.collect(session, unit(schema, "2024-01-01", "2024-06-30"), ctx);
      const truth = hometaxDocuments(SANDBOX_BUSINESS_NUMBER, schema, { start: "2024-01-01", end: "2024-06-30" });
      expect(truth.length, schema).toBeGreaterThan(100);
      const byKey = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a[key]).localeCompare(String(b[key])));
      expect(byKey(records), schema).toEqual(byKey(truth));
      for (const r of records) record.parse(r);
    }
  });

  it("logs in by ID, giving the resident-number prefix when the portal asks for it", async () => {
    const { adapter, http } = connect(replica);
    const login = HOMETAX_MEMBERS[0]!.idLogin!;
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
    const session = await adapter.login(http, { authMethod: "PROVIDER_LOGIN", loginId: login.loginId, password: login.password, secondFactor: login.residentPrefix }, ctx);
    const records = await adapter.collect(session, unit("taxportal.cash-receipts.sales.v1", "2024-03-01", "2024-03-31"), ctx);
    expect(records).toEqual(hometaxDocuments(SANDBOX_BUSINESS_NUMBER, "taxportal.cash-receipts.sales.v1", { start: "2024-03-01", end: "2024-03-31" }));
    const again = (credential: Partial<{ password: string; secondFactor: string }>) =>
      failureOf(connect(replica).adapter.login(connect(replica).http, { authMethod: "PROVIDER_LOGIN", loginId: login.loginId, password: login.password, ...credential }, ctx));
    expect(await failureOf(connect(replica).adapter.login(connect(replica).http, { authMethod: "PROVIDER_LOGIN", loginId: login.loginId, password: login.password }, ctx))).toBe("LOGIN_SECOND_FACTOR_REQUIRED");
    expect(await again({ password: "wrong_pass" })).toBe("LOGIN_FAILED");
    expect(await again({ secondFactor: "9999999" })).toBe("LOGIN_CREDENTIALS_MISMATCH");
  });

  it("refuses locally, without a request to the portal, a wrong password, an expired certificate and another business's certificate", async () => {
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
    const cases: [LoginCredential, string][] = [
      [{ ...(await certificateOf(SANDBOX_BUSINESS_NUMBER)), password: "not-the-password" } as LoginCredential, "LOGIN_FAILED"],
      [await certificateOf(SANDBOX_BUSINESS_NUMBER, { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }), "CERT_INVALID"],
      [await certificateOf("2208162517"), "BUSINESS_NUMBER_MISMATCH"],
      [await certificateOf(SANDBOX_BUSINESS_NUMBER, { withoutRandomNum: true }), "CERT_INVALID"],
    ];
    for (const [credential, code] of cases) {
      const { adapter, http, sent } = connect(replica);
      expect(await failureOf(adapter.login(http, credential, ctx))).toBe(code);
      expect(sent, code).toEqual([]);
    }
  });

  it("maps each refusal of the portal to its catalog code", async () => {
    const login = async (sandbox: SandboxServer, businessNumber: string, extra: Parameters<typeof issueJointCertificate>[0] = {}) => {
      const { adapter, http } = connect(sandbox);
      const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber };
      return adapter.login(http, await certificateOf(businessNumber, extra), ctx).then((session) => adapter.collect(session, unit("taxportal.tax-invoices.sales.v1", "2024-01-01", "2024-01-31"), ctx));
    };
    const [stopped, overseas] = await Promise.all([replicaWith({ stopped: true }), replicaWith({ overseasBlocked: true })]);
    const outcomes = await Promise.all([
      failureOf(login(replica, NOT_REGISTERED)),
      failureOf(login(replica, SANDBOX_BUSINESS_NUMBER, { revoked: true })),
      failureOf(login(stopped, SANDBOX_BUSINESS_NUMBER)),
      failureOf(login(overseas, SANDBOX_BUSINESS_NUMBER)),
      ...(["duplicate-login", "throttled", "changed-answer"] as const).map((behaviour) => failureOf(login(replica, HOMETAX_MEMBERS.find((m) => m.behaviour === behaviour)!.businessNumber))),
    ]);
    expect(outcomes).toEqual(["CERT_NOT_REGISTERED_AT_PROVIDER", "CERT_INVALID", "PROVIDER_TIME_WINDOW", "OVERSEAS_IP_BLOCKED", "DUPLICATE_LOGIN", "RATE_LIMITED", "PROVIDER_RESPONSE_MALFORMED"]);
  });

  it("answers SESSION_EXPIRED when the portal ends the session mid-unit, and a new login collects the unit whole", async () => {
    const member = HOMETAX_MEMBERS.find((m) => m.behaviour === "session-expires")!;
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: member.businessNumber };
    const credential = await certificateOf(member.businessNumber);
    const work = unit("taxportal.tax-invoices.purchase.v1", "2024-01-01", "2024-03-31");
    const first = connect(replica);
    expect(await failureOf(first.adapter.collect(await first.adapter.login(first.http, credential, ctx), work, ctx))).toBe("SESSION_EXPIRED");
    const second = connect(replica);
    const records = await second.adapter.collect(await second.adapter.login(second.http, credential, ctx), work, ctx);
    expect(records).toHaveLength(hometaxDocuments(member.businessNumber, work.schema as Schema, work.segment!).length);
  });

  it("signs every list request with the suffix of the portal's script keys, and stops when the script changes shape", async () => {
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
    const [strict, changed] = await Promise.all([replicaWith({ requireSuffix: true }), replicaWith({ requireSuffix: true, script: "var testVal=[];" })]);
    const run = async (sandbox: SandboxServer, options: Partial<HometaxOptions>) => {
      const { adapter, http } = connect(sandbox, options);
      const session = await adapter.login(http, await certificateOf(SANDBOX_BUSINESS_NUMBER), ctx);
      return adapter.collect(session, unit("taxportal.cash-receipts.purchase.v1", "2024-02-01", "2024-02-29"), ctx);
    };
    expect(await run(strict, {})).toHaveLength(hometaxDocuments(SANDBOX_BUSINESS_NUMBER, "taxportal.cash-receipts.purchase.v1", { start: "2024-02-01", end: "2024-02-29" }).length);
    expect(await failureOf(run(strict, { integritySuffix: false }))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(await failureOf(run(changed, {}))).toBe("PROVIDER_RESPONSE_MALFORMED");
    // The scraper's wrapper (scraper-container/log-in.ts) makes it an operators' report: the protocol kind has no page to keep.
    const reported = await reportingUnreadable(hometax, null, "collect taxportal.cash-receipts.purchase.v1", () => run(changed, {})).catch((err: unknown) => err);
    expect(reported).toBeInstanceOf(ReportedFailure);
    expect((reported as ReportedFailure).report).toMatchObject({ surprise: "SCRAPING_RESPONSE_MALFORMED", adapterVersion: "hometax/2026-12-01", url: null, html: null, screenshot: null });
  });

  it("tries the serial forms in order until the portal takes the signature", async () => {
    const prefixedOnly = await replicaWith({ serialForm: "prefixed" });
    const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
    const credential = await certificateOf(SANDBOX_BUSINESS_NUMBER);
    const both = connect(prefixedOnly);
    await both.adapter.login(both.http, credential, ctx);
    expect(both.sent.filter((u) => u.includes("pubcLogin.do"))).toHaveLength(2);
    const bytesOnly = connect(prefixedOnly, { serialForms: ["bytes"] });
    expect(await failureOf(bytesOnly.adapter.login(bytesOnly.http, credential, ctx))).toBe("UNKNOWN");
  });

  it("runs the live check's steps against the replica: the accepted serial form, then counts with and without the suffix", async () => {
    const prefixedOnly = await replicaWith({ serialForm: "prefixed" });
    const steps = await checkHometax(() => connect(prefixedOnly).http, await certificateOf(SANDBOX_BUSINESS_NUMBER), SANDBOX_BUSINESS_NUMBER, { start: "2024-05-01", end: "2024-05-31" }, NO_WAIT);
    const count = (schema: string) => `${hometaxDocuments(SANDBOX_BUSINESS_NUMBER, schema as DocumentType, { start: "2024-05-01", end: "2024-05-31" }).length} records`;
    expect(steps.map((s) => [s.ok, s.step.split(",")[0], s.detail.replace(/^tin .*/, "tin")])).toEqual([
      [false, 'login', expect.stringMatching(/^UNKNOWN/)],
      [true, 'login', "tin"],
      ...[true, false].flatMap(() => LIVE_CHECK_SCHEMAS.map((schema) => [true, `${schema} 2024-05-01..2024-05-31`, count(schema)])),
      [true, "invoice text download ATEETBDA005R04 (invoiceDownloadCheck on by default)", "every invoice list agreed with its download"],
    ]);
  });
});
