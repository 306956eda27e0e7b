import { and, eq, lte, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { invoices } from "./tables";

/** An upgrade left unpaid this long (no charge begun on it since) is voided. */
export const STALE_UPGRADE_MS = 86_400_000;
const VOIDS_PER_RUN = 50;

/**
 * Run by the cron: an upgrade invoice nobody paid within a day (a refused card, an abandoned retry) is voided, so the
 * workspace owes nothing for a plan it never got: the invoice VOID, the ledger's VOIDED row taking its total off, and
 * the usage credits it had taken given back with a CREDIT_RETURNED row, in one transaction. The void's own condition
 * (still open, no charge begun for a day) is checked in its statement, so a charge that begins meanwhile wins: it marks
 * the invoice first (invoices.ts markAttempt), or finds it void and does not charge.
 */
export async function voidStaleUpgrades(d1: D1Database, now: number = Date.now()): Promise<number> {
  const before = now - STALE_UPGRADE_MS;
  const stale = await database(d1)
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.kind, "UPGRADE"), eq(invoices.status, "OPEN"), lte(sql`coalesce(${invoices.lastAttemptAt}, ${invoices.createdAt})`, before)))
    .limit(VOIDS_PER_RUN)
    .all();
  let voided = 0;
  for (const { id } of stale) {
    const [changed] = await d1.batch([
      d1.prepare("UPDATE invoices SET status = 'VOID' WHERE id = ?1 AND status = 'OPEN' AND coalesce(last_attempt_at, created_at) <= ?2 RETURNING id").bind(id, before),
      ...cancellationStatements(d1, id, "VOID", now),
    ]);
    if (changed!.results.length > 0) voided++;
  }
  return voided;
}

/**
 * What cancelling an invoice writes once it has `status` (VOID, or REFUNDED after a refund): the ledger's VOIDED row
 * taking its total off, the usage credits it took given back with a CREDIT_RETURNED row, and for a refund the money
 * given back as a REFUNDED row. Each acts only on an invoice with that status, and once: one ledger row per invoice and
 * entry, each credit use returned once. The caller batches them after its own status change.
 */
export function cancellationStatements(d1: D1Database, id: string, status: "VOID" | "REFUNDED", now: number): D1PreparedStatement[] {
  const cancelled = `EXISTS (SELECT 1 FROM invoices WHERE id = ?1 AND status = '${status}')`;
  const ledger = (entry: string, amount: string, when = "1") =>
    d1
      .prepare(`INSERT INTO billing_ledger (id, workspace_id, invoice_id, entry, amount, created_at) SELECT ?3, workspace_id, id, '${entry}', ${amount}, ?2 FROM invoices WHERE id = ?1 AND ${when} AND ${cancelled} ON CONFLICT (invoice_id, entry) DO NOTHING`)
      .bind(id, now, crypto.randomUUID());
  return [
    ledger("VOIDED", "-total_amount"),
    ledger("CREDIT_RETURNED", "credit_amount", "credit_amount > 0"),
    ...(status === "REFUNDED" ? [ledger("REFUNDED", "total_amount - credit_amount", "total_amount > credit_amount")] : []),
    d1
      .prepare(`UPDATE usage_credits SET remaining = remaining + (SELECT amount FROM credit_uses u WHERE u.invoice_id = ?1 AND u.credit_id = usage_credits.id AND u.returned_at IS NULL) WHERE id IN (SELECT credit_id FROM credit_uses WHERE invoice_id = ?1 AND returned_at IS NULL) AND ${cancelled}`)
      .bind(id),
    d1.prepare(`UPDATE credit_uses SET returned_at = ?2 WHERE invoice_id = ?1 AND returned_at IS NULL AND ${cancelled}`).bind(id, now),
  ];
}
