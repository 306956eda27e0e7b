import { credentialView } from "../routes/credentials/views";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import { findCredential } from "./store";

/** How many days ahead a certificate's end is announced: each once, the nearest last. */
export const EXPIRY_WARNING_DAYS = [30, 7, 1] as const;

/** Rows one cron run warns for; the rest are next minute's. */
const WARNINGS_PER_RUN = 200;

const DAY_MS = 86_400_000;

/** The warning a certificate ending at `notAfter` is due: the nearest threshold it is within (1 once it has ended). */
function dueWarning(notAfter: string, now: number): number {
  const left = (Date.parse(notAfter) - now) / DAY_MS;
  return EXPIRY_WARNING_DAYS.filter((days) => left <= days).at(-1)!;
}

/**
 * Announces live certificates about to end, 30, 7 and 1 days ahead, each warning once: a `credential.expiring`
 * webhook event with the credential as GET shows it (the console shows the same as a badge), to the workspace and,
 * for a connection's business, its partner. Run by the cron; each row is marked in a conditional write before its
 * event, so two runs never warn twice. Returns how many it warned.
 */
export async function warnExpiringCertificates(env: EventsEnv, now: number): Promise<number> {
  const horizon = new Date(now + EXPIRY_WARNING_DAYS[0] * DAY_MS).toISOString();
  const { results } = await env.DB.prepare(
    `SELECT id, workspace_id AS workspaceId, json_extract(certificate, '$.notAfter') AS notAfter, expiry_warned_days AS warned FROM credentials
     WHERE status = 'ACTIVE' AND certificate IS NOT NULL AND json_extract(certificate, '$.notAfter') <= ? AND coalesce(expiry_warned_days, 999) > 1
     LIMIT ?`,
  )
    .bind(horizon, WARNINGS_PER_RUN)
    .all<{ id: string; workspaceId: string; notAfter: string; warned: number | null }>();
  let warned = 0;
  for (const row of results) {
    const due = dueWarning(row.notAfter, now);
    if (row.warned !== null && row.warned <= due) continue;
    const marked = await env.DB.prepare("UPDATE credentials SET expiry_warned_days = ? WHERE id = ? AND coalesce(expiry_warned_days, 999) > ? RETURNING id").bind(due, row.id, due).first();
    if (!marked) continue;
    await emitEvent(env, { type: "credential.expiring", workspaceId: row.workspaceId, object: credentialView(await findCredential(env.DB, row.workspaceId, row.id)) }, now);
    warned++;
  }
  return warned;
}
