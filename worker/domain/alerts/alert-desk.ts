import { DurableObject } from "cloudflare:workers";
import { alertRule } from "./rules";
import { type AlertNotice, notifyOperators } from "./notify";
import { countAlert, openAlert, resolveAlert } from "./store";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { isoTime } from "../../platform/lib/iso-time";
import { log } from "../../platform/observability/telemetry";

/** While an alert is open the desk looks at the rate this often, to resolve it and keep its count in D1 current. */
const CHECK_MS = 60_000;
/** A notice the chat tool did not take is tried again, doubling from this, this many times. */
const NOTICE_RETRY_MS = 30_000;
const NOTICE_ATTEMPTS = 8;

interface OpenAlert {
  id: string;
  code: ApiErrorCode;
  providerCode: string;
  example: string;
  openedAt: number;
  occurrences: number;
  lastSeenAt: number;
}

/**
 * One per flagged code and provider (`alertDesk`): counts the code's occurrences in its rule's window
 * (domain/alerts/rules.ts), opens one alert when they reach the threshold however many follow (a broken institution gives
 * one alert, not a thousand), and resolves it once the window's count falls below the threshold again. Operators
 * hear of both (domain/alerts/notify.ts); notices their channels did not take are retried by the alarm.
 */
export class AlertDesk extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS occurrences (at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS notices (id TEXT PRIMARY KEY, body TEXT NOT NULL, attempts INTEGER NOT NULL, next_at INTEGER NOT NULL)`);
  }

  /** One occurrence of `code` at `providerCode` (`-`: none), `example` naming where (a request or a job id). */
  async record(code: ApiErrorCode, providerCode: string, example: string, at: number = Date.now()): Promise<void> {
    const rule = alertRule(code);
    const sql = this.ctx.storage.sql;
    sql.exec("INSERT INTO occurrences (at) VALUES (?)", at);
    sql.exec("DELETE FROM occurrences WHERE at <= ?", at - rule.windowMs);
    const open = await this.ctx.storage.get<OpenAlert>("open");
    if (open) {
      await this.ctx.storage.put("open", { ...open, occurrences: open.occurrences + 1, lastSeenAt: Math.max(open.lastSeenAt, at) });
      return;
    }
    const inWindow = this.occurrencesSince(at - rule.windowMs);
    if (inWindow < rule.threshold) return;
    const opened: OpenAlert = { id: crypto.randomUUID(), code, providerCode, example, openedAt: at, occurrences: inWindow, lastSeenAt: at };
    // Kept before D1 is written: an occurrence arriving while D1 answers (the object takes calls meanwhile) counts toward this alert, not a second.
    await this.ctx.storage.put("open", opened);
    this.queueNotice("operator_alert.opened", opened, null);
    await openAlert(this.env.DB, { ...opened, threshold: rule.threshold, windowMs: rule.windowMs });
    await this.sendNotices();
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const open = await this.ctx.storage.get<OpenAlert>("open");
    if (open) {
      const rule = alertRule(open.code);
      if (this.occurrencesSince(now - rule.windowMs) < rule.threshold) {
        await resolveAlert(this.env.DB, open.id, open.occurrences, now);
        await this.ctx.storage.delete("open");
        this.queueNotice("operator_alert.resolved", open, now);
      } else await countAlert(this.env.DB, open.id, open.occurrences, open.lastSeenAt);
    }
    await this.sendNotices(now);
  }

  private occurrencesSince(since: number): number {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM occurrences WHERE at > ?", since).one().n;
  }

  private queueNotice(type: AlertNotice["type"], alert: OpenAlert, resolvedAt: number | null): void {
    const rule = alertRule(alert.code);
    const notice: AlertNotice = {
      id: `${alert.id}:${type}`,
      type,
      alert: {
        id: alert.id,
        code: alert.code,
        providerCode: alert.providerCode,
        occurrences: alert.occurrences,
        threshold: rule.threshold,
        windowSeconds: rule.windowMs / 1000,
        example: alert.example,
        openedAt: isoTime(alert.openedAt),
        resolvedAt: resolvedAt === null ? null : isoTime(resolvedAt),
      },
    };
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO notices (id, body, attempts, next_at) VALUES (?, ?, 0, 0)", notice.id, JSON.stringify(notice));
  }

  /** Sends the notices that are due, then sets the alarm for the next thing to do: a notice to retry, or the open alert's next look. */
  private async sendNotices(now: number = Date.now()): Promise<void> {
    const sql = this.ctx.storage.sql;
    for (const row of sql.exec<{ id: string; body: string; attempts: number }>("SELECT id, body, attempts FROM notices WHERE next_at <= ?", now).toArray()) {
      const sent = await notifyOperators(this.env, JSON.parse(row.body) as AlertNotice);
      if (sent || row.attempts + 1 >= NOTICE_ATTEMPTS) {
        if (!sent) log("error", "operator-alert-notice-dropped", { notice: row.id });
        sql.exec("DELETE FROM notices WHERE id = ?", row.id);
      } else sql.exec("UPDATE notices SET attempts = ?, next_at = ? WHERE id = ?", row.attempts + 1, now + NOTICE_RETRY_MS * 2 ** row.attempts, row.id);
    }
    const nextNotice = sql.exec<{ at: number | null }>("SELECT MIN(next_at) AS at FROM notices").one().at;
    const nextLook = (await this.ctx.storage.get<OpenAlert>("open")) ? now + CHECK_MS : null;
    const next = [nextNotice, nextLook].filter((t): t is number => t !== null);
    if (next.length) await this.ctx.storage.setAlarm(Math.min(...next));
    else await this.ctx.storage.deleteAlarm();
  }
}

/** The desk of one flagged code at one provider. */
export const alertDesk = (env: Pick<Env, "ALERT_DESKS">, code: ApiErrorCode, providerCode: string) => env.ALERT_DESKS.getByName(`${code}|${providerCode}`);
