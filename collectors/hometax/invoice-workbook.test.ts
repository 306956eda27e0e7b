import CFB from "cfb";
import { certificateOf, NO_WAIT, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { beforeAll, describe, expect, it } from "vitest";
import type { TaskUnit } from "../../contracts/task-unit";
import { SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import type { SandboxServer } from "../../sandbox/server";
import { degradedCounts } from "../kit/degraded-paths";
import { DOWNLOAD_FALLBACK } from "./invoice-download";
import type { HometaxOptions } from "./options";

type Json = Record<string, unknown>;
const QUARTER = { start: "2024-01-01", end: "2024-03-31" };
const SIDES = ["taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1"] as const;
const LINES = "taxportal.tax-invoice-lines.v1";

const replicaWith = replicaStarter();
let replica: SandboxServer;

beforeAll(async () => {
  replica = await replicaWith();
});

interface Sent {
  url: string;
  body: string;
}

/** The real adapter against the replica; `spoil` may change a workbook on its way back, as a portal sending another file would. */
async function collect(schema: string, options: Partial<HometaxOptions> = {}, spoil?: (file: Uint8Array) => Uint8Array<ArrayBuffer>) {
  const sent: Sent[] = [];
  const { adapter, http } = replicaConnection(replica, options, NO_WAIT, async (input, init) => {
    sent.push({ url: String(input), body: String(init?.body ?? "") });
    const answer = await fetch(input, init);
    if (!spoil || answer.headers.get("content-type") !== "application/vnd.ms-excel") return answer;
    return new Response(spoil(new Uint8Array(await answer.arrayBuffer())), { status: answer.status, headers: answer.headers });
  });
  const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
  const session = await adapter.login(http, await certificateOf(SANDBOX_BUSINESS_NUMBER), ctx);
  const unit: TaskUnit = { jobId: "job", unitIndex: 0, schema, target: null, segment: QUARTER, params: {} };
  const records = (await adapter.collect(session, unit, ctx)) as Json[];
  const teet = sent.filter((s) => s.url.includes("/teet.hometax.go.kr/"));
  return {
    records,
    pages: teet.filter((s) => s.url.includes("actionId=ATEETBDA001R01")).length,
    downloads: teet.filter((s) => s.url.endsWith("/teet.hometax.go.kr/wqAction.do")),
    details: teet.filter((s) => s.url.includes("actionId=ATEETBDA001R02")).map((s) => /"etan":"(\w+)"/.exec(s.body)![1]),
  };
}

const truth = (schema: string) => hometaxDocuments(SANDBOX_BUSINESS_NUMBER, schema as (typeof SIDES)[number], QUARTER) as Json[];
const byKey = (rows: Json[], key: (r: Json) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
const invoiceKey = (r: Json) => String(r.ntsTransactionId);
const amendedOf = (rows: Json[]) => rows.filter((r) => r.invoiceClassification === "수정").map(invoiceKey).sort();

describe("Hometax invoices from the Excel download (docs/institutions/hometax.md §11.2b)", () => {
  it("reads a quarter's invoices from the workbook with a detail only for each amended one: a few requests, not one per invoice", async () => {
    for (const schema of SIDES) {
      const expected = truth(schema);
      expect(expected.length, schema).toBeGreaterThan(50);
      const xls = await collect(schema);
      expect(byKey(xls.records, invoiceKey), schema).toEqual(byKey(expected, invoiceKey));
      // Amended invoices get their detail, for the reason and the original approval number no sheet has.
      expect(amendedOf(expected).length, schema).toBeGreaterThan(0);
      expect([...xls.details].sort(), schema).toEqual(amendedOf(expected));
      // One workbook page per kind (전자세금계산서, 전자계산서) of the quarter's one query window.
      expect(xls.downloads.map((d) => new URLSearchParams(d.body).get("downloadParam")).map((p) => JSON.parse(p!).fleTp), schema).toEqual(["xls", "xls"]);
      const perInvoice = await collect(schema, { invoiceDownload: "txt" });
      expect(byKey(perInvoice.records, invoiceKey), schema).toEqual(byKey(expected, invoiceKey));
      expect(perInvoice.details, schema).toHaveLength(expected.length);
      // The same JSON pages either way; the details of every invoice not amended are the requests saved.
      expect(xls.pages, schema).toBe(perInvoice.pages);
      expect(xls.pages + xls.downloads.length + xls.details.length, schema).toBe(perInvoice.pages + perInvoice.downloads.length + perInvoice.details.length - (expected.length - amendedOf(expected).length));
    }
  });

  it("reads every line of both sides from the 품목 sheets, equal to the ground truth", async () => {
    const lines = await collect(LINES);
    const key = (r: Json) => `${r.approvalNumber}:${String(r.lineNumber).padStart(3, "0")}`;
    expect(byKey(lines.records, key)).toEqual(byKey(hometaxDocuments(SANDBOX_BUSINESS_NUMBER, LINES, QUARTER) as Json[], key));
    expect([...lines.details].sort()).toEqual([...amendedOf(truth(SIDES[0])), ...amendedOf(truth(SIDES[1]))].sort());
  });

  it("asks a detail per invoice when a workbook cannot be read, counting the road for operators, with the same records", async () => {
    // Half a file (no compound file), and a whole container whose workbook stream ends inside a record.
    const cutStream = (file: Uint8Array) => {
      const container = CFB.read(file, { type: "buffer" });
      const stream = CFB.find(container, "Workbook")!.content as Uint8Array;
      CFB.utils.cfb_del(container, "Workbook");
      CFB.utils.cfb_add(container, "Workbook", stream.slice(0, (stream.length >> 1) + 3));
      return new Uint8Array(CFB.write(container, { type: "buffer" }) as Uint8Array);
    };
    for (const spoil of [(file: Uint8Array) => file.slice(0, file.length >> 1), cutStream]) {
      const before = degradedCounts()[DOWNLOAD_FALLBACK] ?? 0;
      const spoiled = await collect(SIDES[0], {}, spoil);
      expect(byKey(spoiled.records, invoiceKey)).toEqual(byKey(truth(SIDES[0]), invoiceKey));
      expect(spoiled.details).toHaveLength(truth(SIDES[0]).length);
      expect((degradedCounts()[DOWNLOAD_FALLBACK] ?? 0) - before).toBe(spoiled.downloads.length);
    }
  });
});
