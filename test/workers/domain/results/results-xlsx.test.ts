import { env } from "cloudflare:workers";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../support/parse-csv";
import { readXlsx, serialTime, type XlsxCell } from "../../../support/read-xlsx";
import { finishedUnits } from "../../../../worker/domain/jobs/results-rows";
import { storeUnitResults } from "../../../../worker/domain/results/unit-results";
import { xlsxResults } from "../../../../worker/domain/results/xlsx-export";
import { BankTransactionRecord } from "../../../../contracts/records/bank";
import { CardApprovalRecord } from "../../../../contracts/records/card";
import { BusinessStatusRecord } from "../../../../contracts/records/business";
import { call, callJson, createWorkspace, jobWithUnits, bankTransaction as tx } from "../../../support/workers/helpers";
import { finishedJob } from "../../../support/workers/results-retention-helpers";
import { ConsoleBrowser } from "../../../support/workers/console-browser";
import { resolve, servedDocument } from "../../../support/workers/openapi-document";

type Json = Record<string, any>;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const csvRowsOf = async (response: Response) => parseCsv(new TextDecoder().decode((await bytesOf(response)).slice(3)));
const values = (row: (XlsxCell | null)[]) => row.map((cell) => cell?.value ?? "");

/** A unit's records stored as the pipeline stores them, for a job id of the test's own: the export reads only R2. */
async function storedUnits(record: z.ZodObject, units: Record<string, unknown>[][]) {
  const jobId = crypto.randomUUID();
  const finished = await storeUnitResults(env.RESULTS, jobId, record, units.map((records, unitIndex) => ({ unitIndex, records })));
  return { jobId, finished, count: units.flat().length };
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).arrayBuffer().then((b) => readXlsx(new Uint8Array(b)));

describe("results.xlsx", () => {
  it("serves a running job's finished units as a workbook: the CSV's headers, identifiers as text, amounts as numbers, times as dates", async () => {
    const first = { ...tx("0123456789", "급여", -1_250_000), accountNumber: "10020030040050", accountNumberFormatted: "100-200-300-40050" };
    const nasty = ["=HYPERLINK(\"x\")", "a & b <c>", "  앞뒤 공백 ", "줄\n바꿈\r\n둘째", "제어\u0001문자", "_x0041_ 그대로", "0012"];
    const units = [[first, ...nasty.map((d, i) => tx(`id${i}`, d, i))], [tx("never", "끝나지 않은 단위", 1)], [tx("last", null, 0.5)]];
    const { ws, jobId } = await jobWithUnits(units, [0, 2]);

    const response = await call(`/api/v1/data-jobs/${jobId}/results.xlsx`, { key: ws.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe(XLSX);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="bank.transactions.cb.v1-${jobId}.xlsx"`);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    expect(response.headers.get("X-Data-Job-Kind")).toBe("InProgress");
    expect(response.headers.get("X-Total-Count")).toBe("9");
    const book = readXlsx(await bytesOf(response));
    expect(book.sheetNames).toEqual(["결과"]);
    const [header, ...rows] = book.sheets[0]!;

    const csv = await csvRowsOf(await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey }));
    expect(values(header!)).toEqual(csv[0]);
    // Partial, as the CSV: the finished units only, in unit order.
    expect(rows.map((row) => row[8]!.value)).toEqual(["0123456789", ...nasty.map((_, i) => `id${i}`), "last"]);

    const row = rows[0]!;
    expect(row[1]).toEqual({ type: "inlineStr", format: "@", value: "10020030040050" });
    expect(row[8]).toEqual({ type: "inlineStr", format: "@", value: "0123456789" });
    expect(row[4]).toEqual({ type: "n", format: "General", value: "-1250000" });
    expect(rows.at(-1)![4]!.value).toBe("0.5");
    expect(row[9]!.type).toBe("n");
    expect(row[9]!.format).toBe("yyyy-mm-dd hh:mm:ss");
    // 2026-01-05T10:00:00+09:00, shown as the Korean wall-clock time it was.
    expect(serialTime(Number(row[9]!.value))).toBe("2026-01-05T10:00:00");
    // Text is text exactly, never a formula (no quote added as the CSV's), whatever characters it holds.
    expect(rows.slice(1, 1 + nasty.length).map((r) => r[7]!.value)).toEqual(nasty);
    expect(rows.slice(1, 1 + nasty.length).every((r) => r[7]!.type === "inlineStr")).toBe(true);
    // An empty value is an empty cell.
    expect(rows.at(-1)![7]).toBeNull();
  });

  it("keeps a card approval number's leading 0, writes an amount as a number, a flag as a boolean and a date as a date", async () => {
    const approval = {
      schema: "card.approvals.corp.v1", approvalNumber: "01234567", approvedAt: "2026-02-28T23:30:00+09:00", cardNumberMasked: "1234-****-****-5678",
      installmentMonths: null, lifecycleStage: "CAPTURED", merchantAddress: null, merchantBusinessIdentifier: "0123456789", merchantBusinessType: null,
      merchantContactNumber: "02-123-4567", merchantName: "가맹점", merchantRepresentativeName: null, originalAmount: null, originalCurrencyCode: null,
      overseas: false, paymentMethod: "SINGLE_PAYMENT", settledAmount: 108900, settledCurrencyCode: "KRW", status: "APPROVED", taxAmount: 9900, transactionIdentifier: "000111",
    };
    const cards = await storedUnits(CardApprovalRecord, [[approval]]);
    const [header, row] = (await read(xlsxResults(env.RESULTS, cards.jobId, CardApprovalRecord, cards.finished, cards.count))).sheets[0]!;
    const at = (label: string) => row![values(header!).indexOf(label)];
    expect(at("승인번호")).toEqual({ type: "inlineStr", format: "@", value: "01234567" });
    expect(at("거래식별자")!.value).toBe("000111");
    expect(at("승인금액")).toEqual({ type: "n", format: "General", value: "108900" });
    expect(at("부가세")!.value).toBe("9900");
    expect(at("해외여부")).toEqual({ type: "b", format: "General", value: "0" });
    expect(serialTime(Number(at("승인일시")!.value))).toBe("2026-02-28T23:30:00");

    const status = { schema: "business.status.v1", businessNumber: "0123456789", registered: true, status: "폐업자", statusCode: "03", taxType: null, taxTypeCode: null, closureDate: "2025-12-31", unitTaxationClosure: null, taxTypeChangeDate: null, invoiceApplyDate: null, previousTaxType: null, previousTaxTypeCode: null };
    const statuses = await storedUnits(BusinessStatusRecord, [[status]]);
    const [statusHeader, statusRow] = (await read(xlsxResults(env.RESULTS, statuses.jobId, BusinessStatusRecord, statuses.finished, 1))).sheets[0]!;
    const closure = statusRow![values(statusHeader!).indexOf("폐업일자")]!;
    expect(closure.format).toBe("yyyy-mm-dd");
    expect(serialTime(Number(closure.value))).toBe("2025-12-31T00:00:00");
    expect(statusRow![values(statusHeader!).indexOf("국세청등록여부")]).toMatchObject({ type: "b", value: "1" });
  });

  it("goes on in the next sheet past a sheet's rows, each sheet with the header", async () => {
    const stored = await storedUnits(BankTransactionRecord, [[tx("a", null, 1), tx("b", null, 2), tx("c", null, 3)], [tx("d", null, 4), tx("e", null, 5)]]);
    const book = await read(xlsxResults(env.RESULTS, stored.jobId, BankTransactionRecord, stored.finished, stored.count, 2));
    expect(book.sheetNames).toEqual(["결과", "결과 2", "결과 3"]);
    expect(book.sheets.map((sheet) => sheet.slice(1).map((row) => row[8]!.value))).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(new Set(book.sheets.map((sheet) => values(sheet[0]!).join()))).toEqual(new Set([values(book.sheets[0]![0]!).join()]));
  });

  it("streams a large job with memory bounded: R2 is read only as fast as the client takes the workbook", async () => {
    const description = "관리비 정산 ".repeat(20);
    const units = Array.from({ length: 4 }, (_, u) => Array.from({ length: 5000 }, (_, i) => tx(`u${u}-${i}`, `${description}${i}`, i)));
    const { jobId } = await jobWithUnits(units, [0, 1, 2, 3]);
    const { units: finished, recordCount } = await finishedUnits(env.DB, jobId);
    let pulled = 0;
    const counting = {
      get: async (key: string, options?: R2GetOptions) => {
        const object = await env.RESULTS.get(key, options);
        if (!object) return null;
        const counted = object.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, out) => ((pulled += chunk.byteLength), out.enqueue(chunk)) }));
        return { body: counted } as unknown as R2ObjectBody;
      },
    } as Pick<R2Bucket, "get">;
    const stored = finished.reduce((sum, unit) => sum + (unit.jsonEnd! - unit.jsonOffset), 0);
    expect(stored).toBeGreaterThan(8 * 1024 * 1024);

    const reader = xlsxResults(counting, jobId, BankTransactionRecord, finished, recordCount).getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    // A client that takes nothing more: the export waits for it, holding a few chunks, not the job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pulledWhileWaiting = pulled;
    expect(pulledWhileWaiting).toBeLessThan(2 * 1024 * 1024);
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(pulled).toBeGreaterThanOrEqual(stored);
    const book = readXlsx(new Uint8Array(await new Blob(chunks).arrayBuffer()));
    expect(book.sheets[0]!.length).toBe(20_001);
    expect(book.sheets[0]!.at(-1)![8]!.value).toBe("u3-4999");
  });

  it("is refused as results.csv is: another workspace's job 404, deleted results 410", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const stranger = await createWorkspace();
    const foreign = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results.xlsx`, { key: stranger.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("DATA_JOB_NOT_FOUND");
    expect((await call(`/api/v1/data-jobs/${jobId}/results.xlsx`, { key: ws.apiKey })).headers.get("X-Data-Job-Kind")).toBe("Succeeded");
    expect((await call(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey })).status).toBe(200);
    const gone = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results.xlsx`, { key: ws.apiKey });
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe("DATA_JOB_RESULTS_DELETED");
  });

  it("is what a download link made with format xlsx serves; a link without a format still serves the CSV's bytes", async () => {
    const { ws, jobId } = await jobWithUnits([[tx("0042", "급여", 10)]], [0]);
    const made = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: { format: "xlsx" } });
    expect(made.status).toBe(201);
    const linked = await call(new URL(made.body.url).pathname);
    expect(linked.headers.get("Content-Type")).toBe(XLSX);
    expect(linked.headers.get("Content-Disposition")).toBe(`attachment; filename="bank.transactions.cb.v1-${jobId}.xlsx"`);
    expect(linked.headers.get("Cache-Control")).toBe("no-store, private");
    expect(readXlsx(await bytesOf(linked)).sheets[0]![1]![8]).toEqual({ type: "inlineStr", format: "@", value: "0042" });

    const plain = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: {} });
    const csvLink = await call(new URL(plain.body.url).pathname);
    expect(csvLink.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");
    expect(await bytesOf(csvLink)).toEqual(await bytesOf(await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })));

    const bad = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: { format: "xls" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_PARAM_FORMAT");
    expect(bad.body.fieldErrors[0].field).toBe("body.format");
  });

  it("has its button beside the CSV's on the console's job page, downloading the same rows", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const jobId = await finishedJob({ workspaceId });
    const page = await browser.open(`/console/w/${workspaceId}/jobs/${jobId}`);
    const href = /<a id="xlsx-download" href="([^"]+)"[^>]*>\s*Excel 내려받기\s*<\/a>/.exec(page.html)?.[1];
    expect(href).toBe(`/console/w/${workspaceId}/jobs/${jobId}/results.xlsx`);
    expect(page.html.indexOf('id="csv-download"')).toBeLessThan(page.html.indexOf('id="xlsx-download"'));
    const file = await browser.request(href!);
    expect(file.headers.get("Content-Type")).toBe(XLSX);
    const csv = await csvRowsOf(await browser.request(`/console/w/${workspaceId}/jobs/${jobId}/results.csv`));
    expect(readXlsx(await bytesOf(file)).sheets[0]!.map((row) => values(row).slice(0, 4))).toEqual(csv.map((row) => row.slice(0, 4)));

    const stranger = new ConsoleBrowser();
    await stranger.signUp();
    expect((await stranger.open(href!)).status).toBe(403);
  });

  it("is in the OpenAPI document beside results.csv, with the CSV's headers, and download links take a format", async () => {
    const doc = await servedDocument();
    const xlsx = doc.paths["/api/v1/data-jobs/{id}/results.xlsx"]!.get! as Json;
    const csv = doc.paths["/api/v1/data-jobs/{id}/results.csv"]!.get! as Json;
    expect(xlsx.operationId).toBe("getDataJobResultsXlsx");
    expect(Object.keys(xlsx.responses["200"].content)).toEqual([XLSX]);
    expect(Object.keys(xlsx.responses["200"].headers).sort()).toEqual(Object.keys(csv.responses["200"].headers).sort());
    expect(xlsx.responses["200"].headers["Cache-Control"].schema.enum).toEqual(["no-store, private"]);
    expect(Object.keys(xlsx.responses)).toEqual(expect.arrayContaining(["200", "404", "410"]));
    expect(Object.keys(csv.responses["200"].content)).toEqual(["text/csv;charset=UTF-8"]);
    const body = resolve(doc, doc.paths["/api/v1/data-jobs/{id}/download-links"]!.post!.requestBody!.content!["application/json"]!.schema!) as Json;
    expect(body.properties.format).toMatchObject({ enum: ["csv", "xlsx"], default: "csv" });
  });
});
