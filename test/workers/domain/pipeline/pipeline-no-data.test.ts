import { afterEach, describe, expect, it, vi } from "vitest";
import { NO_ACCOUNTS_LOGIN } from "../../../../sandbox/sandbox-bank/ledger";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import { callJson } from "../../../support/workers/helpers";
import { harness, jobRow, newJob } from "../../../support/workers/pipeline-harness";

/** Runs a job of the sandbox bank to its end on real components. */
async function run(params: Record<string, unknown>, schema: string, login: { loginId: string; password: string }) {
  const created = await newJob(params, schema, login);
  const h = harness();
  h.queued.push(created.plan);
  await h.drain();
  return { ...created, row: (await jobRow(created.job.id))! };
}

const NO_ACCOUNTS = { loginId: NO_ACCOUNTS_LOGIN, password: "pass_good" };
const GOOD = { loginId: "user_good", password: "pass_good" };

describe("what the institution has nothing of", () => {
  it("fails a transactions job NO_DATA_AVAILABLE for a business with no accounts", async () => {
    const { row } = await run({ dateRangeStart: "2026-02-01", dateRangeEnd: "2026-02-28" }, "bank.transactions.cb.v1", NO_ACCOUNTS);
    expect(row.status).toBe("FAILED");
    expect(JSON.parse(row.error)).toMatchObject({ code: "NO_DATA_AVAILABLE", category: "INVALID_INPUT", retryable: false });
  });

  it("fails an accounts job NO_DATA_AVAILABLE for a business with no accounts", async () => {
    const { row } = await run({}, "bank.accounts.cb.v1", NO_ACCOUNTS);
    expect(row.status).toBe("FAILED");
    expect(JSON.parse(row.error).code).toBe("NO_DATA_AVAILABLE");
  });

  it("succeeds with recordCount 0 for a period without transactions", async () => {
    // A day on which no account of user_good moved (see the ground truth below).
    const period = { dateRangeStart: "2025-05-24", dateRangeEnd: "2025-05-24" };
    expect(bankGroundTruth("user_good", { start: period.dateRangeStart, end: period.dateRangeEnd }).transactions).toEqual([]);
    const { row } = await run(period, "bank.transactions.cb.v1", GOOD);
    expect(row).toMatchObject({ status: "SUCCEEDED", record_count: 0, error: null });
    expect(row.total_task_count).toBeGreaterThan(0);
  });
});

describe("an institution message the adapter does not know", () => {
  afterEach(() => vi.restoreAllMocks());

  it("ends the job UNKNOWN, writes the text, redacted, to the operators' log and never to the partner", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: unknown) => void logged.push(String(line)));
    const { ws, job, row } = await run({}, "bank.accounts.cb.v1", { loginId: "user_good", password: "error_UNKNOWN" });
    expect(row.status).toBe("FAILED");
    expect(JSON.parse(row.error)).toMatchObject({ code: "UNKNOWN", category: "OTHER", retryable: false });
    const entries = logged.map((line) => JSON.parse(line)).filter((e) => e.event === "unknown-institution-message");
    expect(entries).toEqual([{ level: "warn", event: "unknown-institution-message", jobId: job.id, text: expect.stringContaining("[X7731]") }]);
    // The bank's message names the customer and the account: the log line keeps their shapes only.
    expect(entries[0].text).toBe("○○○ 고객님(계좌 ###-###-######)의 요청을 처리하지 못했습니다. 거래 유형 코드를 확인해 주십시오. [X7731]");
    const partner = await callJson(`/api/v1/data-jobs/${job.id}`, { key: ws.apiKey });
    expect(partner.status).toBe(200);
    expect(JSON.stringify(partner.body)).toContain("UNKNOWN");
    expect(JSON.stringify(partner.body)).not.toContain("X7731");
  });
});
