import { and, eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { deviceCodes } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { deleteBatch } from "../../platform/database/delete-batch";

export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
// RFC 8628 §6.1: consonants only (no vowels, so no words; no easily confused letters), 20^8 codes.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/** What the user types, compared without case, spaces or dashes. */
export const normalizeUserCode = (code: string): string => code.toUpperCase().replace(/[^A-Z]/g, "");

/** A code as the command line prints it, two halves of four letters, so the page can show the one typed the same way. */
const shownUserCode = (letters: string): string => `${letters.slice(0, 4)}-${letters.slice(4)}`;

function newUserCode(): string {
  // 256 is not a multiple of 20: redraw the bytes that would favour the first letters.
  const letters: string[] = [];
  while (letters.length < USER_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(USER_CODE_LENGTH))) {
      if (byte < 240 && letters.length < USER_CODE_LENGTH) letters.push(USER_CODE_ALPHABET[byte % 20]!);
    }
  }
  return shownUserCode(letters.join(""));
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** How long a key issued through the device grant lives unless revoked sooner (shown in the console's key list). */
export const DEVICE_KEY_TTL_DAYS = 90;

export async function startDeviceAuthorization(d1: D1Database, client: { name: string; platform: string | null }, now: number = Date.now()): Promise<DeviceAuthorization> {
  const deviceCode = `dc_${randomToken(32)}`;
  const userCode = newUserCode();
  await database(d1)
    .insert(deviceCodes)
    .values({
      deviceCodeHash: await sha256Hex(deviceCode),
      userCodeHash: await sha256Hex(normalizeUserCode(userCode)),
      clientName: client.name,
      platform: client.platform,
      intervalSeconds: POLL_INTERVAL_SECONDS,
      createdAt: now,
      expiresAt: now + DEVICE_CODE_TTL_SECONDS * 1000,
    });
  return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

export type PollOutcome =
  | { outcome: "authorization_pending" | "slow_down"; interval: number }
  | { outcome: "approved"; workspaceId: string; clientName: string; approvedBy: string };

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
  if (row.status === "DENIED") throw new ApiError("DEVICE_ACCESS_DENIED", { oauthError: "access_denied" });
  if (row.status === "APPROVED") {
    const [spent] = await db
      .update(deviceCodes)
      .set({ status: "CONSUMED", lastPolledAt: now })
      .where(and(eq(deviceCodes.deviceCodeHash, hash), eq(deviceCodes.status, "APPROVED")))
      .returning({ workspaceId: deviceCodes.workspaceId, approvedBy: deviceCodes.approvedBy });
    if (!spent?.workspaceId || !spent.approvedBy) throw new ApiError("DEVICE_CODE_INVALID", { oauthError: "invalid_grant" });
    return { outcome: "approved", workspaceId: spent.workspaceId, clientName: row.clientName, approvedBy: spent.approvedBy };
  }
  const tooSoon = row.lastPolledAt !== null && now - row.lastPolledAt < row.intervalSeconds * 1000;
  const interval = tooSoon ? row.intervalSeconds + SLOW_DOWN_STEP_SECONDS : row.intervalSeconds;
  await db.update(deviceCodes).set({ lastPolledAt: now, intervalSeconds: interval }).where(eq(deviceCodes.deviceCodeHash, hash));
  return { outcome: tooSoon ? "slow_down" : "authorization_pending", interval };
}

/** What the approval page shows of a pending request: who asks, from what, and since when. */
export interface PendingDevice {
  /** The code the command line printed, for the user to compare (RFC 8628 §5.4), whatever case and dashes they typed. */
  userCode: string;
  clientName: string;
  platform: string | null;
  createdAt: number;
  expiresAt: number;
}

async function pendingRow(d1: D1Database, userCode: string, now: number) {
  const row = await database(d1).select().from(deviceCodes).where(eq(deviceCodes.userCodeHash, await sha256Hex(normalizeUserCode(userCode)))).get();
  if (!row || row.status !== "PENDING") throw new ApiError("USER_CODE_INVALID");
  if (row.expiresAt <= now) throw new ApiError("USER_CODE_EXPIRED");
  return row;
}

export async function pendingDevice(d1: D1Database, userCode: string, now: number = Date.now()): Promise<PendingDevice> {
  const { clientName, platform, createdAt, expiresAt } = await pendingRow(d1, userCode, now);
  return { userCode: shownUserCode(normalizeUserCode(userCode)), clientName, platform, createdAt, expiresAt };
}

/**
 * A signed-in user decides on the code the client shows: approved for one of their workspaces (membership checked
 * by the caller), or denied (the client's next poll gets access_denied). A code is decided once.
 */
export async function decideUserCode(
  d1: D1Database,
  input: { userCode: string; userId: string; decision: { approve: true; workspaceId: string } | { approve: false } },
  now: number = Date.now(),
): Promise<{ clientName: string }> {
  const row = await pendingRow(d1, input.userCode, now);
  const [decided] = await database(d1)
    .update(deviceCodes)
    .set(input.decision.approve ? { status: "APPROVED", workspaceId: input.decision.workspaceId, approvedBy: input.userId } : { status: "DENIED", approvedBy: input.userId })
    .where(and(eq(deviceCodes.userCodeHash, row.userCodeHash), eq(deviceCodes.status, "PENDING")))
    .returning({ clientName: deviceCodes.clientName });
  if (!decided) throw new ApiError("USER_CODE_INVALID");
  return decided;
}

/** Expired device codes can be neither approved nor redeemed: removed in batches of `limit` (worker/domain/retention/purge.ts). */
export async function purgeExpiredDeviceCodes(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "device_codes", "expires_at <= ?", [now], limit);
}

/** Where a signed-in user enters the code a command-line client shows (RFC 8628 verification URI). */
export const DEVICE_CODE_PAGE = "/console/device";
