import { and, desc, eq, sql } from "drizzle-orm";
import { database, statementOf } from "../../platform/database/client";
import { billingLedger, invoices, subscriptions } from "./tables";
import { type PLANS } from "../workspaces/tables";
import { ApiError } from "../../platform/errors/api-error";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { pastDueStatement, planStatement } from "../workspaces/store";
import { spendableCredits, spendCredits } from "./credits";

export type InvoiceRow = typeof invoices.$inferSelect;
type Plan = (typeof PLANS)[number];

/** 부가세: 10% of the supply amount, rounded down to the won, as Korean invoices show it beside 공급가액 and 합계. */
export function invoiceAmounts(supplyAmount: number): Pick<InvoiceRow, "supplyAmount" | "vatAmount" | "totalAmount"> {
  const vatAmount = Math.floor(supplyAmount / 10);
  return { supplyAmount, vatAmount, totalAmount: supplyAmount + vatAmount };
}

/** What the card is charged for an invoice: 합계 less the usage credits applied to it. */
export const chargedAmount = (invoice: Pick<InvoiceRow, "totalAmount" | "creditAmount">): number => invoice.totalAmount - invoice.creditAmount;

type NewInvoice = { workspaceId: string; plan: Plan; kind: InvoiceRow["kind"]; periodStart: number; periodEnd: number; supplyAmount: number; overage?: { jobs: number; amount: number } };

/** Whether a write failed on a constraint of that kind: D1 names it in its error, which drizzle may wrap. */
export function failedOn(err: unknown, constraint: "UNIQUE" | "NOT NULL"): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) if (String(e).includes(`${constraint} constraint failed`)) return true;
  return false;
}

/**
 * A new invoice and the writes that open it, to batch together: the invoice with the workspace's usage credits applied
 * (soonest to expire first), its INVOICED ledger row, and CREDIT_APPLIED with the credits' writes when they cover part.
 * Its id is the payment id the gateway is asked to charge under (worker/domain/billing/plan-change.ts). Two invoices
 * racing for the same credit: the credit would go below zero, which the database refuses, so the later batch fails.
 */
export async function invoiceWrites(d1: D1Database, input: NewInvoice, now: number = Date.now()) {
  const db = database(d1);
  const overage = input.overage ?? { jobs: 0, amount: 0 };
  const amounts = invoiceAmounts(input.supplyAmount + overage.amount);
  const id = crypto.randomUUID();
  const credits = spendCredits(db, id, await spendableCredits(d1, input.workspaceId, now), amounts.totalAmount);
  const row: InvoiceRow = {
    id,
    workspaceId: input.workspaceId,
    plan: input.plan,
    kind: input.kind,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    overageJobs: overage.jobs,
    overageAmount: overage.amount,
    ...amounts,
    creditAmount: credits.covered,
    attempts: 0,
    lastAttemptAt: null,
    nextAttemptAt: null,
    status: "OPEN",
    gatewayTransactionId: null,
    lastFailureCode: null,
    createdAt: now,
    paidAt: null,
  };
  const ledger = (entry: (typeof billingLedger.$inferInsert)["entry"], amount: number) =>
    db.insert(billingLedger).values({ id: crypto.randomUUID(), workspaceId: row.workspaceId, invoiceId: row.id, entry, amount, createdAt: now });
  // An upgrade starts a subscription. One already running means a parallel upgrade was paid after this one read the
  // plan: its workspace_id is then written NULL, which the column refuses, and nothing of the batch is kept.
  const invoice =
    input.kind === "UPGRADE"
      ? db.insert(invoices).values({ ...row, workspaceId: sql<string>`CASE WHEN EXISTS (SELECT 1 FROM ${subscriptions} WHERE ${subscriptions.workspaceId} = ${row.workspaceId} AND ${subscriptions.currentPeriodEnd} > ${now}) THEN NULL ELSE ${row.workspaceId} END` })
      : db.insert(invoices).values(row);
  return { row, writes: [invoice, ledger("INVOICED", row.totalAmount), ...(credits.covered > 0 ? [ledger("CREDIT_APPLIED", -credits.covered)] : []), ...credits.writes] as const };
}

/**
 * Opens an upgrade's invoice, or returns the one a parallel upgrade opened first (one open upgrade per workspace and
 * plan: a partial unique index). Null when there is none to charge: a parallel upgrade was paid meanwhile.
 */
export async function openUpgrade(d1: D1Database, input: Omit<NewInvoice, "kind" | "overage">, now: number = Date.now()): Promise<InvoiceRow | null> {
  const { row, writes } = await invoiceWrites(d1, { ...input, kind: "UPGRADE" }, now);
  try {
    await database(d1).batch(writes);
    return row;
  } catch (err) {
    if (failedOn(err, "NOT NULL")) return null;
    if (failedOn(err, "UNIQUE")) return openInvoiceFor(d1, input.workspaceId, input.plan);
    throw err;
  }
}

/**
 * Opens a period's invoice (a RENEWAL, or the OVERAGE of a period no renewal follows), or returns the one another run
 * opened for the same period first (one per workspace, kind and period: a partial unique index).
 */
export async function openPeriodInvoice(d1: D1Database, input: NewInvoice & { kind: "RENEWAL" | "OVERAGE" }, now: number = Date.now()): Promise<InvoiceRow> {
  const { row, writes } = await invoiceWrites(d1, input, now);
  try {
    await database(d1).batch(writes);
    return row;
  } catch (err) {
    const existing = failedOn(err, "UNIQUE") ? await periodInvoice(d1, input.workspaceId, input.kind, input.periodStart) : null;
    if (existing) return existing;
    throw err;
  }
}

/** The workspace's unpaid upgrade to `plan`, if any: an upgrade asked again charges it, under the same payment id. */
export async function openInvoiceFor(d1: D1Database, workspaceId: string, plan: Plan): Promise<InvoiceRow | null> {
  const row = await database(d1)
    .select()
    .from(invoices)
    .where(and(eq(invoices.workspaceId, workspaceId), eq(invoices.plan, plan), eq(invoices.kind, "UPGRADE"), eq(invoices.status, "OPEN")))
    .orderBy(desc(invoices.createdAt))
    .get();
  return row ?? null;
}

/**
 * The gateway took the money: the invoice is paid, the ledger gets its PAID row, and the workspace has the plan for
 * the invoice's period (paid up again, if a renewal had failed), all in one transaction. Every statement may run again for the same payment (a retry after a
 * crash) without a second effect: the invoice changes only while OPEN, the ledger holds one PAID row per invoice.
 */
export async function recordPayment(d1: D1Database, invoice: InvoiceRow, payment: { transactionId: string | null; paidAt: number; paymentMethodId: string | null }): Promise<void> {
  const db = database(d1);
  const paid = [
    statementOf(
      d1,
      db
        .update(invoices)
        .set({ status: "PAID", paidAt: payment.paidAt, gatewayTransactionId: payment.transactionId, lastFailureCode: null })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, "OPEN"))),
    ),
    statementOf(
      d1,
      db
        .insert(billingLedger)
        .values({ id: crypto.randomUUID(), workspaceId: invoice.workspaceId, invoiceId: invoice.id, entry: "PAID", amount: -chargedAmount(invoice), createdAt: payment.paidAt })
        .onConflictDoNothing({ target: [billingLedger.invoiceId, billingLedger.entry] }),
    ),
  ];
  // A period's overage pays for jobs already run: no plan or period comes with it, only the debt is settled.
  if (invoice.kind === "OVERAGE") {
    await d1.batch([...paid, pastDueStatement(d1, invoice.workspaceId, null)]);
    return;
  }
  await d1.batch([
    ...paid,
    statementOf(
      d1,
      db
        .insert(subscriptions)
        .values({ workspaceId: invoice.workspaceId, status: "ACTIVE", currentPeriodStart: invoice.periodStart, currentPeriodEnd: invoice.periodEnd, pendingPlan: null, paymentMethodId: payment.paymentMethodId, pastDueSince: null, updatedAt: payment.paidAt })
        .onConflictDoUpdate({
          target: subscriptions.workspaceId,
          set: { status: "ACTIVE", currentPeriodStart: invoice.periodStart, currentPeriodEnd: invoice.periodEnd, pendingPlan: null, paymentMethodId: payment.paymentMethodId, pastDueSince: null, updatedAt: payment.paidAt },
        }),
    ),
    planStatement(d1, invoice.workspaceId, invoice.plan),
    pastDueStatement(d1, invoice.workspaceId, null),
  ]);
}

/**
 * Marks an open invoice as being charged now; false when it is no longer open (voided, or paid meanwhile), and then
 * it must not be charged. The void of a stale upgrade only takes invoices no charge began on for a day.
 */
export async function markAttempt(d1: D1Database, invoiceId: string, now: number): Promise<boolean> {
  const done = await database(d1).update(invoices).set({ lastAttemptAt: now }).where(and(eq(invoices.id, invoiceId), eq(invoices.status, "OPEN"))).returning({ id: invoices.id });
  return done.length === 1;
}

/** An upgrade's charge was refused (a catalog code): counted on the invoice, for its page and the next try. */
export async function recordFailure(d1: D1Database, invoiceId: string, code: string): Promise<void> {
  await database(d1)
    .update(invoices)
    .set({ lastFailureCode: code, attempts: sql`${invoices.attempts} + 1` })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.status, "OPEN")));
}

/**
 * A renewal's charge was refused: counted, its next automatic try set (`nextAttemptAt`, null after the last), and
 * the subscription and the workspace past due since the first refusal, in one transaction.
 */
export async function recordRenewalRefusal(d1: D1Database, invoice: InvoiceRow, code: string, nextAttemptAt: number | null, now: number): Promise<void> {
  const db = database(d1);
  await d1.batch([
    statementOf(
      d1,
      db
        .update(invoices)
        .set({ attempts: sql`${invoices.attempts} + 1`, lastFailureCode: code, nextAttemptAt })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.status, "OPEN"))),
    ),
    statementOf(
      d1,
      db
        .update(subscriptions)
        .set({ status: "PAST_DUE", pastDueSince: sql`coalesce(${subscriptions.pastDueSince}, ${now})`, updatedAt: now })
        .where(eq(subscriptions.workspaceId, invoice.workspaceId)),
    ),
    pastDueStatement(d1, invoice.workspaceId, now),
  ]);
}

/** The period's invoice of that kind (the renewal for the period starting at `periodStart`, or a period's overage), if one was opened. */
export async function periodInvoice(d1: D1Database, workspaceId: string, kind: "RENEWAL" | "OVERAGE", periodStart: number): Promise<InvoiceRow | null> {
  const row = await database(d1)
    .select()
    .from(invoices)
    .where(and(eq(invoices.workspaceId, workspaceId), eq(invoices.kind, kind), eq(invoices.periodStart, periodStart)))
    .get();
  return row ?? null;
}

/** A workspace's invoices, newest first: all, or one page (`limit` + 1 rows past `after`, for platform/http/paging.ts). */
export function listInvoices(d1: D1Database, workspaceId: string, page?: ListPage): Promise<InvoiceRow[]> {
  const query = database(d1)
    .select()
    .from(invoices)
    .where(and(eq(invoices.workspaceId, workspaceId), pastPosition(invoices.createdAt, invoices.id, page?.after)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** One of the workspace's invoices; 404 INVOICE_NOT_FOUND for any other id. */
export async function getInvoice(d1: D1Database, workspaceId: string, id: string): Promise<InvoiceRow> {
  const row = await database(d1).select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.workspaceId, workspaceId))).get();
  if (!row) throw new ApiError("INVOICE_NOT_FOUND");
  return row;
}

/** What the workspace owes: the sum of its ledger (positive: owed). */
export async function ledgerBalance(d1: D1Database, workspaceId: string): Promise<number> {
  const row = await database(d1).select({ balance: sql<number>`coalesce(sum(${billingLedger.amount}), 0)` }).from(billingLedger).where(eq(billingLedger.workspaceId, workspaceId)).get();
  return row?.balance ?? 0;
}
