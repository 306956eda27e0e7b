import { and, eq, gt, isNull } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import { accountLinks } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";

/** A mailed link is good for an hour, once. */
export const LINK_TTL_MS = 60 * 60_000;

export type AccountLinkPurpose = (typeof accountLinks.$inferSelect)["purpose"];

/** A new one-time link token for a user; only its hash is kept. */
export async function issueAccountLink(d1: D1Database, userId: string, purpose: AccountLinkPurpose, now: number = Date.now()): Promise<string> {
  const token = randomToken(32);
  await database(d1).insert(accountLinks).values({ tokenHash: await sha256Hex(token), userId, purpose, createdAt: now, expiresAt: now + LINK_TTL_MS });
  return token;
}

/** Spends a link: the user it was for, once; an unknown, used or expired token is INVALID_TOKEN. */
export async function useAccountLink(d1: D1Database, token: string, purpose: AccountLinkPurpose, now: number = Date.now()): Promise<string> {
  const [used] = await database(d1)
    .update(accountLinks)
    .set({ usedAt: now })
    .where(and(eq(accountLinks.tokenHash, await sha256Hex(token)), eq(accountLinks.purpose, purpose), isNull(accountLinks.usedAt), gt(accountLinks.expiresAt, now)))
    .returning({ userId: accountLinks.userId });
  if (!used) throw new ApiError("INVALID_TOKEN", { message: "링크가 올바르지 않거나 이미 쓰였거나 만료되었습니다. 새 링크를 받아 주세요." });
  return used.userId;
}

/** Expired links, in batches of `limit` (worker/domain/retention/purge.ts). */
export function purgeExpiredAccountLinks(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "account_links", "expires_at <= ?", [now], limit);
}
