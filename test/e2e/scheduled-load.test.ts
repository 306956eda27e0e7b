// start-order: 13 (why: vitest.e2e.config.ts)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { finished, RANGE, runNode } from "../support/e2e/partner-programs";
import { type Stack, startStack } from "../support/e2e/stack";
import { GOOD_LOGIN } from "../support/e2e/workspaces";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

describe("the scheduled-load example", () => {
  it("loads a job's records into SQLite and, run again, adds no duplicates", async () => {
    const apiKey = stack.named["scheduled-load"].apiKey;
    const db = path.join(mkdtempSync(path.join(tmpdir(), "scheduled-load-")), "ledger.sqlite");
    const load = () =>
      finished(
        runNode(
          ["--import", "tsx", "examples/scheduled-load/load.ts", "--db", db, "--provider", "sandbox.bank", "--schema", "bank.transactions.cb.v1", "--from", RANGE.dateRangeStart, "--to", RANGE.dateRangeEnd],
          { COLLECT_BASE_URL: stack.baseUrl, COLLECT_API_KEY: apiKey },
        ),
      );
    const runs = [await load(), await load()];
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const [first, second] = runs.map((r) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { jobId: string; recordCount: number; storedCount: number });
    const truth = bankGroundTruth(GOOD_LOGIN.loginId, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    expect(first!.jobId).not.toBe(second!.jobId);
    expect(first!.recordCount).toBe(truth.length);
    expect(second!.recordCount).toBe(truth.length);

    const store = new DatabaseSync(db, { readOnly: true });
    const rows = store.prepare("SELECT record FROM records WHERE schema = 'bank.transactions.cb.v1'").all() as { record: string }[];
    const loads = store.prepare("SELECT job_id FROM loads ORDER BY loaded_at").all() as { job_id: string }[];
    store.close();
    expect(rows).toHaveLength(truth.length);
    expect(second!.storedCount).toBe(truth.length);
    expect(new Set(rows.map((r) => (JSON.parse(r.record) as { identifier: string }).identifier))).toEqual(new Set(truth.map((t) => t.identifier)));
    expect(loads.map((l) => l.job_id)).toEqual([first!.jobId, second!.jobId]);
  });
});
