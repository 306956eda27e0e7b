import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { notePulse, providerState } from "../../../../worker/domain/catalog/status";
import { jobError } from "../../../../contracts/job-failures";
import type { JobRow } from "../../../../worker/domain/jobs/store";
import { providerPulse } from "../../../../worker/domain/catalog/provider-pulse";
import { kst } from "../../../../worker/web/kst";
import { DAY_MS, kstDate, kstMidnight } from "../../../../contracts/korean-time";
import { announceOutage } from "../../../../worker/domain/catalog/outages";
import { countProviderDay, HISTORY_DAYS } from "../../../../worker/domain/catalog/provider-days";
import { purgeExpired } from "../../../../worker/domain/retention/purge";
import { call, callJson, createWorkspace } from "../../../support/workers/helpers";
import { harness, newJob } from "../../../support/workers/pipeline-harness";

type Json = Record<string, any>;
const HOUR = 3_600_000;

describe("a provider's status from its jobs", () => {
  it("counts the last hour and day apart, leaves the user's side's failures out of the success rate, and reads the median to a bucket", async () => {
    // A pulse of this test's own name: the catalog's providers' pulses count the other tests' jobs too.
    const pulse = providerPulse(env, `test.${crypto.randomUUID().slice(0, 8)}`);
    const now = Date.now();
    for (const durationMs of [1_500, 4_000, 4_500, 9_000]) await pulse.record({ ok: true, durationMs, at: now - 60_000 });
    await pulse.record({ ok: false, durationMs: 30_000, at: now - 60_000 });
    // A wrong password twice: it ended, but says nothing of the institution.
    for (let i = 0; i < 2; i++) await pulse.record({ ok: null, durationMs: 3_000, at: now - 120_000 });
    // Two hours ago: the day's, not the hour's.
    for (let i = 0; i < 5; i++) await pulse.record({ ok: false, durationMs: 60_000, at: now - 2 * HOUR });

    const summary = await pulse.summary(now);
    expect(summary.lastHour).toEqual({ jobs: 7, successRate: 0.8, medianDurationMs: 5_000 });
    expect(summary.lastDay).toEqual({ jobs: 12, successRate: 0.4, medianDurationMs: 5_000 });
    // Seven jobs in the hour are too few to judge on: the day's twelve decide.
    expect(providerState(summary, false)).toBe("DOWN");
    expect(providerState(summary, true)).toBe("MAINTENANCE");
    expect(providerState({ ...summary, lastHour: { jobs: 10, successRate: 0.8, medianDurationMs: 2_000 } }, false)).toBe("DEGRADED");
    expect(providerState({ lastHour: { jobs: 0, successRate: null, medianDurationMs: null }, lastDay: { jobs: 0, successRate: null, medianDurationMs: null } }, false)).toBe("OPERATIONAL");
  });

  it("does not turn amber on one failure among eight jobs: a rate counts from ten jobs in its window", async () => {
    const pulse = providerPulse(env, `test.${crypto.randomUUID().slice(0, 8)}`);
    const now = Date.now();
    for (let i = 0; i < 7; i++) await pulse.record({ ok: true, durationMs: 2_000, at: now - 60_000 });
    await pulse.record({ ok: false, durationMs: 30_000, at: now - 60_000 });
    const eight = await pulse.summary(now);
    expect(eight.lastDay).toMatchObject({ jobs: 8, successRate: 0.875 });
    expect(providerState(eight, false)).toBe("OPERATIONAL");
    // Two more, one of them failed: 8 of 10 is a rate worth showing.
    await pulse.record({ ok: true, durationMs: 2_000, at: now - 60_000 });
    await pulse.record({ ok: false, durationMs: 30_000, at: now - 60_000 });
    expect(providerState(await pulse.summary(now), false)).toBe("DEGRADED");
  });

  it("leaves out a job that ended for want of a credential, which never reached the institution", async () => {
    const providerCode = `test.${crypto.randomUUID().slice(0, 8)}`;
    const now = Date.now();
    const failed = (code: Parameters<typeof jobError>[0]) => ({ providerCode, status: "FAILED", error: jobError(code), createdAt: now, finishedAt: now }) as JobRow;
    await notePulse(env, failed("CREDENTIAL_NOT_FOUND"), now);
    await notePulse(env, failed("LOGIN_FAILED"), now);
    expect((await providerPulse(env, providerCode).summary(now)).lastHour).toEqual({ jobs: 1, successRate: null, medianDurationMs: null });
  });

  it("is fed by every job's end, shown by GET /providers/{code} and on the public status page", async () => {
    const before = await providerPulse(env, "sandbox.bank").summary();
    const { ws, plan } = await newJob();
    const h = harness();
    h.queued.push(plan);
    await h.drain();
    const after = await providerPulse(env, "sandbox.bank").summary();
    expect(after.lastHour.jobs).toBe(before.lastHour.jobs + 1);
    expect(after.lastHour.medianDurationMs).toEqual(expect.any(Number));

    const shown = (await callJson<Json>("/api/v1/providers/sandbox.bank", { key: ws.apiKey })).body.status;
    expect(shown).toEqual({ state: expect.stringMatching(/^(OPERATIONAL|DEGRADED|DOWN|MAINTENANCE)$/), lastHour: after.lastHour, lastDay: after.lastDay });
    const listed = (await callJson<Json>("/api/v1/providers", { key: (await createWorkspace()).apiKey })).body.items as Json[];
    expect(listed.every((p) => typeof p.status.state === "string")).toBe(true);

    const asked = Date.now();
    const page = await call("/status");
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("public, max-age=60");
    const html = await page.text();
    for (const p of listed) expect(html).toContain(`data-provider="${p.code}" data-state="${p.status.state}"`);
    // When it was rendered (a cache may show it for up to a minute), in Korean time as the rest of the page.
    const [, instant = "", shownAt] = html.match(/마지막 업데이트: <time datetime="([^"]+)">([^<]+)<\/time>/) ?? [];
    const renderedAt = Date.parse(instant);
    expect(renderedAt).toBeGreaterThanOrEqual(asked);
    expect(renderedAt).toBeLessThanOrEqual(Date.now());
    expect(shownAt).toBe(kst(renderedAt));
  });

  it("keeps each institution's last 90 days on the status page: an outage yesterday on yesterday's bar, a bad day's jobs on its own, older days purged", async () => {
    const providerCode = "sandbox.card";
    const now = Date.now();
    const today = kstMidnight(now);
    const [yesterday, twoDaysAgo] = [today - DAY_MS, today - 2 * DAY_MS];
    const outage = await announceOutage(env.DB, { providerCode, startsAt: yesterday + 2 * HOUR, endsAt: yesterday + 3 * HOUR, note: "카드사 전산 장애", announcedBy: "test" });
    // Two days ago twelve jobs ended, five of them for the institution's reasons, one for a wrong password: each end counted as the pipeline counts it.
    const ended = (status: string, code?: Parameters<typeof jobError>[0]) => ({ providerCode, status, error: code ? jobError(code) : null, createdAt: twoDaysAgo, finishedAt: twoDaysAgo + HOUR }) as JobRow;
    for (let i = 0; i < 6; i++) await notePulse(env, ended("SUCCEEDED"), twoDaysAgo + HOUR);
    for (let i = 0; i < 5; i++) await notePulse(env, ended("FAILED", "PROVIDER_ERROR"), twoDaysAgo + HOUR);
    await notePulse(env, ended("FAILED", "LOGIN_FAILED"), twoDaysAgo + HOUR);
    // A day just past the history, and the history's first day.
    await countProviderDay(env.DB, providerCode, false, today - HISTORY_DAYS * DAY_MS);
    await countProviderDay(env.DB, providerCode, true, today - (HISTORY_DAYS - 1) * DAY_MS);

    const days = () => env.DB.prepare("SELECT day, ended, counted, succeeded FROM provider_days WHERE provider_code = ? AND day < ? ORDER BY day").bind(providerCode, kstDate(yesterday)).all();
    expect((await days()).results).toEqual([
      { day: kstDate(today - HISTORY_DAYS * DAY_MS), ended: 1, counted: 1, succeeded: 0 },
      { day: kstDate(today - (HISTORY_DAYS - 1) * DAY_MS), ended: 1, counted: 1, succeeded: 1 },
      { day: kstDate(twoDaysAgo), ended: 12, counted: 11, succeeded: 6 },
    ]);
    const removed = await purgeExpired(env.DB, now);
    expect(removed.provider_days).toBeGreaterThanOrEqual(1);
    expect((await days()).results.map((r) => r.day)).toEqual([kstDate(today - (HISTORY_DAYS - 1) * DAY_MS), kstDate(twoDaysAgo)]);

    const html = await (await call("/status")).text();
    const section = html.slice(html.indexOf(`data-history="${providerCode}"`), html.indexOf("</section>", html.indexOf(`data-history="${providerCode}"`)));
    const bars = [...section.matchAll(/<li class="history-bar" data-day="([^"]+)" data-state="([^"]+)" title="([^"]*)"><span class="sr-only">([^<]*)<\/span><\/li>/g)].map(([, day, state, title, text]) => ({ day, state, title, text }));
    expect(bars).toHaveLength(HISTORY_DAYS);
    expect(bars[0]!.day).toBe(kstDate(today - (HISTORY_DAYS - 1) * DAY_MS));
    expect(bars.at(-1)!.day).toBe(kstDate(now));
    const bar = (at: number) => bars.find((b) => b.day === kstDate(at))!;
    // Each bar says in words what its colour says; the tooltip says the same.
    expect(bar(yesterday)).toMatchObject({ state: "MAINTENANCE", text: expect.stringContaining("장애·점검 공지 · 카드사 전산 장애") });
    expect(bar(twoDaysAgo)).toMatchObject({ state: "DEGRADED", text: expect.stringMatching(/: 일부 지연·실패 \(작업 12건, 성공률 54\.5%\)$/) });
    expect(bars.every((b) => b.title === b.text)).toBe(true);
    expect(bars[0]!.state).toBe("OPERATIONAL");
    expect(bar(today - 3 * DAY_MS).state).toBe("NO_DATA");
    expect(section).toContain("최근 90일: 일부 지연·실패 1일 · 장애·점검 공지 1일 · 정상 ");
    expect(section).toContain(`data-incident="${outage.id}"`);
    expect(section).toContain(`${kst(outage.startsAt)}</time> ~ <time datetime="${new Date(outage.endsAt).toISOString()}">${kst(outage.endsAt)}</time>: 카드사 전산 장애`);
  });
});
