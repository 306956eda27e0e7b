import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../support/parse-csv";
import { bankTransaction as tx, call, callJson, createWorkspace, jobInWorkspace, TX_JOB } from "../../../support/workers/helpers";

type Json = Record<string, any>;

const RANGE = TX_JOB.params;
const on = (day: string, record: Record<string, unknown>) => ({ ...record, transactionAt: `${day}T09:00:00+09:00` });

async function view(apiKey: string, id: string): Promise<Json> {
  return (await callJson<Json>(`/api/v1/data-jobs/${id}`, { key: apiKey })).body;
}

async function results(apiKey: string, id: string): Promise<Json> {
  return (await callJson<Json>(`/api/v1/data-jobs/${id}/results`, { key: apiKey })).body;
}

describe("incremental jobs (params.since)", () => {
  it("serves only the changes against the base's collection, each marked, in JSON and CSV; the next base is the full collection", async () => {
    const ws = await createWorkspace();
    const [a, b, c] = [on("2026-01-05", tx("a", "급여", 10)), on("2026-01-06", tx("b", "이체", -5)), on("2026-01-07", tx("c", "관리비", -3))];
    const baseId = await jobInWorkspace(ws.workspaceId, [[a, b], [c]], [0, 1]);
    const base = await view(ws.apiKey, baseId);
    expect(base).toMatchObject({ kind: "Succeeded", recordCount: 3, since: expect.any(String) });

    const corrected = { ...b, description: "이체 정정" };
    const d = on("2026-01-08", tx("d", "환불", 7));
    const nextId = await jobInWorkspace(ws.workspaceId, [[a, corrected], [d]], [0, 1], { ...RANGE, since: base.since });
    const next = await view(ws.apiKey, nextId);
    expect(next).toMatchObject({ kind: "Succeeded", recordCount: 3, since: expect.any(String) });
    expect(next.since).not.toBe(base.since);
    const changes = [{ ...corrected, change: "modified" }, { ...d, change: "added" }, { ...c, change: "removed" }];
    expect(await results(ws.apiKey, nextId)).toEqual({ jobId: nextId, schema: TX_JOB.schema, totalCount: 3, data: changes });
    const csv = parseCsv(new TextDecoder().decode(new Uint8Array(await (await call(`/api/v1/data-jobs/${nextId}/results.csv`, { key: ws.apiKey })).arrayBuffer()).slice(3)));
    expect(csv[0]!.at(-1)).toBe("변경");
    expect(csv.slice(1).map((row) => [row[8], row.at(-1)])).toEqual([["b", "modified"], ["d", "added"], ["c", "removed"]]);

    // Against the incremental job, what it collected (a, b corrected, d) is the base, not its changes: nothing changed.
    const thirdId = await jobInWorkspace(ws.workspaceId, [[a, corrected, d]], [0], { ...RANGE, since: next.since });
    expect(await results(ws.apiKey, thirdId)).toMatchObject({ totalCount: 0, data: [] });
  });

  it("compares only days both ranges cover, and shows nothing before the job succeeded", async () => {
    const ws = await createWorkspace();
    const early = on("2026-01-02", tx("early", "이자", 1));
    const kept = on("2026-01-20", tx("kept", "급여", 10));
    const base = await view(ws.apiKey, await jobInWorkspace(ws.workspaceId, [[early, kept]], [0]));
    // The next range starts after `early`'s day: its absence is not a removal. `late` is past the base's range: added.
    const late = on("2026-02-03", tx("late", "이체", -2));
    const params = { dateRangeStart: "2026-01-10", dateRangeEnd: "2026-02-09", since: base.since };
    const running = await jobInWorkspace(ws.workspaceId, [[kept], [late]], [0], params);
    expect(await view(ws.apiKey, running)).toMatchObject({ kind: "InProgress" });
    expect(await results(ws.apiKey, running)).toMatchObject({ totalCount: 0, data: [] });
    const done = await jobInWorkspace(ws.workspaceId, [[kept], [late]], [0, 1], params);
    expect((await results(ws.apiKey, done)).data).toEqual([{ ...late, change: "added" }]);
  });

  it("refuses a since that is not one of ours, names another workspace's job, or chose other accounts, saving no job", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    const foreign = await view(other.apiKey, await jobInWorkspace(other.workspaceId, [[tx("x", null, 1)]], [0]));
    const own = await view(ws.apiKey, await jobInWorkspace(ws.workspaceId, [[tx("y", null, 1)]], [0]));
    const refusals = [
      { since: "bm90LW91cnM", message: /since 값이 올바르지 않습니다/ },
      { since: foreign.since, message: /성공한 작업이 없습니다/ },
      { since: own.since, accountNumber: ["1002003004005"], message: /계좌·카드·통화 조건이 같아야/ },
    ];
    for (const { message, ...extra } of refusals) {
      const res = await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey, method: "POST", json: { ...TX_JOB, params: { ...RANGE, ...extra } } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: "INVALID_CURSOR", fieldErrors: [{ field: "body.params.since", code: "INVALID_CURSOR" }] });
      expect(res.body.message).toMatch(message);
    }
    expect((await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey })).body.items).toHaveLength(1);
  });
});
