import { type Plan, PLAN_PRICES } from "../workspaces/plans";
import { chargedAmount, invoiceAmounts, type InvoiceRow, openInvoiceFor } from "./invoices";
import { spendableCredits } from "./credits";
import { chargeableMethod, type PaymentMethodRow } from "./payment-methods";

/** What an upgrade would charge now, shown to the owner before it does: the invoice's amounts and the card. */
export type UpgradeQuote = Pick<InvoiceRow, "supplyAmount" | "vatAmount" | "totalAmount" | "creditAmount"> & { plan: Plan; chargedAmount: number; card: PaymentMethodRow | null };

/**
 * The amounts changePlan (plan-change.ts) would charge for an upgrade to `plan` if asked now: those of the upgrade's
 * open invoice when one is left from a refused try (it charges that one again), else a new invoice's, the plan's price
 * with VAT, less the usage credits it would take, as invoiceWrites takes them.
 */
export async function upgradeQuote(d1: D1Database, workspaceId: string, plan: Plan, now: number = Date.now()): Promise<UpgradeQuote> {
  const [open, credits, card] = await Promise.all([openInvoiceFor(d1, workspaceId, plan), spendableCredits(d1, workspaceId, now), chargeableMethod(d1, workspaceId)]);
  const amounts = open ?? invoiceAmounts(PLAN_PRICES[plan] ?? 0);
  const creditAmount = open ? open.creditAmount : Math.min(amounts.totalAmount, credits.reduce((sum, credit) => sum + credit.remaining, 0));
  const quoted = { supplyAmount: amounts.supplyAmount, vatAmount: amounts.vatAmount, totalAmount: amounts.totalAmount, creditAmount };
  return { ...quoted, plan, chargedAmount: chargedAmount(quoted), card };
}
