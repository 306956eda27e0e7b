import { and, eq, isNull, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { credentials } from "./tables";
import type { LoginCredential } from "../../../contracts/task-unit";
import { isJobErrorCode, type JobErrorCode } from "../../../contracts/job-failures";
import { openCredential } from "../vault/envelope";
import type { KnownTargets } from "./targets";

/**
 * What a job finds of its credential: the login to use, a login the institution refused (`reason`: the refusal
 * recorded when it was marked, so a later job names the same fix: unlock at the bank, a new certificate), or nothing
 * (deleted, never existed). `sealed`: the secret as stored when opened, so a refusal of it marks the credential only
 * while it is still that secret.
 */
export type JobCredential =
  | { kind: "usable"; login: LoginCredential; businessNumber: string | null; sealed: string }
  | { kind: "invalid"; reason: JobErrorCode }
  | { kind: "gone" };

/** The decrypted login of a credential that can still log in, or null when it was deleted or never existed. */
export async function openActiveCredential(d1: D1Database, masterKey: string, id: string): Promise<LoginCredential | null> {
  const found = await openJobCredential(d1, masterKey, id);
  return found.kind === "usable" ? found.login : null;
}

/**
 * A job's credential as the pipeline needs it: an invalid one is never
 * opened, so no login is tried with it. A superseded one still opens while
 * its secret is kept, for the jobs that started on it.
 */
export async function openJobCredential(d1: D1Database, masterKey: string, id: string): Promise<JobCredential> {
  const row = await database(d1).select().from(credentials).where(eq(credentials.id, id)).get();
  if (!row || row.status === "DELETED") return { kind: "gone" };
  // A mark older than its reason's code, or naming none the catalog knows, still says only that nothing usable is held.
  if (row.invalidReason !== null) return { kind: "invalid", reason: isJobErrorCode(row.invalidReason) ? row.invalidReason : "NO_VALID_CREDENTIAL" };
  if (row.sealed === null) return { kind: "gone" };
  const login = await openCredential(masterKey, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed);
  return { kind: "usable", login, businessNumber: row.businessNumber, sealed: row.sealed };
}

/**
 * Marks a credential the institution refused (LOGIN_FAILED, LOGIN_LOCKED), or an Open Banking consent that ended
 * (NO_VALID_CREDENTIAL: its token refused and not refreshable); it stays so until registered again (or recovered), so
 * its secret can never serve another login: it is erased with the mark. NO_VALID_CREDENTIAL marks consents only: for
 * a login it says the service holds nothing usable, not that the institution refused it. `whileSealed`: only if the
 * secret is still that sealed blob.
 */
export async function invalidateCredential(d1: D1Database, id: string, reason: string, now: number, whileSealed?: string): Promise<void> {
  await database(d1)
    .update(credentials)
    .set({ invalidReason: reason, invalidatedAt: now, sealed: null })
    .where(
      and(
        eq(credentials.id, id),
        eq(credentials.status, "ACTIVE"),
        isNull(credentials.invalidReason),
        reason === "NO_VALID_CREDENTIAL" ? eq(credentials.authMethod, "OPEN_BANKING") : undefined,
        // A refusal of the secret the caller opened says nothing of one written since (a refresh, a new consent).
        whileSealed === undefined ? undefined : eq(credentials.sealed, whileSealed),
      ),
    );
}

/** Keeps what the institution showed of one kind of target (accounts, cards) for a credential, for later jobs' checks. */
export async function rememberTargets(d1: D1Database, id: string, kind: keyof KnownTargets, ids: string[], now: number): Promise<void> {
  const known = sql`json_set(coalesce(${credentials.knownTargets}, '{}'), ${`$.${kind}`}, json(${JSON.stringify({ ids, seenAt: now })}))`;
  await database(d1).update(credentials).set({ knownTargets: known }).where(eq(credentials.id, id));
}
