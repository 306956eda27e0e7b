import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { noteFlagged } from "../../../../worker/domain/alerts/raise";
import { alertRule } from "../../../../worker/domain/alerts/rules";
import { type AlertDesk, alertDesk } from "../../../../worker/domain/alerts/alert-desk";
import type { ReceivedWebhook } from "../../../support/webhook-receiver";

type Json = Record<string, any>;

/** The chat tool's side: what the operators' webhook received for one provider, each verified by the Standard Webhooks library. */
async function chatNotices(providerCode: string): Promise<Json[]> {
  const received = (await (await fetch(`${env.TEST_WEBHOOK_RECEIVER_URL}/received/operator-alerts`)).json()) as ReceivedWebhook[];
  const verifier = new Webhook(env.OPERATOR_ALERT_WEBHOOK_SECRET!.slice("whsec_".length));
  // This provider's only: the receiver keeps every test's notices, and one verified minutes after it was sent is refused
  // as too old by the library's tolerance on a slow run.
  const ours = received.filter((r) => (JSON.parse(r.body) as Json).alert?.providerCode === providerCode);
  return ours.map((r) => verifier.verify(r.body, r.headers) as Json);
}

const alertRows = (providerCode: string) =>
  env.DB.prepare("SELECT id, code, occurrences, resolved_at AS resolvedAt FROM operator_alerts WHERE provider_code = ?").bind(providerCode).all<Json>().then((r) => r.results);

/** Time passes for the desk: its occurrences move back by `ms`, as if they had happened that much earlier. */
const age = (desk: DurableObjectStub<AlertDesk>, ms: number) =>
  runInDurableObject(desk, (_instance, state) => void state.storage.sql.exec("UPDATE occurrences SET at = at - ?", ms));

describe("alerts on the flagged codes", () => {
  it("open once for a run of one code at one provider, however long, tell the chat (signed) and mail once, and resolve when the rate falls", async () => {
    // A provider code of this test's own: the desk of a code and provider is this test's alone.
    const provider = `test.${crypto.randomUUID().slice(0, 8)}`;
    const code = "INTERNAL_ERROR";
    const { threshold, windowMs } = alertRule(code);
    for (let i = 1; i < threshold; i++) await noteFlagged(env, code, provider, `req_${i}`);
    // A code the spec does not flag never counts, however often.
    for (let i = 0; i < 2 * threshold; i++) await noteFlagged(env, "LOGIN_FAILED", provider, "job x");
    expect(await alertRows(provider)).toEqual([]);

    for (let i = threshold; i <= 40; i++) await noteFlagged(env, code, provider, `req_${i}`);
    const [opened] = await alertRows(provider);
    expect(await alertRows(provider)).toHaveLength(1);
    const notices = await chatNotices(provider);
    expect(notices).toEqual([expect.objectContaining({ type: "operator_alert.opened", alert: expect.objectContaining({ id: opened!.id, code, threshold, example: `req_${threshold}` }) })]);
    expect(notices[0]!.text).toContain(`${provider} ${code}`);
    const mail = await env.DB.prepare("SELECT subject FROM mail_outbox WHERE recipient = ? AND subject LIKE ?").bind(env.OPERATOR_ALERT_EMAIL, `%${provider}%`).all();
    expect(mail.results).toHaveLength(1);

    // The rate stays up: the desk's look keeps the one alert open and its count current.
    const desk = alertDesk(env, code, provider);
    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect(await alertRows(provider)).toEqual([{ id: opened!.id, code, occurrences: 40, resolvedAt: null }]);

    // A window later nothing new came: resolved, and the operators hear so once.
    await age(desk, windowMs);
    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect((await alertRows(provider))[0]).toMatchObject({ id: opened!.id, occurrences: 40, resolvedAt: expect.any(Number) });
    expect((await chatNotices(provider)).map((n) => n.type)).toEqual(["operator_alert.opened", "operator_alert.resolved"]);
    // Nothing left to do: no alarm stays set.
    expect(await runDurableObjectAlarm(desk)).toBe(false);

    // The code coming back later is a new alert.
    for (let i = 0; i < threshold; i++) await noteFlagged(env, code, provider, "req_again");
    expect((await alertRows(provider)).filter((a) => a.resolvedAt === null)).toHaveLength(1);
  });
});
