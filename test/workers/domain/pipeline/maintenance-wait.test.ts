import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { maintenanceAt } from "../../../../worker/domain/catalog/provider-hours";
import type { PipelineDeps } from "../../../../worker/domain/pipeline/ports";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { accountsOf } from "../../../../sandbox/sandbox-bank/ledger";
import { kstDate } from "../../../../contracts/korean-time";
import { callJson } from "../../../support/workers/helpers";
import { progressText } from "../../../../worker/console/progress-text";
import { harness, jobRow, newJob } from "../../../support/workers/pipeline-harness";

type Json = Record<string, any>;

const kstToday = (hhmmss: string) => `${kstDate()}T${hhmmss}+09:00`;
/**
 * The calendar as it reads with the sandbox's clock at `hhmmss` Korean time today. The sandbox the test files share
 * keeps no hours (setting its clock would close it under the others), so its offset is given here.
 */
const calendarAt = (hhmmss: string): PipelineDeps["maintenanceMet"] => {
  const offset = Date.parse(kstToday(hhmmss)) - Date.now();
  return async (provider, now, runMs) => maintenanceAt(provider, now, runMs, offset);
};
const ONE_ACCOUNT = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-05", accountNumber: [accountsOf("user_good")[0]!.accountNumber] };

describe("jobs meeting their provider's maintenance", () => {
  it("wait out a window the calendar knows, say until when, and collect after it", async () => {
    const { ws, job, plan } = await newJob(ONE_ACCOUNT);
    // The sandbox bank closes 00:00-00:30: ten seconds of it are left.
    const calendar = calendarAt("00:29:50");
    const windowEnd = Date.now() + 10_000;
    const during = harness({ maintenanceMet: calendar });
    const waited = await executeMessage(during.deps, plan);
    expect(waited.kind).toBe("retry");
    expect((waited as { delaySeconds: number }).delaySeconds).toBeGreaterThanOrEqual(13);
    expect((waited as { delaySeconds: number }).delaySeconds).toBeLessThanOrEqual(16);
    const view = (await callJson<Json>(`/api/v1/data-jobs/${job.id}`, { key: ws.apiKey })).body;
    expect(view).toMatchObject({ kind: "InProgress", phase: "PENDING" });
    expect(Math.abs(Date.parse(view.maintenanceUntil) - (windowEnd + 5_000))).toBeLessThan(1_500);
    expect(progressText(view as Parameters<typeof progressText>[0])).toMatch(/^기관 점검 대기 · .+까지$/);
    expect(during.logins()).toBe(0);

    // The redelivery comes once the window is over: the job runs, and no longer says it waits.
    const after = harness({ maintenanceMet: calendar, now: () => Date.now() + 16_000 });
    await executeMessage(after.deps, plan);
    await after.drain();
    expect((await jobRow(job.id))!.status).toBe("SUCCEEDED");
    expect((await callJson<Json>(`/api/v1/data-jobs/${job.id}`, { key: ws.apiKey })).body.maintenanceUntil).toBeUndefined();
  });

  it("fail PROVIDER_TIME_WINDOW at once when the window outlasts their deadline", async () => {
    const { job, plan } = await newJob(ONE_ACCOUNT);
    const h = harness({ maintenanceMet: calendarAt("00:01:00") });
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    const row = await jobRow(job.id);
    expect(row!.status).toBe("FAILED");
    expect(JSON.parse(row!.error)).toMatchObject({ code: "PROVIDER_TIME_WINDOW", category: "TRANSIENT" });
    expect(h.logins()).toBe(0);
  });

  it("are shown the provider's next windows by the sandbox's own clock, and none while it keeps no hours", async () => {
    const ws = await newJob(ONE_ACCOUNT).then((j) => j.ws);
    const clock = `${env.SANDBOX_BASE_URL}/sandbox/clock`;
    // Noon: no sandbox site closes near it, so the files sharing the sandbox go on as before.
    await fetch(clock, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ at: kstToday("12:00:00") }) });
    const shown = await callJson<Json>("/api/v1/providers/sandbox.bank", { key: ws.apiKey }).finally(() => fetch(clock, { method: "DELETE" }));
    expect(shown.body.maintenance).toHaveLength(3);
    const [next] = shown.body.maintenance;
    expect(Date.parse(next.endsAt) - Date.parse(next.startsAt)).toBe(30 * 60_000);
    expect(Date.parse(next.startsAt)).toBeGreaterThan(Date.now());
    expect(next.note).toContain("00:00~00:30");
    expect((await callJson<Json>("/api/v1/providers/sandbox.bank", { key: ws.apiKey })).body.maintenance).toEqual([]);
  });
});
