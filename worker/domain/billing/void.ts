import { and, eq, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { database, statementOf } from "../../platform/database/client";
import { billingLedger, creditUses, invoices, usageCredits } from "./tables";

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
      statementOf(
        d1,
        database(d1)
          .update(invoices)
          .set({ status: "VOID" })
          .where(and(eq(invoices.id, id), eq(invoices.status, "OPEN"), lte(sql`coalesce(${invoices.lastAttemptAt}, ${invoices.createdAt})`, before)))
          .returning({ id: invoices.id }),
      ),
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
  const db = database(d1);
  const cancelled = sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${id} AND ${invoices.status} = ${status})`;
  const ledger = (entry: (typeof billingLedger.$inferInsert)["entry"], amount: SQL, when?: SQL) =>
    statementOf(
      d1,
      db
        .insert(billingLedger)
        .select(
          db
            .select({
              id: sql<string>`${crypto.randomUUID()}`.as("id"),
              workspaceId: invoices.workspaceId,
              invoiceId: invoices.id,
              entry: sql<typeof entry>`${entry}`.as("entry"),
              amount: sql<number>`${amount}`.as("amount"),
              createdAt: sql<number>`${now}`.as("created_at"),
            })
            .from(invoices)
            .where(and(eq(invoices.id, id), when, cancelled)),
        )
        .onConflictDoNothing({ target: [billingLedger.invoiceId, billingLedger.entry] }),
    );
  return [
    ledger("VOIDED", sql`-${invoices.totalAmount}`),
    ledger("CREDIT_RETURNED", sql`${invoices.creditAmount}`, sql`${invoices.creditAmount} > 0`),
    ...(status === "REFUNDED" ? [ledger("REFUNDED", sql`${invoices.totalAmount} - ${invoices.creditAmount}`, sql`${invoices.totalAmount} > ${invoices.creditAmount}`)] : []),
    statementOf(
      d1,
      db
        .update(usageCredits)
        .set({
          remaining: sql`${usageCredits.remaining} + (SELECT ${creditUses.amount} FROM ${creditUses} WHERE ${creditUses.invoiceId} = ${id} AND ${creditUses.creditId} = ${usageCredits.id} AND ${creditUses.returnedAt} IS NULL)`,
        })
        .where(and(inArray(usageCredits.id, db.select({ creditId: creditUses.creditId }).from(creditUses).where(and(eq(creditUses.invoiceId, id), isNull(creditUses.returnedAt)))), cancelled)),
    ),
    statementOf(d1, db.update(creditUses).set({ returnedAt: now }).where(and(eq(creditUses.invoiceId, id), isNull(creditUses.returnedAt), cancelled))),
  ];
}
