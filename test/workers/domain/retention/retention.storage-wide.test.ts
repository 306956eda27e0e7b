import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_MS } from "../../../../worker/domain/console-sessions/login-attempts";
import { FORM_FIELD_BOUNDS } from "../../../../worker/web/form-bounds";
import worker from "../../../../worker/index";
import { FINISHED_SESSION_RETENTION_MS } from "../../../../worker/domain/registration/sessions";
import { PURGE_BATCH, PURGE_BATCHES_PER_RUN } from "../../../../worker/domain/retention/purge";
import { FINISHED_DELIVERY_RETENTION_MS } from "../../../../worker/domain/webhooks/deliveries";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { createWorkspace } from "../../../support/workers/helpers";

const DAY = 24 * 3_600_000;
const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;
const attemptRows = () => count("SELECT count(*) AS n FROM login_attempts");
/** An address of its own per call, so neither the address's limits nor the app's rate limit answers first. */
let nextAddress = 0;
const freshAddress = () => `10.77.${Math.floor(nextAddress / 250)}.${nextAddress++ % 250}`;
const longEmail = (i: number) => `${"x".repeat(FORM_FIELD_BOUNDS.email.max)}${i}@example.co.kr`;
const fieldsOf = (html: string) => [...html.matchAll(/data-field="([^"]+)"/g)].map((m) => m[1]);

async function signInFrom(address: string, email: string, password = "correct horse battery") {
  const browser = new ConsoleBrowser(address);
  return browser.signIn(email, password);
}

describe("console forms are bounded before anything is written", () => {
  it("refuses an over-long e-mail or password at sign-in with 400 and fieldErrors, counting no attempt", async () => {
    const before = await attemptRows();
    const address = freshAddress();
    const longOne = await signInFrom(address, longEmail(0));
    expect(longOne.status).toBe(400);
    expect(alertCode(longOne.html)).toBe("INVALID_PARAM_FORMAT");
    expect(fieldsOf(longOne.html)).toEqual(["body.email"]);
    const longPassword = await signInFrom(address, "someone@example.co.kr", "p".repeat(FORM_FIELD_BOUNDS.password.max + 1));
    expect(longPassword.status).toBe(400);
    expect(fieldsOf(longPassword.html)).toEqual(["body.password"]);
    expect(await attemptRows()).toBe(before);
    // At the bound, the attempt is counted and refused as a wrong login: the address, the account, the address on the account.
    const atBound = await signInFrom(address, `${"y".repeat(FORM_FIELD_BOUNDS.email.max - "@example.co.kr".length)}@example.co.kr`);
    expect(alertCode(atBound.html)).toBe("INVALID_CREDENTIALS");
    expect(await attemptRows()).toBe(before + 3);
  });

  it("refuses an over-long e-mail, password, workspace name or business number at sign-up, naming each, and makes no user", async () => {
    const users = await count("SELECT count(*) AS n FROM users");
    const browser = new ConsoleBrowser(freshAddress());
    await browser.open("/console/sign-up");
    const res = await browser.post("/console/sign-up", {
      email: longEmail(1),
      password: "p".repeat(FORM_FIELD_BOUNDS.password.max + 1),
      workspaceName: "가".repeat(FORM_FIELD_BOUNDS.workspaceName.max + 1),
      businessNumber: "1".repeat(FORM_FIELD_BOUNDS.businessNumber.max + 1),
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.html)).toEqual(["body.email", "body.password", "body.workspaceName", "body.businessNumber"]);
    expect(res.html).toMatch(/워크스페이스 이름은\(는\) 100자 이하/);
    expect(await count("SELECT count(*) AS n FROM users")).toBe(users);
  });

  it("keeps the login-attempt table bounded through a storm of sign-in attempts with distinct e-mails", async () => {
    const before = await attemptRows();
    // Long e-mails from as many addresses: refused at the bound, none counted.
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signInFrom(freshAddress(), longEmail(i))));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    expect(await attemptRows()).toBe(before);
    // E-mails within the bound from one address: once it is over its limit, no e-mail it invents gets a row. Until then
    // each failure makes two (the account, the address on the account): at most 1 + 2 x ATTEMPTS_PER_ADDRESS an address.
    const address = freshAddress();
    for (let i = 0; i < ATTEMPTS_PER_ADDRESS + 10; i++) await signInFrom(address, `guess-${i}-${crypto.randomUUID()}@example.co.kr`);
    expect(await attemptRows()).toBe(before + 1 + 2 * ATTEMPTS_PER_ADDRESS);
  });
});

describe("the retention cron", () => {
  it("purges expired and long-finished rows in bounded batches, keeping everything still in use", async () => {
    const now = Date.now();
    const ws = await createWorkspace();
    const over = PURGE_BATCH * PURGE_BATCHES_PER_RUN + 7;
    await env.DB.batch([
      env.DB.prepare("DELETE FROM login_attempts"),
      // More closed windows than one run removes, and one open window.
      env.DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO login_attempts (subject, window_started_at, attempts) SELECT 'email:old-' || i || '@example.co.kr', ?, 3 FROM n`,
      ).bind(over, now - LOGIN_WINDOW_MS - 1000),
      env.DB.prepare("INSERT INTO login_attempts (subject, window_started_at, attempts) VALUES ('ip:10.9.9.9', ?, 2)").bind(now - 1000),
      env.DB.prepare("INSERT INTO console_sessions (token_hash, user_id, created_at, expires_at) VALUES ('expired-session', 'u', ?, ?), ('live-session', 'u', ?, ?)").bind(now - DAY, now - 1000, now, now + DAY),
      env.DB.prepare(
        `INSERT INTO device_codes (device_code_hash, user_code_hash, client_name, interval_seconds, created_at, expires_at)
         VALUES ('expired-device', 'expired-user', 'CLI', 5, ?, ?), ('live-device', 'live-user', 'CLI', 5, ?, ?)`,
      ).bind(now - DAY, now - 1000, now, now + 600_000),
      ...[
        ["old-finished", "CONSUMED", now - FINISHED_SESSION_RETENTION_MS - 1000],
        ["recent-finished", "EXPIRED", now - DAY],
        ["pending", "PENDING", null],
      ].map(([id, status, finishedAt]) =>
        env.DB.prepare(
          `INSERT INTO registration_sessions (id, workspace_id, token_hash, status, options, origin_allowlist, created_at, expires_at, finished_at)
           VALUES (?, ?, ?, ?, '[]', '[]', ?, ?, ?)`,
        ).bind(`${id}-${ws.workspaceId}`, ws.workspaceId, `${id}-${ws.workspaceId}`, status, now - 40 * DAY, now + DAY, finishedAt),
      ),
      ...[
        ["old-succeeded", "SUCCEEDED", now - FINISHED_DELIVERY_RETENTION_MS - 1000],
        ["old-failed", "FAILED", now - FINISHED_DELIVERY_RETENTION_MS - 1000],
        ["recent-succeeded", "SUCCEEDED", now - DAY],
        ["old-pending", "PENDING", now - FINISHED_DELIVERY_RETENTION_MS - 1000],
      ].map(([id, status, updatedAt]) =>
        env.DB.prepare(
          `INSERT INTO webhook_deliveries (id, endpoint_id, workspace_id, event_id, event_type, payload, status, attempt_count, attempts, next_attempt_at, retry_until, created_at, updated_at)
           VALUES (?, 'gone-endpoint', ?, ?, 'data_job.succeeded', '{}', ?, 1, '[]', NULL, ?, ?, ?)`,
        ).bind(id, ws.workspaceId, `evt_${id}`, status, updatedAt, updatedAt, updatedAt),
      ),
    ]);

    await worker.scheduled(createScheduledController(), env);
    // One run removes at most its batches: the rest waits for the next minute.
    expect(await attemptRows()).toBe(7 + 1);
    expect((await env.DB.prepare("SELECT token_hash AS t FROM console_sessions WHERE token_hash LIKE '%-session'").all()).results).toEqual([{ t: "live-session" }]);
    expect((await env.DB.prepare("SELECT device_code_hash AS d FROM device_codes").all()).results).toEqual([{ d: "live-device" }]);
    const sessions = await env.DB.prepare("SELECT id FROM registration_sessions WHERE workspace_id = ? ORDER BY id").bind(ws.workspaceId).all<{ id: string }>();
    expect(sessions.results.map((r) => r.id.split("-").slice(0, -5).join("-"))).toEqual(["pending", "recent-finished"]);
    const deliveries = await env.DB.prepare("SELECT id FROM webhook_deliveries WHERE id IN ('old-succeeded', 'old-failed', 'recent-succeeded', 'old-pending') ORDER BY id").all<{ id: string }>();
    expect(deliveries.results.map((r) => r.id)).toEqual(["old-pending", "recent-succeeded"]);

    await worker.scheduled(createScheduledController(), env);
    expect((await env.DB.prepare("SELECT subject FROM login_attempts").all()).results).toEqual([{ subject: "ip:10.9.9.9" }]);
  });
});
