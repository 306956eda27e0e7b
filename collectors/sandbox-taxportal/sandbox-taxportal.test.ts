// start-order: 3 (why: vitest.node.config.ts)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupBy } from "../../test/support/group-by";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { type DocumentType, DOCUMENT_TYPES, documentsOf } from "../../sandbox/sandbox-taxportal/documents";
import { TAXPORTAL_RECORDS } from "../../contracts/records/taxportal";
import type { AdapterContext, BrowserPage } from "../adapter";
import type { LoginCredential } from "../../contracts/task-unit";
import { sandboxTaxPortal } from "./index";
import { issueJointCertificate, type JointCertificateOptions } from "../../sandbox/certificates/issue";
import { ID_MEMBERS, type IdMember, NOT_A_MEMBER } from "../../sandbox/sandbox-taxportal/members";
import { clockFrom } from "../../sandbox/clock";
import { kstDate } from "../../contracts/korean-time";
import { type FileBrowser, scraperChromium, reusablePage } from "../../test/support/chromium";
import { specViolations } from "../../test/support/spec-field-tables";
import { makeOpensslJointCertificate } from "../../test/support/openssl-joint-certificate";

let sandbox: SandboxServer;
let browser: FileBrowser;
let ctx: AdapterContext;
let reusable: Awaited<ReturnType<typeof reusablePage>>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  browser = await scraperChromium();
  reusable = await reusablePage(browser);
  ctx = { baseUrl: `${sandbox.url}/taxportal/`, timeoutMs: 30_000 };
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** The file's one page, logged in afresh: each test's logins follow one another, none uses an earlier one's page. */
async function loggedIn(credential: LoginCredential, context: AdapterContext = ctx): Promise<BrowserPage> {
  await reusable.reset();
  await sandboxTaxPortal.login(reusable.page, credential, context);
  return reusable.page;
}

const [taxUser, otherUser] = ID_MEMBERS as [IdMember, IdMember];
// A null second factor leaves it out of the credential, as a registration without it does.
const idLogin = (member: IdMember, secondFactor: string | null = member.residentPrefix): Extract<LoginCredential, { authMethod: "PROVIDER_LOGIN" }> => ({
  authMethod: "PROVIDER_LOGIN",
  loginId: member.loginId,
  password: member.password,
  ...(secondFactor === null ? {} : { secondFactor }),
});

const certificate = async (options: JointCertificateOptions = {}): Promise<LoginCredential> => {
  const { certificate, privateKey, password } = await issueJointCertificate(options);
  return { authMethod: "CERTIFICATE", certificate, privateKey, password };
};

describe("sandbox tax portal adapter in Chromium", () => {
  it.each(Object.keys(DOCUMENT_TYPES) as DocumentType[])("reads %s over a month exactly, across pages", async (schema) => {
    const page = await loggedIn(await certificate({ idn: "1208800767" }));
    const segment = { start: "2026-03-01", end: "2026-03-31" };
    const records = await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: 0, schema, target: null, segment, params: {} }, ctx);
    const truth = documentsOf("1208800767", schema, segment);
    expect(truth.length).toBeGreaterThan(20);
    expect(records.map((r) => ({ schema, ...r }))).toEqual(truth);
    for (const r of truth) expect(TAXPORTAL_RECORDS[schema].safeParse(r).success).toBe(true);
    expect(truth.flatMap(specViolations)).toEqual([]);
  });

  it("answers a session's units on the one inquiry page it opened, each unit its document type and window exactly", async () => {
    const page = await loggedIn(await certificate({ idn: "1208800767" }));
    // Windows of a few days: each fits one result page, so each unit's first page follows one that said page 1 too.
    const windows = [{ start: "2026-03-02", end: "2026-03-04" }, { start: "2026-03-05", end: "2026-03-05" }];
    const documents = new Set<unknown>();
    let read = 0;
    let unitIndex = 0;
    for (const schema of Object.keys(DOCUMENT_TYPES) as DocumentType[]) {
      for (const segment of windows) {
        const records = await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: unitIndex++, schema, target: null, segment, params: {} }, ctx);
        expect(records.map((r) => ({ schema, ...r }))).toEqual(documentsOf("1208800767", schema, segment));
        read += records.length;
        // A document's time origin is its own: one origin over every unit is one inquiry page, opened once.
        documents.add(await page.evaluate("performance.timeOrigin"));
      }
    }
    expect(unitIndex).toBe(Object.keys(DOCUMENT_TYPES).length * windows.length);
    expect(read).toBeGreaterThan(0);
    expect(documents.size).toBe(1);
  });

  it("reads invoice lines that add up to the invoices of the same month, and card purchases whose parts make their totals", async () => {
    const page = await loggedIn(await certificate({ idn: "1208800767" }));
    const segment = { start: "2026-03-01", end: "2026-03-31" };
    const read = async (schema: DocumentType) => (await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: 0, schema, target: null, segment, params: {} }, ctx)) as Record<string, any>[];
    const lines = await read("taxportal.tax-invoice-lines.v1");
    const invoices = [...(await read("taxportal.tax-invoices.sales.v1")), ...(await read("taxportal.tax-invoices.purchase.v1"))].filter((i) => i.ntsTransactionId !== null);
    const byInvoice = groupBy(lines, (l) => l.approvalNumber as string);
    expect(byInvoice.size).toBe(invoices.length);
    expect([...byInvoice.values()].some((of) => of.length > 1)).toBe(true);
    for (const invoice of invoices) {
      const of = byInvoice.get(invoice.ntsTransactionId)!;
      expect([of.reduce((sum, l) => sum + l.supplyAmount, 0), of.reduce((sum, l) => sum + l.taxAmount, 0)]).toEqual([invoice.supplyAmount, invoice.taxAmount]);
      expect(of[0]).toMatchObject({ lineNumber: 1, itemName: invoice.itemName, supplyAmount: invoice.itemSupplyAmount, quantity: invoice.itemQuantity, unitPrice: invoice.itemUnitPrice });
    }
    for (const purchase of await read("taxportal.business-card-purchases.v1")) expect(purchase.supplyAmount + purchase.taxAmount + (purchase.tip ?? 0)).toBe(purchase.totalAmount);
  });

  it("signs in with each key encryption in use, and the portal tells the business by the virtual ID", async () => {
    for (const encryption of ["SEED_CBC_WITH_SHA1", "PBES2_SEED_CBC", "PBES2_AES256_CBC"] as const) {
      const page = await loggedIn(await certificate({ idn: "2208162517", encryption }));
      const segment = { start: "2026-03-01", end: "2026-03-10" };
      const records = await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: 0, schema: "taxportal.cash-receipts.sales.v1", target: null, segment, params: {} }, ctx);
      expect(records.map((r) => ({ schema: "taxportal.cash-receipts.sales.v1", ...r }))).toEqual(documentsOf("2208162517", "taxportal.cash-receipts.sales.v1", segment));
    }
  });

  it.each([
    ["a wrong certificate password", "LOGIN_FAILED", "인증서 암호", { password: "cert-pass-1!" }, "other-pass"],
    ["a certificate of a business the portal has no account for", "CERT_NOT_REGISTERED_AT_PROVIDER", "등록되지 않은", { idn: NOT_A_MEMBER }, undefined],
    ["a key file without R, so the portal cannot tell whose it is", "CERT_NOT_REGISTERED_AT_PROVIDER", "등록되지 않은", { withoutRandomNum: true }, undefined],
    ["an expired certificate", "CERT_INVALID", "유효기간", { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }, undefined],
    ["a revoked certificate", "CERT_INVALID", "폐지된", { revoked: true }, undefined],
    ["a personal certificate", "CERT_INVALID", "사업자용 인증서가 아닙니다", { holder: "PERSONAL" }, undefined],
    ["an encryption-only certificate (kmCert)", "CERT_INVALID", "전자서명 검증에 실패", { usage: "encryption" }, undefined],
  ] as const)("maps %s to %s", async (_name, code, shown, options, password) => {
    const credential = (await certificate(options)) as Extract<LoginCredential, { authMethod: "CERTIFICATE" }>;
    const attempt = loggedIn(password ? { ...credential, password } : credential);
    await expect(attempt).rejects.toMatchObject({ code, message: expect.stringContaining(shown) });
  });

  it("maps a certificate from a CA the portal does not trust to CERT_INVALID", async () => {
    const outside = await makeOpensslJointCertificate("1208800767");
    const attempt = loggedIn({ authMethod: "CERTIFICATE", certificate: outside.certificate, privateKey: outside.privateKeys.seedCbcWithSha1, password: outside.password });
    await expect(attempt).rejects.toMatchObject({ code: "CERT_INVALID", message: expect.stringContaining("신뢰할 수 없는 인증기관") });
  });
});

describe("sandbox tax portal ID login in Chromium", () => {
  it("signs in by ID, password and resident prefix and reads the member business's documents exactly", async () => {
    for (const member of [taxUser, otherUser]) {
      const page = await loggedIn(idLogin(member), { ...ctx, businessNumber: member.businessNumber });
      const segment = { start: "2026-02-01", end: "2026-02-28" };
      const schema = "taxportal.tax-invoices.purchase.v1";
      const records = await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: 0, schema, target: null, segment, params: {} }, ctx);
      const truth = documentsOf(member.businessNumber, schema, segment);
      expect(truth.length).toBeGreaterThan(20);
      expect(records.map((r) => ({ schema, ...r }))).toEqual(truth);
    }
  });

  it("maps a wrong password to LOGIN_FAILED", async () => {
    await expect(loggedIn({ ...idLogin(taxUser), password: "pass_wrong" })).rejects.toMatchObject({ code: "LOGIN_FAILED", message: expect.stringContaining("아이디 또는 비밀번호") });
  });

  it("maps a login without the resident prefix to LOGIN_SECOND_FACTOR_REQUIRED", async () => {
    await expect(loggedIn(idLogin(taxUser, null))).rejects.toMatchObject({ code: "LOGIN_SECOND_FACTOR_REQUIRED", message: expect.stringContaining("주민등록번호 앞 7자리") });
  });

  it("maps a resident prefix that is not the member's to LOGIN_CREDENTIALS_MISMATCH", async () => {
    await expect(loggedIn(idLogin(taxUser, otherUser.residentPrefix))).rejects.toMatchObject({ code: "LOGIN_CREDENTIALS_MISMATCH", message: expect.stringContaining("회원정보와 일치하지") });
  });

  it("maps a portal account of another business than the workspace's to BUSINESS_NUMBER_MISMATCH", async () => {
    await expect(loggedIn(idLogin(taxUser), { ...ctx, businessNumber: otherUser.businessNumber })).rejects.toMatchObject({ code: "BUSINESS_NUMBER_MISMATCH", message: expect.stringContaining("120-88-00767") });
  });

  it("maps the portal's early-morning maintenance, by the sandbox's clock, to PROVIDER_TIME_WINDOW for either login", async () => {
    // 02:30 KST today: inside the 00:00-06:00 window whatever the real hour.
    const clock = clockFrom(`${kstDate()}T02:30:00+09:00`);
    const closed = await startSandbox({ port: 0, clock });
    try {
      const closedCtx = { ...ctx, baseUrl: `${closed.url}/taxportal/` };
      await expect(loggedIn(idLogin(taxUser), closedCtx)).rejects.toMatchObject({ code: "PROVIDER_TIME_WINDOW", message: expect.stringContaining("시스템 점검") });
      await expect(loggedIn(await certificate({ idn: "1208800767" }), closedCtx)).rejects.toMatchObject({ code: "PROVIDER_TIME_WINDOW" });
    } finally {
      await closed.close();
    }
  });

  it("opens again when the sandbox's clock is past the maintenance window", async () => {
    const open = await startSandbox({ port: 0, clock: clockFrom(`${kstDate()}T06:00:00+09:00`) });
    try {
      await expect(loggedIn(idLogin(taxUser), { ...ctx, baseUrl: `${open.url}/taxportal/`, businessNumber: taxUser.businessNumber })).resolves.toBeDefined();
    } finally {
      await open.close();
    }
  });
});
