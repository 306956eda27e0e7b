import { eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import { mailOutbox } from "./tables";
import { log } from "../../platform/observability/telemetry";
import { flagOn } from "../../platform/configuration";
import { sha256Hex } from "../../platform/lib/crypto";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /**
   * One-time tokens the text carries (an invitation's, an unlock or verification link's): the stored copy of a mail
   * a binding sends keeps each as its SHA-256 only (what its own table keeps), never the token.
   */
  secrets?: string[];
}

/** The text with each secret replaced by `sha256:<hex>`: what a stored copy may keep of a mail a binding carries. */
async function withoutSecrets(text: string, secrets: readonly string[]): Promise<string> {
  let kept = text;
  for (const secret of secrets) if (secret) kept = kept.replaceAll(secret, `sha256:${await sha256Hex(secret)}`);
  return kept;
}

/** Sent mail is kept this long: long enough to answer "did you send me that link?", not longer. */
const KEPT_MS = 30 * 86_400_000;

/**
 * Sends a mail to a user: written to the outbox first, then handed to the send_email binding in production. Where a
 * binding carries it, the outbox keeps the record of what was sent with the mail's one-time tokens (`secrets`) as
 * their hashes: nothing there opens an account or accepts an invitation. Where the outbox is the only channel
 * (MAIL_OUTBOX_ONLY: the local stack prints it and tests read it), it keeps the mail whole, as it is the delivery.
 * Nothing is sent again from the outbox. A failed send is logged, never thrown: the action that mails (a sign-in)
 * has happened either way.
 */
export async function sendMail(env: Pick<Env, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY">, mail: Mail, now: number = Date.now()): Promise<void> {
  const id = crypto.randomUUID();
  const outboxOnly = flagOn(env.MAIL_OUTBOX_ONLY) || !env.MAIL || !env.MAIL_FROM;
  const body = outboxOnly ? mail.text : await withoutSecrets(mail.text, mail.secrets ?? []);
  await database(env.DB).insert(mailOutbox).values({ id, recipient: mail.to, subject: mail.subject, body, createdAt: now });
  if (outboxOnly || !env.MAIL || !env.MAIL_FROM) {
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
