import { certificateOf, NO_WAIT, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { beforeAll, describe, expect, it } from "vitest";
import type { TaskUnit } from "../adapter";
import { SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { BUSINESS_CHOICES, HOMETAX_MEMBERS, type MemberBehaviour } from "../../sandbox/hometax/members";
import type { SandboxServer } from "../../sandbox/server";
import type { DocumentType } from "../../sandbox/sandbox-taxportal/documents";
import { businessTin } from "./business-choice";
import type { HometaxOptions } from "./options";
import { readTable } from "./text-download";
import { degradedCounts } from "../kit/degraded-paths";
import { DOWNLOAD_FALLBACK } from "./invoice-download";

const QUARTER = { start: "2024-01-01", end: "2024-03-31" };
const LISTS = ["taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1", "taxportal.cash-receipts.sales.v1", "taxportal.cash-receipts.purchase.v1"] as const;
const KEYS: Record<string, string> = { "taxportal.tax-invoices.sales.v1": "ntsTransactionId", "taxportal.tax-invoices.purchase.v1": "ntsTransactionId", "taxportal.cash-receipts.sales.v1": "approvalNumber", "taxportal.cash-receipts.purchase.v1": "approvalNumber" };

const replicaWith = replicaStarter();
let replica: SandboxServer;

beforeAll(async () => {
  replica = await replicaWith();
});

const truth = (businessNumber: string, schema: DocumentType, range = QUARTER) => hometaxDocuments(businessNumber, schema, range);
const byKey = (schema: string, rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a[KEYS[schema]!]).localeCompare(String(b[KEYS[schema]!])));

/** The real adapter logged in to a replica as a member, the URLs it called, and a unit collector. */
async function loggedIn(sandbox: SandboxServer, businessNumber: string, options: Partial<HometaxOptions> = {}) {
  const sent: string[] = [];
  const { adapter, http } = replicaConnection(sandbox, options, NO_WAIT, (input, init) => (sent.push(String(input)), fetch(input, init)));
  const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber };
  const session = await adapter.login(http, await certificateOf(businessNumber), ctx);
  const unit = (schema: string, range = QUARTER): TaskUnit => ({ jobId: "job", unitIndex: 0, schema, target: null, segment: range, params: {} });
  return { sent, collect: (schema: string, range = QUARTER) => adapter.collect(session, unit(schema, range), ctx) as Promise<Record<string, unknown>[]> };
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => "no failure", (err: { code?: string; message?: string }) => `${err.code}: ${err.message}`);
const memberWith = (behaviour: MemberBehaviour) => HOMETAX_MEMBERS.find((m) => m.behaviour === behaviour)!.businessNumber;
/** Download forms go to the site's bare wqAction.do (S1); JSON actions carry their actionId in the query. */
const downloads = (sent: string[], site: string) => sent.filter((u) => u.endsWith(`/${site}/wqAction.do`));

describe("Hometax lists one can trust", () => {
  it("gives exempt and amended invoices and cancelled receipts as the ground truth has them, the sales by download and the invoices checked against theirs", async () => {
    const { collect, sent } = await loggedIn(replica, SANDBOX_BUSINESS_NUMBER);
    for (const schema of LISTS) expect(byKey(schema, await collect(schema)), schema).toEqual(byKey(schema, truth(SANDBOX_BUSINESS_NUMBER, schema)));
    const invoices = [...truth(SANDBOX_BUSINESS_NUMBER, LISTS[0]), ...truth(SANDBOX_BUSINESS_NUMBER, LISTS[1])];
    const exempt = invoices.filter((r) => r.invoiceKind === "전자계산서");
    expect(exempt.length).toBeGreaterThan(10);
    for (const r of exempt) expect([r.taxAmount, r.itemTaxAmount, r.totalAmount]).toEqual([0, null, r.supplyAmount]);
    const amended = invoices.filter((r) => r.invoiceClassification === "수정");
    expect(amended.length).toBeGreaterThan(10);
    for (const r of amended) expect(r.remark).toMatch(/\[수정사유 0[1245] [^,]+, 당초승인번호 \d{8}41\d{12}cd\]$/);
    const receipts = [...truth(SANDBOX_BUSINESS_NUMBER, LISTS[2]), ...truth(SANDBOX_BUSINESS_NUMBER, LISTS[3])];
    const cancellations = receipts.filter((r) => r.transactionType === "취소거래");
    expect(cancellations.length).toBeGreaterThan(10);
    for (const r of cancellations) expect(r.totalAmount as number).toBeLessThan(0);
    // Invoices: one download per kind and side that has rows; sales: one download page.
    expect(downloads(sent, "teet.hometax.go.kr").length).toBe(4);
    expect(downloads(sent, "tecr.hometax.go.kr").length).toBe(1);
  });

  it("reads the same sales from the JSON pages when told to, and skips the invoice download check when told to", async () => {
    const { collect, sent } = await loggedIn(replica, SANDBOX_BUSINESS_NUMBER, { cashReceiptSalesList: "pages", invoiceDownloadCheck: false });
    for (const schema of LISTS) expect(byKey(schema, await collect(schema)), schema).toEqual(byKey(schema, truth(SANDBOX_BUSINESS_NUMBER, schema)));
    expect(downloads(sent, "teet.hometax.go.kr")).toEqual([]);
    expect(downloads(sent, "tecr.hometax.go.kr")).toEqual([]);
  });

  it("reads the invoices from their JSON pages alone when the download is refused or unreadable, counting each list it did so for", async () => {
    for (const behaviour of ["download-refused", "download-changed"] as const) {
      const before = degradedCounts()[DOWNLOAD_FALLBACK] ?? 0;
      const { collect, sent } = await loggedIn(replica, memberWith(behaviour));
      for (const schema of LISTS.slice(0, 2)) expect(byKey(schema, await collect(schema)), `${behaviour} ${schema}`).toEqual(byKey(schema, truth(memberWith(behaviour), schema)));
      const asked = downloads(sent, "teet.hometax.go.kr").length;
      expect(asked).toBeGreaterThan(0);
      expect((degradedCounts()[DOWNLOAD_FALLBACK] ?? 0) - before, behaviour).toBe(asked);
    }
  });

  it("never negates a cancellation twice: a portal sending cancellations negative gives the same records", async () => {
    const negative = await replicaWith({ negativeCancellations: true });
    for (const options of [{}, { cashReceiptSalesList: "pages" as const }]) {
      const { collect } = await loggedIn(negative, SANDBOX_BUSINESS_NUMBER, options);
      for (const schema of LISTS.slice(2)) expect(byKey(schema, await collect(schema)), schema).toEqual(byKey(schema, truth(SANDBOX_BUSINESS_NUMBER, schema)));
    }
  });

  it("fails the unit as malformed, never with duplicate or missing records, when the list moves between pages", async () => {
    const purchases = "taxportal.cash-receipts.purchase.v1";
    for (const behaviour of ["repeated-page", "count-changes", "duplicate-approval"] as const) {
      expect(truth(memberWith(behaviour), purchases).length, behaviour).toBeGreaterThan(50);
    }
    const outcome = async (behaviour: MemberBehaviour, schema: string, options: Partial<HometaxOptions> = {}, range = QUARTER) => failureOf((await loggedIn(replica, memberWith(behaviour), options)).collect(schema, range));
    expect(await outcome("repeated-page", purchases)).toMatch(/^PROVIDER_RESPONSE_MALFORMED: cshTrsBrkdInqrDVOList: approval number \d+ on page 2 was already on page 1/);
    expect(await outcome("count-changes", purchases)).toMatch(/^PROVIDER_RESPONSE_MALFORMED: cshTrsBrkdInqrDVOList: totalCount changed from \d+ to \d+ at page 2/);
    expect(await outcome("duplicate-approval", purchases)).toMatch(/^PROVIDER_RESPONSE_MALFORMED: .*was already on page 1/);
    expect(await outcome("duplicate-approval", "taxportal.tax-invoices.sales.v1", { invoiceDownloadCheck: false })).toMatch(/^PROVIDER_RESPONSE_MALFORMED: etxivIsnBrkdTermDVOList: approval number \w+ on page 1 was already on page 1/);
    expect(await outcome("duplicate-approval", "taxportal.cash-receipts.sales.v1")).toMatch(/^PROVIDER_RESPONSE_MALFORMED: ATECRCBA001R03 download: approval number/);
    // The download holds one row less than the plain call counted: a list that moved between the two.
    expect(await outcome("count-changes", "taxportal.cash-receipts.sales.v1")).toMatch(/^PROVIDER_RESPONSE_MALFORMED: ATECRCBA001R03 download: page 1 holds \d+ rows/);
    // One month: a single JSON page per kind, so only the download can tell.
    expect(await outcome("count-changes", "taxportal.tax-invoices.purchase.v1", {}, { start: "2024-01-01", end: "2024-01-31" })).toMatch(/^PROVIDER_RESPONSE_MALFORMED: ATEETBDA005R04 download: page 1 holds \d+ rows/);
  });

  it("refuses a sales download whose header is not the layout the sources show", async () => {
    const columns = ["매출일시", "승인번호", "거래구분", "발행구분", "공급가액", "부가세", "봉사료", "총금액", "비고", "신분확인뒷4자리"];
    for (const changed of [columns.slice(0, -1), [...columns, "가맹점명"], columns.map((c) => (c === "총금액" ? "합계금액" : c))]) {
      const sandbox = await replicaWith({ downloadColumns: changed });
      const { collect } = await loggedIn(sandbox, SANDBOX_BUSINESS_NUMBER);
      expect(await failureOf(collect("taxportal.cash-receipts.sales.v1"))).toMatch(/^PROVIDER_RESPONSE_MALFORMED: ATECRCBA001R03 download: download header/);
    }
  });

  it("reads a download table strictly: its header lines, then rows as wide as the header", () => {
    const table = "요약\r\n승인번호\t전송일자\r\n20240101-1\t2024-01-02\r\n";
    expect(readTable(table, 1, { atLeast: ["승인번호", "전송일자"] }, "t")).toEqual([{ 승인번호: "20240101-1", 전송일자: "2024-01-02" }]);
    expect(() => readTable(`${table}20240101-2\n`, 1, { atLeast: ["승인번호", "전송일자"] }, "t")).toThrow(/has 1 cells/);
    expect(() => readTable(table, 1, { exactly: ["승인번호"] }, "t")).toThrow(/not the known layout/);
    expect(() => readTable("요약\r\n", 1, { exactly: ["승인번호"] }, "t")).toThrow(/without its 2 header lines/);
  });

  it("queries the business the portal script's rule chooses, and refuses a login with no business chosen", async () => {
    const [switched, several, transferred, none] = BUSINESS_CHOICES;
    for (const member of [switched!, several!, transferred!]) {
      const { collect } = await loggedIn(replica, member.businessNumber);
      for (const schema of [LISTS[0], LISTS[2]]) {
        const expected = truth(member.businessNumber, schema);
        expect(expected.length, member.userId).toBeGreaterThan(0);
        expect(byKey(schema, await collect(schema)), `${member.userId} ${schema}`).toEqual(byKey(schema, expected));
      }
    }
    const { collect } = await loggedIn(replica, none!.businessNumber);
    expect(await failureOf(collect(LISTS[1]))).toMatch(/^BUSINESS_NUMBER_MISMATCH/);
    expect(await failureOf(collect(LISTS[3]))).toMatch(/^BUSINESS_NUMBER_MISMATCH/);
  });

  it("applies the rule's every branch (sheet A5, S3 invoices.py)", () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ tin: "T", cnvrTin: "T", userClsfCd: "02" }, "T"],
      [{ tin: "P", cnvrTin: "B", userClsfCd: "01" }, "B"],
      [{ tin: "T", cnvrTin: "T", haboInqrStat: "N", userClsfCd: "02" }, "T"],
      [{ tin: "A", cnvrTin: "B", txfrBmanLgnYn: "Y", userClsfCd: "02" }, "A"],
      [{ tin: "P", cnvrTin: "P", userClsfCd: "01" }, "BUSINESS_NUMBER_MISMATCH"],
      [{ tin: "P", cnvrTin: "", userClsfCd: "02" }, "BUSINESS_NUMBER_MISMATCH"],
      [{ tin: "P", userClsfCd: "02" }, "BUSINESS_NUMBER_MISMATCH"],
      [{ tin: "P", cnvrTin: "B", txfrBmanLgnYn: "Y", userClsfCd: "01" }, "BUSINESS_NUMBER_MISMATCH"],
    ];
    for (const [sessionMap, expected] of cases) {
      let got: string;
      try {
        got = businessTin(sessionMap);
      } catch (err) {
        got = (err as { code: string }).code;
      }
      expect(got, JSON.stringify(sessionMap)).toBe(expected);
    }
  });
});
