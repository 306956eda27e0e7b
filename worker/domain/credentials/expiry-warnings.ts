import { and, eq, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { credentials } from "./tables";
import { credentialView, RENEWAL_WINDOW_MS } from "./views";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import { findCredential } from "./store";

const DAY_MS = 86_400_000;

/** How many days ahead a certificate's end is announced: from when it shows `expiresSoon`, then nearer; each once, the nearest last. */
export const EXPIRY_WARNING_DAYS = [RENEWAL_WINDOW_MS / DAY_MS, 7, 1] as const;

/** Rows one cron run warns for; the rest are next minute's. */
const WARNINGS_PER_RUN = 200;

/**
 * The warning each credential within the first threshold is due (the nearest threshold its end is within; 1 once
 * it has ended), its end the sooner of its certificate's (or Open Banking consent's) and its holder's consent's, in
 * SQL, so that only rows whose due warning was not sent yet are read: credentials already warned for their threshold
 * must not fill a run's batch and keep others waiting.
 */
function dueWarningsStatement(d1: D1Database, now: number): D1PreparedStatement {
  const nearestFirst = [...EXPIRY_WARNING_DAYS].reverse();
  const within = (days: number) => new Date(now + days * DAY_MS).toISOString();
  const cases = nearestFirst.slice(0, -1).map((days) => `WHEN notAfter <= ? THEN ${days}`).join(" ");
  return d1
    // Raw: nested derived tables filtered on their computed aliases (notAfter, due), which drizzle's builder cannot express as one statement.
    .prepare(
      `SELECT id, workspaceId, due FROM (
         SELECT id, workspace_id AS workspaceId, expiry_warned_days AS warned, CASE ${cases} ELSE ${nearestFirst.at(-1)} END AS due
         FROM (SELECT *, min(coalesce(ends, recordEnds), coalesce(recordEnds, ends)) AS notAfter
               FROM (SELECT *, coalesce(json_extract(certificate, '$.notAfter'), json_extract(consent, '$.expiresAt')) AS ends,
                       json_extract(consent_record, '$.expiresAt') AS recordEnds FROM credentials
                     WHERE status = 'ACTIVE' AND (certificate IS NOT NULL OR consent IS NOT NULL OR consent_record IS NOT NULL)))
         WHERE notAfter <= ?
       ) WHERE coalesce(warned, 999) > due LIMIT ?`,
    )
    .bind(...nearestFirst.slice(0, -1).map(within), within(EXPIRY_WARNING_DAYS[0]), WARNINGS_PER_RUN);
}

/**
 * Announces live certificates about to end, Open Banking consents (their `consent.expiresAt`) and holders' consents
 * (`consentRecord.expiresAt`), the last two asked again through a recovery session, 30, 7 and 1 days ahead, each warning once: a `credential.expiring`
 * webhook event with the credential as GET shows it (the console shows the same as a badge), to the workspace and,
 * for a connection's business, its partner. Run by the cron; each row is marked in a conditional write before its
 * event, so two runs never warn twice. Returns how many it warned.
 */
export async function warnExpiringCertificates(env: EventsEnv, now: number): Promise<number> {
  const { results } = await dueWarningsStatement(env.DB, now).all<{ id: string; workspaceId: string; due: number }>();
  let warned = 0;
  for (const row of results) {
    const marked = await database(env.DB)
      .update(credentials)
      .set({ expiryWarnedDays: row.due })
      .where(and(eq(credentials.id, row.id), sql`coalesce(${credentials.expiryWarnedDays}, 999) > ${row.due}`))
      .returning({ id: credentials.id })
      .get();
    if (!marked) continue;
    await emitEvent(env, { type: "credential.expiring", workspaceId: row.workspaceId, object: credentialView(await findCredential(env.DB, row.workspaceId, row.id)) }, now);
    warned++;
  }
  return warned;
}
