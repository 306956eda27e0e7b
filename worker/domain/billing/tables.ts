import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PLANS, workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const SUBSCRIPTION_STATUSES = ["ACTIVE", "PAST_DUE"] as const;

/**
 * A workspace's paid plan over time (worker/domain/billing/): the period paid for, a change waiting for the period's end, and
 * the card charged. A workspace without a row has never paid: FREE, or an operator's INTERNAL. `workspaces.plan` stays
 * the plan every cap reads; billing moves it.
 */
export const subscriptions = sqliteTable("subscriptions", {
  workspaceId: text("workspace_id").primaryKey().references(() => workspaces.id),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  currentPeriodStart: integer("current_period_start").notNull(),
  currentPeriodEnd: integer("current_period_end").notNull(),
  /** The plan the workspace moves to when the period ends (a downgrade or a cancellation); null for none. */
  pendingPlan: text("pending_plan", { enum: PLANS }),
  paymentMethodId: text("payment_method_id"),
  /** When a renewal's charge first failed; null while paid up. */
  pastDueSince: integer("past_due_since"),
  updatedAt: integer("updated_at").notNull(),
});

/** A card registered with the payment gateway for recurring charges: only the gateway's billing key, sealed, and how to show it. */
export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The gateway's billing key, sealed by the vault and bound to this row. */
    sealedBillingKey: text("sealed_billing_key").notNull(),
    /** SHA-256 of the billing key, hex: how the gateway's "billing key deleted" webhook finds the row. */
    billingKeyHash: text("billing_key_hash").notNull(),
    /** The card's last four digits: the number itself never reaches storage. */
    cardLast4: text("card_last4").notNull(),
    createdAt: integer("created_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("payment_methods_workspace").on(t.workspaceId, t.createdAt, t.id)],
);

export const INVOICE_STATUSES = ["OPEN", "PAID", "VOID", "REFUNDED"] as const;
/** OVERAGE: the jobs past the allowance of a period that ended without a renewal to bill them with (a cancellation). */
export const INVOICE_KINDS = ["UPGRADE", "RENEWAL", "OVERAGE"] as const;

/**
 * What a workspace is asked to pay for one period of a plan, in won, VAT shown apart as Korean invoices show it. The id
 * is the gateway's payment id too, so a charge retried after a crash is the same payment and never a second one.
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    plan: text("plan", { enum: PLANS }).notNull(),
    /**
     * UPGRADE: charged when asked, the refusal answered at once; RENEWAL: charged by the cron, retried on a schedule;
     * OVERAGE: a period's jobs past its allowance when no renewal follows, charged and retried as a renewal is.
     */
    kind: text("kind", { enum: INVOICE_KINDS }).notNull().default("UPGRADE"),
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    /** Jobs past the plan's allowance in the period before (a renewal bills them), and what they add to the supply amount. */
    overageJobs: integer("overage_jobs").notNull().default(0),
    overageAmount: integer("overage_amount").notNull().default(0),
    /** 공급가액: the price before VAT, overage included. */
    supplyAmount: integer("supply_amount").notNull(),
    /** 부가세: 10% of the supply amount, rounded down to the won. */
    vatAmount: integer("vat_amount").notNull(),
    /** 합계. */
    totalAmount: integer("total_amount").notNull(),
    /** Usage credits applied: the card is charged 합계 less this. */
    creditAmount: integer("credit_amount").notNull().default(0),
    /** Charges tried; a renewal's next one waits until nextAttemptAt (null: no more automatic tries). */
    attempts: integer("attempts").notNull().default(0),
    /** When the last charge began: an upgrade left unpaid a day after it is voided (worker/domain/billing/void.ts), never one being charged. */
    lastAttemptAt: integer("last_attempt_at"),
    nextAttemptAt: integer("next_attempt_at"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    /** The gateway's transaction, once paid. */
    gatewayTransactionId: text("gateway_transaction_id"),
    /** The last charge's refusal (a catalog code), while unpaid. */
    lastFailureCode: text("last_failure_code"),
    createdAt: integer("created_at").notNull(),
    paidAt: integer("paid_at"),
  },
  (t) => [
    index("invoices_workspace").on(t.workspaceId, t.createdAt, t.id),
    // The cron looks for open invoices every minute (renewals to retry, upgrades to void): those, not every invoice ever.
    index("invoices_open").on(t.status, t.kind),
    // One unpaid upgrade to a plan at a time: parallel upgrades meet here and charge the one invoice (its id is the
    // gateway's payment id), never one each (worker/domain/billing/invoices.ts openUpgrade).
    uniqueIndex("invoices_one_open_upgrade").on(t.workspaceId, t.plan).where(sql`kind = 'UPGRADE' AND status = 'OPEN'`),
    // One renewal, and one overage bill, per period: two cron runs (or the cron and the test clock) racing over the same
    // period's end open one invoice between them.
    uniqueIndex("invoices_one_per_period").on(t.workspaceId, t.kind, t.periodStart).where(sql`kind <> 'UPGRADE'`),
  ],
);

export const LEDGER_ENTRIES = ["INVOICED", "CREDIT_APPLIED", "PAID", "VOIDED", "CREDIT_RETURNED", "REFUNDED"] as const;

/**
 * Every money movement of a workspace, one row each, never changed or removed (worker/domain/billing/ledger.ts): what was
 * invoiced (positive), covered by usage credits, paid or voided (negative). A workspace's balance is the sum of its rows.
 */
export const billingLedger = sqliteTable(
  "billing_ledger",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    invoiceId: text("invoice_id").notNull(),
    entry: text("entry", { enum: LEDGER_ENTRIES }).notNull(),
    /** Won: what the workspace owes grows by a positive amount and shrinks by a negative one. */
    amount: integer("amount").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // One payment per invoice, ever: a retried charge cannot write a second.
  (t) => [index("billing_ledger_workspace").on(t.workspaceId, t.createdAt), uniqueIndex("billing_ledger_one_entry_per_invoice").on(t.invoiceId, t.entry)],
);

/**
 * Won an operator grants a workspace (worker/domain/billing/credits.ts), spent on its invoices before any card is charged,
 * the soonest to expire first, until it expires. The ledger records each use.
 */
export const usageCredits = sqliteTable(
  "usage_credits",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    amount: integer("amount").notNull(),
    remaining: integer("remaining").notNull(),
    expiresAt: integer("expires_at").notNull(),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  // A credit spent twice at once would go below zero: the database refuses, and the invoice that raced it is not written.
  (t) => [index("usage_credits_workspace").on(t.workspaceId, t.expiresAt), check("usage_credits_never_negative", sql`${t.remaining} >= 0`)],
);

/** How much of a usage credit an invoice took, so a voided invoice gives exactly that back, once (worker/domain/billing/void.ts). */
export const creditUses = sqliteTable(
  "credit_uses",
  {
    invoiceId: text("invoice_id").notNull(),
    creditId: text("credit_id").notNull(),
    amount: integer("amount").notNull(),
    returnedAt: integer("returned_at"),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.creditId] })],
);
