import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../support/parse-csv";
import { finishedUnits } from "../../../../worker/domain/jobs/results-rows";
import { recordLineBatches } from "../../../../worker/domain/results/record-lines";
import { unitResultsKey } from "../../../../worker/domain/results/keys";
import { csvResults } from "../../../../worker/domain/results/csv-export";
import { jsonResults } from "../../../../worker/domain/results/json-export";
import { BankTransactionRecord } from "../../../../contracts/records/bank";
import { call, callJson, jobWithUnits, bankTransaction as tx } from "../../../support/workers/helpers";

type Json = Record<string, any>;

describe("results export", () => {
  it("returns partial JSON results of finished units only, in unit order, while running", async () => {
    const { ws, jobId } = await jobWithUnits([[tx("a", "급여", 10), tx("b", "이체", -5)], [tx("c", null, 1)], [tx("d", "카드", 2)]], [0, 2]);
    const res = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
    expect(res.body.totalCount).toBe(3);
    expect(res.body.data.map((r: Json) => r.identifier)).toEqual(["a", "b", "d"]);
    const job = await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey });
    expect(job.body).toMatchObject({ kind: "InProgress", phase: "RUNNING", totalTaskCount: 3 });
  });

  it("streams the JSON document from the stored lines as they are: units read in several chunks, an empty unit, text with newlines and Korean", async () => {
    const big = Array.from({ length: 4000 }, (_, i) => tx(`big${i}`, `적요 ${i}\n둘째 줄 "따옴표"`, i - 2000));
    const units = [big, [], [tx("after", "마지막", 1)], [tx("last", null, 2)]];
    const { ws, jobId } = await jobWithUnits(units, [0, 1, 2, 3]);
    const response = await call(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=UTF-8");
    expect(JSON.parse(await response.text())).toEqual({ jobId, schema: "bank.transactions.cb.v1", totalCount: 4002, data: units.flat() });
  });

  it("serves units stored before their JSON lines became array items beside newer ones, as one document and as records", async () => {
    const units = [[tx("o1", "예전 줄\n둘째", 1), tx("o2", null, 2)], [tx("n1", "새 줄", 3)], [tx("o3", "쉼표, 끝", 4)], [tx("n2", "마지막", 5), tx("n3", null, 6)]];
    const { ws, jobId } = await jobWithUnits(units, [0, 1, 2, 3]);
    // Units 0 and 2 rewritten as they were stored before: an object of their own named for the unit, bare lines,
    // no media type, the CSV rows from a shorter offset, and rows that name no shared object.
    for (const unit of (await finishedUnits(env.DB, jobId)).units.filter((u) => u.unitIndex % 2 === 0)) {
      const shared = unitResultsKey(jobId, unit.resultUnit!, unit.resultId!);
      const part = async (offset: number, end: number) => new Uint8Array(await (await env.RESULTS.get(shared, { range: { offset, length: end - offset } }))!.arrayBuffer());
      const bare = new TextEncoder().encode(new TextDecoder().decode(await part(unit.jsonOffset, unit.jsonEnd!)).replaceAll(",\n", "\n"));
      const rows = await part(unit.csvOffset, unit.csvEnd!);
      const body = new Uint8Array(bare.length + rows.length);
      body.set(bare);
      body.set(rows, bare.length);
      const resultId = crypto.randomUUID();
      await env.RESULTS.put(unitResultsKey(jobId, unit.unitIndex, resultId), body);
      // Committed then as a DONE row of its own, not as a mark in the job's plan.
      await env.DB.batch([
        env.DB.prepare("UPDATE job_plans SET units = json_remove(units, ?) WHERE job_id = ?").bind(`$[${unit.unitIndex}].committed`, jobId),
        env.DB.prepare("INSERT INTO task_units (job_id, unit_index, status, record_count, result_id, csv_offset, updated_at) VALUES (?, ?, 'DONE', ?, ?, ?, ?)")
          .bind(jobId, unit.unitIndex, unit.recordCount, resultId, bare.length, Date.now()),
      ]);
    }
    const response = await call(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
    expect(JSON.parse(await response.text())).toEqual({ jobId, schema: "bank.transactions.cb.v1", totalCount: 6, data: units.flat() });
    const records: unknown[] = [];
    for await (const batch of recordLineBatches(env.RESULTS, jobId, (await finishedUnits(env.DB, jobId)).units)) records.push(...batch.map((line) => JSON.parse(line)));
    expect(records).toEqual(units.flat());
    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    expect(csv.slice(1).map((r) => r[8])).toEqual(["o1", "o2", "n1", "o3", "n2", "n3"]);
  });

  it("writes CSV with BOM, Korean headers, RFC 4180 quoting and neutralised formulas", async () => {
    const nasty = ["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "\tlead", "\rcr", 'say "hi", ok', "line\nbreak", "평범한 적요", "＝1+1", "＋1", "－2", "＠SUM(A1)"];
    const { ws, jobId } = await jobWithUnits([nasty.map((d, i) => tx(`id${i}`, d, -1000 - i))], [0]);
    const response = await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey });
    expect(response.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(["스키마", "계좌번호(오픈뱅킹: 핀테크이용번호)", "계좌번호(표시형식)", "계좌유형", "거래금액", "거래후잔액", "통화", "적요", "거래식별자", "거래일시"]);
    expect(rows.slice(1).map((r) => r[7])).toEqual(["'=HYPERLINK(\"x\")", "'+1", "'-2", "'@SUM(A1)", "'\tlead", "'\rcr", 'say "hi", ok', "line\nbreak", "평범한 적요", "'＝1+1", "'＋1", "'－2", "'＠SUM(A1)"]);
    // Numbers stay numbers: a negative amount is data, not a formula.
    expect(rows[1]![4]).toBe("-1000");
    expect(rows.length - 1).toBe(nasty.length);
  });

  it("stores the units committed together as one R2 object and serves each unit's JSON lines and CSV rows from it", async () => {
    const units = [[tx("a", "급여", 10), tx("b", "쉼표, 따옴표 \"포함\"", -5)], [tx("c", "=수식", 1)], [tx("d", "관리비", 2)]];
    const { ws, jobId } = await jobWithUnits(units, [0, 1, 2]);
    const objects = (await env.RESULTS.list({ prefix: `results/${jobId}/` })).objects;
    expect(objects).toHaveLength(1);
    const json = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
    expect(json.body).toMatchObject({ totalCount: 4, data: units.flat() });
    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    expect(csv.slice(1).map((r) => [r[7], r[8]])).toEqual([["급여", "a"], ['쉼표, 따옴표 "포함"', "b"], ["'=수식", "c"], ["관리비", "d"]]);
    // Each export reads the three units' part with one ranged get: their bytes lie side by side in the object.
    const gets: unknown[] = [];
    const counted = new Proxy(env.RESULTS, { get: (target, prop) => (prop === "get" ? (...args: unknown[]) => (gets.push(args[1]), (target.get as Function)(...args)) : Reflect.get(target, prop)) });
    const { units: finished } = await finishedUnits(env.DB, jobId);
    const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
    expect(JSON.parse(await read(jsonResults(counted, { jobId, schema: "bank.transactions.cb.v1", totalCount: 4 }, finished))).data).toEqual(units.flat());
    expect(await read(csvResults(counted, jobId, BankTransactionRecord, finished))).toBe(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })).arrayBuffer())));
    expect(gets).toHaveLength(2);
  });

  it("writes an empty cell for null and only the header for no records", async () => {
    const { ws, jobId } = await jobWithUnits([[tx("n", null, 5)], []], [0, 1]);
    const rows = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    expect(rows).toHaveLength(2);
    expect(rows[1]![7]).toBe("");
  });
});
