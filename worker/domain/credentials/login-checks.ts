import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { JobError } from "../../../contracts/job-failures";
import { database } from "../../platform/database/client";
import { credentials } from "./tables";

/** A credential's login check on the TASKS queue (domain/pipeline/probe.ts): one login at `providerCode`, settled under `checkId`. */
export type ProbeMessage = { type: "probe"; credentialId: string; workspaceId: string; providerCode: string; checkId: string };

/** A credential's login check, whatever its status since (a registration session shows the one it registered). */
export function credentialCheckOf(d1: D1Database, workspaceId: string, id: string) {
  return database(d1)
    .select({ checkState: credentials.checkState, checkError: credentials.checkError, checkedAt: credentials.checkedAt })
    .from(credentials)
    .where(and(eq(credentials.id, id), eq(credentials.workspaceId, workspaceId)))
    .get();
}

/** What a credential's check settles to. */
export type CheckOutcome = { state: "VALID" } | { state: "INVALID" | "UNKNOWN"; error: JobError };

/** How often one credential may be checked on request: each check is a login at the institution, under the credential's lease. */
export const CHECK_INTERVAL_MS = 60_000;

/** A started check's id, or why none started: nothing to log in with, or a check asked for less than a minute ago. */
export type CheckStart = { checkId: string } | { refused: "NO_SECRET" } | { refused: "TOO_SOON"; retryAfterSeconds: number };

/**
 * Starts a new check of a live credential whose secret is still kept: CHECKING under a new check id, which the
 * probe carries, so only the newest probe settles it. The minute since the last request is part of the same
 * conditional update (`check_requested_at`), so of checks asked for at once exactly one starts, whatever isolate
 * each reaches.
 */
export async function startCheck(d1: D1Database, id: string, now = Date.now()): Promise<CheckStart> {
  const checkId = crypto.randomUUID();
  const db = database(d1);
  const kept = and(eq(credentials.id, id), eq(credentials.status, "ACTIVE"), isNotNull(credentials.sealed));
  const due = or(isNull(credentials.checkRequestedAt), lte(credentials.checkRequestedAt, sql`${now} - ${CHECK_INTERVAL_MS}`));
  const started = { checkState: "CHECKING" as const, checkId, checkError: null, checkRequestedAt: now };
  const row = await db.update(credentials).set(started).where(and(kept, due)).returning({ id: credentials.id }).get();
  if (row) return { checkId };
  const held = await db.select({ at: credentials.checkRequestedAt }).from(credentials).where(kept).get();
  if (!held || held.at === null) return { refused: "NO_SECRET" };
  return { refused: "TOO_SOON", retryAfterSeconds: Math.min(CHECK_INTERVAL_MS / 1000, Math.max(1, Math.ceil((held.at + CHECK_INTERVAL_MS - now) / 1000))) };
}

/** Records what the probe `checkId` found, unless a newer check started meanwhile. */
export async function settleCheck(d1: D1Database, id: string, checkId: string, outcome: CheckOutcome, now: number): Promise<void> {
  const settled = { checkState: outcome.state, checkError: outcome.state === "VALID" ? null : outcome.error, checkedAt: now };
  await database(d1).update(credentials).set(settled).where(and(eq(credentials.id, id), eq(credentials.checkId, checkId)));
}
