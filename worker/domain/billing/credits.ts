import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../platform/database/client";
import { database } from "../../platform/database/client";
import { creditUses, usageCredits } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { workspaceRow } from "../workspaces/store";

export type UsageCreditRow = typeof usageCredits.$inferSelect;

/** The most one grant gives: ten million won, a year of the largest plan many times over. */
export const MAX_CREDIT_WON = 10_000_000;

/**
 * An operator's grant of won to a workspace, spent on its invoices before its card (worker/domain/billing/invoices.ts).
 * 400 INVALID_USAGE_CREDIT for an amount that is not a whole number of won from 1 to MAX_CREDIT_WON; 400
 * USAGE_CREDIT_EXPIRES_IN_PAST for an expiry not in the future; 400 USAGE_CREDIT_NOT_APPLICABLE for a workspace that
 * is never invoiced (INTERNAL, or a partner's business, whose partner is billed).
 */
export async function grantCredit(d1: D1Database, workspaceId: string, input: { amount: number; expiresAt: number; reason: string }, now: number = Date.now()): Promise<UsageCreditRow> {
  await assertGrantable(d1, workspaceId, input, now);
  const row: UsageCreditRow = { id: crypto.randomUUID(), workspaceId, amount: input.amount, remaining: input.amount, expiresAt: input.expiresAt, reason: input.reason, createdAt: now };
  await database(d1).insert(usageCredits).values(row);
  return row;
}

/** The refusals grantCredit answers, for a caller that checks before it records the attempt (an operator's audit mark). */
export async function assertGrantable(d1: D1Database, workspaceId: string, input: { amount: number; expiresAt: number }, now: number = Date.now()): Promise<void> {
  if (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > MAX_CREDIT_WON) {
    throw new ApiError("INVALID_USAGE_CREDIT", { message: `크레딧은 1원에서 ${MAX_CREDIT_WON.toLocaleString("ko-KR")}원 사이의 정수(원)여야 합니다.` });
  }
  if (!(input.expiresAt > now)) throw new ApiError("USAGE_CREDIT_EXPIRES_IN_PAST", { message: "크레딧의 만료 시각은 지금보다 뒤여야 합니다." });
  const workspace = await workspaceRow(d1, workspaceId);
  if (workspace?.plan === "INTERNAL" || workspace?.billingWorkspaceId) {
    throw new ApiError("USAGE_CREDIT_NOT_APPLICABLE", { message: "청구서를 받지 않는 워크스페이스(내부 플랜, 또는 파트너가 대신 결제하는 사업자)에는 크레딧을 줄 수 없습니다. 결제하는 워크스페이스에 주세요." });
  }
}

/** Credits a workspace can still spend, the soonest to expire first. */
export function spendableCredits(d1: D1Database, workspaceId: string, now: number = Date.now()): Promise<UsageCreditRow[]> {
  return database(d1)
    .select()
    .from(usageCredits)
    .where(and(eq(usageCredits.workspaceId, workspaceId), gt(usageCredits.remaining, 0), gt(usageCredits.expiresAt, now)))
    .orderBy(asc(usageCredits.expiresAt), asc(usageCredits.createdAt))
    .all();
}

/** How much of `total` the credits cover for `invoiceId`, and the writes that spend it and record each use (to batch with the invoice). */
export function spendCredits(db: Database, invoiceId: string, credits: UsageCreditRow[], total: number) {
  let covered = 0;
  const writes = [];
  for (const credit of credits) {
    const take = Math.min(credit.remaining, total - covered);
    if (take <= 0) break;
    covered += take;
    writes.push(db.update(usageCredits).set({ remaining: sql`${usageCredits.remaining} - ${take}` }).where(eq(usageCredits.id, credit.id)));
    writes.push(db.insert(creditUses).values({ invoiceId, creditId: credit.id, amount: take }));
  }
  return { covered, writes };
}
