import { purgeOldProviderDays } from "../catalog/provider-days";
import { purgeClosedLoginWindows } from "../console-sessions/login-attempts";
import { purgeExpiredSessions } from "../console-sessions/store";
import { purgeExpiredDeviceCodes } from "../device-codes/store";
import { purgeOldMail } from "../mail/outbox";
import { purgeExpiredOperatorSessions } from "../operators/store";
import { purgeFinishedSessions } from "../registration/sessions";
import { purgeOldRequestLogDays, purgeOldRequestLogs } from "../request-logs/store";
import { purgeExpiredAccountLinks } from "../users/account-links";
import { purgeOldInvitations } from "../users/invitations";
import { purgeFinishedDeliveries } from "../webhooks/deliveries";

/** Rows one delete removes; several deletes a run, so one cron invocation stays well inside its limits. */
export const PURGE_BATCH = 500;
export const PURGE_BATCHES_PER_RUN = 10;

/** Each table's purge, by its owning module: rows that serve no one any more (expired, or finished past retention). */
const PURGES: Record<string, (d1: D1Database, limit: number, now: number) => Promise<number>> = {
  login_attempts: purgeClosedLoginWindows,
  console_sessions: purgeExpiredSessions,
  device_codes: purgeExpiredDeviceCodes,
  registration_sessions: purgeFinishedSessions,
  webhook_deliveries: purgeFinishedDeliveries,
  mail_outbox: purgeOldMail,
  account_links: purgeExpiredAccountLinks,
  workspace_invitations: purgeOldInvitations,
  operator_sessions: purgeExpiredOperatorSessions,
  request_logs: purgeOldRequestLogs,
  request_log_days: purgeOldRequestLogDays,
  provider_days: purgeOldProviderDays,
};

/**
 * Run by the cron: removes what public endpoints and finished work leave behind, in bounded batches per table, so a
 * flood of sign-in attempts or abandoned device codes cannot grow the database. A table with more than a run's
 * worth carries over to the next minute. Returns the rows removed per table.
 */
export async function purgeExpired(d1: D1Database, now: number = Date.now()): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const [table, purge] of Object.entries(PURGES)) {
    removed[table] = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_RUN; batch++) {
      const changes = await purge(d1, PURGE_BATCH, now);
      removed[table] += changes;
      if (changes < PURGE_BATCH) break;
    }
  }
  return removed;
}
