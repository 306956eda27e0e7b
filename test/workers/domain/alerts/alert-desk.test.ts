import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AlertDesk, alertDesk } from "../../../../worker/domain/alerts/alert-desk";
import { alertRule } from "../../../../worker/domain/alerts/rules";

type Json = Record<string, any>;

/** What the desk keeps: its occurrences' times, its open alert, the notices it has yet to send and its alarm. */
const deskState = (desk: DurableObjectStub<AlertDesk>) =>
  runInDurableObject(desk, async (_desk: AlertDesk, state) => ({
    occurrences: state.storage.sql.exec<{ at: number }>("SELECT at FROM occurrences ORDER BY at").toArray().map((r) => r.at),
    open: (await state.storage.get<Json>("open")) ?? null,
    notices: state.storage.sql.exec<{ id: string }>("SELECT id FROM notices").toArray().length,
    alarm: await state.storage.getAlarm(),
  }));

const alertRows = (providerCode: string) =>
  env.DB.prepare("SELECT id, code, threshold, window_ms AS windowMs, occurrences, resolved_at AS resolvedAt FROM operator_alerts WHERE provider_code = ? ORDER BY opened_at")
    .bind(providerCode)
    .all<Json>()
    .then((r) => r.results);

/** A provider code of the test's own: each desk (code and provider) is then the test's alone. */
const ownProvider = () => `test.${crypto.randomUUID().slice(0, 8)}`;

describe("AlertDesk", () => {
  it("counts occurrences in its rule's window only, opens one alert at the threshold and keeps counting into it", async () => {
    const provider = ownProvider();
    const code = "INTERNAL_ERROR";
    const { threshold, windowMs } = alertRule(code);
    expect(threshold).toBe(3);
    const desk = alertDesk(env, code, provider);
    const t0 = Date.now();

    // Three occurrences a window apart: each drops the ones its window no longer holds, so none opens.
    for (const [i, at] of [t0 - 2 * windowMs, t0 - windowMs, t0].entries()) await desk.record(code, provider, `req_${i}`, at);
    expect(await deskState(desk)).toEqual({ occurrences: [t0], open: null, notices: 0, alarm: null });
    await desk.record(code, provider, "req_3", t0 + 1);
    expect((await deskState(desk)).open).toBeNull();
    expect(await alertRows(provider)).toEqual([]);

    const before = Date.now();
    await desk.record(code, provider, "req_4", t0 + 2);
    const after = Date.now();
    const opened = await deskState(desk);
    expect(opened.open).toEqual({ id: expect.any(String), code, providerCode: provider, example: "req_4", openedAt: t0 + 2, occurrences: threshold, lastSeenAt: t0 + 2 });
    // The opening notice went out (the test receiver takes it), and the desk looks again in a minute.
    expect(opened.notices).toBe(0);
    expect(opened.alarm).toBeGreaterThanOrEqual(before + 60_000);
    expect(opened.alarm).toBeLessThanOrEqual(after + 60_000);
    expect(await alertRows(provider)).toEqual([{ id: opened.open!.id, code, threshold, windowMs, occurrences: threshold, resolvedAt: null }]);

    // More occurrences, one of them arriving late, count into the same alert; D1 hears of them at the desk's next look.
    await desk.record(code, provider, "req_5", t0 + 3);
    await desk.record(code, provider, "req_late", t0 - 1_000);
    const counting = await deskState(desk);
    expect(counting.open).toEqual({ ...opened.open, occurrences: threshold + 2, lastSeenAt: t0 + 3 });
    expect(counting.occurrences).toHaveLength(5);
    expect(await alertRows(provider)).toEqual([expect.objectContaining({ id: opened.open!.id, occurrences: threshold })]);

    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect(await alertRows(provider)).toEqual([expect.objectContaining({ id: opened.open!.id, occurrences: threshold + 2, resolvedAt: null })]);
    const looked = await deskState(desk);
    expect(looked.open).toEqual(counting.open);
    expect(looked.alarm).toBeGreaterThan(Date.now());
  });

  it("keeps each code and provider apart, forgets the alert once resolved, and opens a new one when the code comes back", async () => {
    const provider = ownProvider();
    const code = "SCRAPING_PARSER_NOT_FOUND";
    const { threshold, windowMs } = alertRule(code);
    expect(threshold).toBe(1);
    const desk = alertDesk(env, code, provider);
    await desk.record(code, provider, "job a", Date.now());
    const first = (await deskState(desk)).open!;
    expect(first).toMatchObject({ code, providerCode: provider, occurrences: 1 });
    // The same code elsewhere, and another code here, have desks of their own that saw nothing.
    const nothing = { occurrences: [], open: null, notices: 0, alarm: null };
    expect(await deskState(alertDesk(env, code, ownProvider()))).toEqual(nothing);
    expect(await deskState(alertDesk(env, "SCRAPING_RESPONSE_MALFORMED", provider))).toEqual(nothing);

    // A window on, nothing new: the look resolves it, tells the operators and leaves no alarm behind.
    await runInDurableObject(desk, (_desk: AlertDesk, state) => void state.storage.sql.exec("UPDATE occurrences SET at = at - ?", windowMs));
    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect(await deskState(desk)).toMatchObject({ open: null, notices: 0, alarm: null });
    expect(await alertRows(provider)).toEqual([expect.objectContaining({ id: first.id, resolvedAt: expect.any(Number) })]);
    expect(await runDurableObjectAlarm(desk)).toBe(false);

    await desk.record(code, provider, "job b", Date.now());
    const second = (await deskState(desk)).open!;
    expect(second.id).not.toBe(first.id);
    expect((await alertRows(provider)).map((a) => [a.id, a.resolvedAt === null])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
  });
});
