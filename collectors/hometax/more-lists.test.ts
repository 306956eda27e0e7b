import { certificateOf, NO_WAIT, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { beforeAll, describe, expect, it } from "vitest";
import { groupBy } from "../../test/support/group-by";
import type { LoginCredential, TaskUnit } from "../adapter";
import { BusinessCardPurchaseRecord, TaxInvoiceLineRecord } from "../../contracts/records/taxportal";
import { SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import type { SandboxServer } from "../../sandbox/server";

type Json = Record<string, any>;
const LINES = "taxportal.tax-invoice-lines.v1";
const CARDS = "taxportal.business-card-purchases.v1";
const HALF_YEAR = { start: "2024-01-01", end: "2024-06-30" };
const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };

let replica: SandboxServer;
let credential: LoginCredential;

const replicaWith = replicaStarter();

beforeAll(async () => {
  replica = await replicaWith();
  credential = await certificateOf(SANDBOX_BUSINESS_NUMBER);
});

/**
 * The real adapter, logged in to the replica; `alter` changes the JSON answer of one action on its way back, as a
 * portal answering inconsistently would.
 */
async function loggedIn(alter?: { actionId: string; change: (answer: Json) => void }) {
  const { adapter, http } = replicaConnection(replica, {}, NO_WAIT, async (input, init) => {
    const answer = await fetch(input, init);
    if (!alter || !String(input).includes(`actionId=${alter.actionId}`)) return answer;
    const json = (await answer.json()) as Json;
    alter.change(json);
    return new Response(JSON.stringify(json), { status: answer.status, headers: answer.headers });
  });
  const session = await adapter.login(http, credential, ctx);
  return (schema: string, period = HALF_YEAR) => adapter.collect(session, { jobId: "job", unitIndex: 0, schema, target: null, segment: period, params: {} } as TaskUnit, ctx);
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => "no failure", (err: { code?: string }) => err.code ?? String(err));
const sorted = (records: Json[], key: (r: Json) => string) => [...records].sort((a, b) => key(a).localeCompare(key(b)));

describe("Hometax invoice lines and business-card purchases against the replica", () => {
  it("reads every invoice's lines from its detail, over two 3-month windows, equal to the replica's ground truth and adding up to each invoice", async () => {
    const records = (await (await loggedIn())(LINES)) as Json[];
    const truth = hometaxDocuments(SANDBOX_BUSINESS_NUMBER, LINES, HALF_YEAR) as Json[];
    const lineKey = (r: Json) => `${r.approvalNumber}:${String(r.lineNumber).padStart(3, "0")}`;
    expect(sorted(records, lineKey)).toEqual(sorted(truth, lineKey));
    for (const r of records) TaxInvoiceLineRecord.parse(r);
    // The ground truth has what the test is about: invoices of several lines, fractional quantities and unit prices, both sides.
    const invoices = [...hometaxDocuments(SANDBOX_BUSINESS_NUMBER, "taxportal.tax-invoices.sales.v1", HALF_YEAR), ...hometaxDocuments(SANDBOX_BUSINESS_NUMBER, "taxportal.tax-invoices.purchase.v1", HALF_YEAR)] as Json[];
    expect(invoices.length).toBeGreaterThan(200);
    const byInvoice = groupBy(records, (r) => r.approvalNumber as string);
    expect(byInvoice.size).toBe(invoices.length);
    expect([...byInvoice.values()].filter((lines) => lines.length > 1).length).toBeGreaterThan(50);
    expect(records.some((r) => typeof r.quantity === "number" && !Number.isInteger(r.quantity))).toBe(true);
    expect(new Set(records.map((r) => r.side))).toEqual(new Set(["SALES", "PURCHASE"]));
    for (const invoice of invoices) {
      const lines = byInvoice.get(invoice.ntsTransactionId)!;
      expect(lines.reduce((sum, l) => sum + l.supplyAmount, 0), invoice.ntsTransactionId).toBe(invoice.supplyAmount);
      expect(lines.reduce((sum, l) => sum + (l.taxAmount ?? 0), 0), invoice.ntsTransactionId).toBe(invoice.taxAmount);
      // The invoice records keep the first line's fields, as the spec defines them.
      expect(lines.find((l) => l.lineNumber === 1)).toMatchObject({ itemName: invoice.itemName, supplyAmount: invoice.itemSupplyAmount, quantity: invoice.itemQuantity, unitPrice: invoice.itemUnitPrice });
    }
  });

  it("answers PROVIDER_RESPONSE_MALFORMED when an invoice's lines do not add up to its totals, or hold a fraction of a won", async () => {
    const shifted = await loggedIn({ actionId: "ATEETBDA001R02", change: (answer) => (answer.lsatInfrBizSVOList[0].lsatSplCft = String(Number(answer.lsatInfrBizSVOList[0].lsatSplCft) + 10)) });
    expect(await failureOf(shifted(LINES, { start: "2024-03-01", end: "2024-03-31" }))).toBe("PROVIDER_RESPONSE_MALFORMED");
    const fractional = await loggedIn({ actionId: "ATEETBDA001R02", change: (answer) => (answer.lsatInfrBizSVOList[0].lsatSplCft = `${answer.lsatInfrBizSVOList[0].lsatSplCft}.5`) });
    expect(await failureOf(fractional(LINES, { start: "2024-03-01", end: "2024-03-31" }))).toBe("PROVIDER_RESPONSE_MALFORMED");
    // The same answers untouched are read whole.
    expect(await (await loggedIn())(LINES, { start: "2024-03-01", end: "2024-03-31" })).toHaveLength(hometaxDocuments(SANDBOX_BUSINESS_NUMBER, LINES, { start: "2024-03-01", end: "2024-03-31" }).length);
  });

  it("reads business-card purchases page by page equal to the ground truth, a resident number in the merchant's number field read as none", async () => {
    const records = (await (await loggedIn())(CARDS)) as Json[];
    const truth = hometaxDocuments(SANDBOX_BUSINESS_NUMBER, CARDS, HALF_YEAR) as Json[];
    expect(truth.length).toBeGreaterThan(100);
    const key = (r: Json) => r.transactionIdentifier as string;
    expect(sorted(records, key)).toEqual(sorted(truth, key));
    for (const r of records) {
      BusinessCardPurchaseRecord.parse(r);
      expect(r.supplyAmount + r.taxAmount + (r.tip ?? 0)).toBe(r.totalAmount);
    }
    // The replica sends `800101-1******` where the ground truth has no business number (sheet A4's format gate).
    expect(records.filter((r) => r.merchantBusinessIdentifier === null).length).toBeGreaterThan(0);
    expect(records.filter((r) => r.tip !== null).length).toBeGreaterThan(0);
  });

  it("answers PROVIDER_RESPONSE_MALFORMED when a card row's supply, VAT and tip are not its total", async () => {
    const period = { start: "2024-02-01", end: "2024-02-29" };
    const tipped = await loggedIn({ actionId: "ATECRCCA001R06", change: (answer) => (answer.busnCrdcTrsBrkdAdmDVOList[0].tip = String(Number(answer.busnCrdcTrsBrkdAdmDVOList[0].tip || 0) + 100)) });
    expect(await failureOf(tipped(CARDS, period))).toBe("PROVIDER_RESPONSE_MALFORMED");
    const untotalled = await loggedIn({ actionId: "ATECRCCA001R06", change: (answer) => (answer.busnCrdcTrsBrkdAdmDVOList.at(-1).totaTrsAmt = "1") });
    expect(await failureOf(untotalled(CARDS, period))).toBe("PROVIDER_RESPONSE_MALFORMED");
    expect(await (await loggedIn())(CARDS, period)).toEqual(hometaxDocuments(SANDBOX_BUSINESS_NUMBER, CARDS, period));
  });
});
