import { and, eq } from "drizzle-orm";
import { database } from "../db/client";
import { deviceCodes } from "../db/tables";
import { ApiError } from "../errors/api-error";
import { randomToken, sha256Hex } from "../lib/crypto";
import { deleteBatch } from "../db/delete-batch";

export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
// RFC 8628 §6.1: consonants only (no vowels, so no words; no easily confused letters), 20^8 codes.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/** What the user types, compared without case, spaces or dashes. */
export const normalizeUserCode = (code: string): string => code.toUpperCase().replace(/[^A-Z]/g, "");

function newUserCode(): string {
  // 256 is not a multiple of 20: redraw the bytes that would favour the first letters.
  const letters: string[] = [];
  while (letters.length < USER_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(USER_CODE_LENGTH))) {
      if (byte < 240 && letters.length < USER_CODE_LENGTH) letters.push(USER_CODE_ALPHABET[byte % 20]!);
    }
  }
  return `${letters.slice(0, 4).join("")}-${letters.slice(4).join("")}`;
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

export async function startDeviceAuthorization(d1: D1Database, clientName: string, now: number = Date.now()): Promise<DeviceAuthorization> {
  const deviceCode = `dc_${randomToken(32)}`;
  const userCode = newUserCode();
  await database(d1)
    .insert(deviceCodes)
    .values({
      deviceCodeHash: await sha256Hex(deviceCode),
      userCodeHash: await sha256Hex(normalizeUserCode(userCode)),
      clientName,
      intervalSeconds: POLL_INTERVAL_SECONDS,
      createdAt: now,
      expiresAt: now + DEVICE_CODE_TTL_SECONDS * 1000,
    });
  return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

export type PollOutcome =
  | { outcome: "authorization_pending" | "slow_down"; interval: number }
  | { outcome: "approved"; workspaceId: string; clientName: string };

/**
 * One poll of the client. Too soon after the last one answers slow_down and
 * lengthens the interval. An approved authorization is handed out exactly
 * once: the conditional update lets one poll win, and the code is spent.
 */
export async function pollDeviceCode(d1: D1Database, deviceCode: string, now: number = Date.now()): Promise<PollOutcome> {
  const db = database(d1);
  const hash = await sha256Hex(deviceCode);
  const row = await db.select().from(deviceCodes).where(eq(deviceCodes.deviceCodeHash, hash)).get();
  if (!row || row.status === "CONSUMED") throw new ApiError("DEVICE_CODE_INVALID", { oauthError: "invalid_grant" });
  if (row.expiresAt <= now) throw new ApiError("DEVICE_CODE_EXPIRED", { oauthError: "expired_token" });
  if (row.status === "APPROVED") {
    const [spent] = await db
      .update(deviceCodes)
      .set({ status: "CONSUMED", lastPolledAt: now })
      .where(and(eq(deviceCodes.deviceCodeHash, hash), eq(deviceCodes.status, "APPROVED")))
      .returning({ workspaceId: deviceCodes.workspaceId });
    if (!spent?.workspaceId) throw new ApiError("DEVICE_CODE_INVALID", { oauthError: "invalid_grant" });
    return { outcome: "approved", workspaceId: spent.workspaceId, clientName: row.clientName };
  }
  const tooSoon = row.lastPolledAt !== null && now - row.lastPolledAt < row.intervalSeconds * 1000;
  const interval = tooSoon ? row.intervalSeconds + SLOW_DOWN_STEP_SECONDS : row.intervalSeconds;
  await db.update(deviceCodes).set({ lastPolledAt: now, intervalSeconds: interval }).where(eq(deviceCodes.deviceCodeHash, hash));
  return { outcome: tooSoon ? "slow_down" : "authorization_pending", interval };
}

/** A signed-in user approves the code the client shows, for one of their workspaces (membership checked by the caller). */
export async function approveUserCode(d1: D1Database, input: { userCode: string; userId: string; workspaceId: string }, now: number = Date.now()): Promise<{ clientName: string }> {
  const db = database(d1);
  const userCodeHash = await sha256Hex(normalizeUserCode(input.userCode));
  const row = await db.select().from(deviceCodes).where(eq(deviceCodes.userCodeHash, userCodeHash)).get();
  if (!row) throw new ApiError("USER_CODE_INVALID");
  if (row.expiresAt <= now) throw new ApiError("USER_CODE_EXPIRED");
  const [approved] = await db
    .update(deviceCodes)
    .set({ status: "APPROVED", workspaceId: input.workspaceId, approvedBy: input.userId })
    .where(and(eq(deviceCodes.userCodeHash, userCodeHash), eq(deviceCodes.status, "PENDING")))
    .returning({ clientName: deviceCodes.clientName });
  if (!approved) throw new ApiError("USER_CODE_INVALID");
  return approved;
}

/** Expired device codes can be neither approved nor redeemed: removed in batches of `limit` (worker/retention.ts). */
export async function purgeExpiredDeviceCodes(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "device_codes", "expires_at <= ?", [now], limit);
}
