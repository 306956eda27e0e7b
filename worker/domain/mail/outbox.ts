import { eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import { mailOutbox } from "./tables";
import type { Bindings } from "../../env";
import { log } from "../../platform/observability/telemetry";
import { flagOn } from "../../platform/configuration";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sent mail is kept this long: long enough to answer "did you send me that link?", not longer. */
const KEPT_MS = 30 * 86_400_000;

/**
 * Sends a mail to a user: written to the outbox first (what was sent, and locally the only copy: the local stack
 * prints it and tests read it), then handed to the send_email binding in production. A failed send is logged, never
 * thrown: the action that mails (a sign-in) has happened either way.
 */
export async function sendMail(env: Pick<Bindings, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY">, mail: Mail, now: number = Date.now()): Promise<void> {
  const id = crypto.randomUUID();
  await database(env.DB).insert(mailOutbox).values({ id, recipient: mail.to, subject: mail.subject, body: mail.text, createdAt: now });
  if (flagOn(env.MAIL_OUTBOX_ONLY) || !env.MAIL || !env.MAIL_FROM) {
    log("info", "mail-outbox", { to: mail.to, subject: mail.subject, text: mail.text });
    return;
  }
  try {
    await env.MAIL.send({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
    await database(env.DB).update(mailOutbox).set({ sentAt: Date.now() }).where(eq(mailOutbox.id, id));
  } catch (err) {
    log("error", "mail-send-failed", { id, error: String(err) });
  }
}

/** Mail older than KEPT_MS, in batches of `limit` (worker/domain/retention/purge.ts). */
export function purgeOldMail(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "mail_outbox", "created_at <= ?", [now - KEPT_MS], limit);
}
