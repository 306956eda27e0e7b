import { and, eq, inArray, sql } from "drizzle-orm";
import { type Database, database } from "../../platform/database/client";
import { credentials, type REVOKED_REASONS } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type CredentialLineage, credentialLineage } from "./lineage";
import { type ActiveJobCheck, type CredentialRow, findCredential } from "./store";

type RevokedReason = (typeof REVOKED_REASONS)[number];

/**
 * What deletion leaves of a credential: what an audit needs (id, workspace,
 * provider, auth method, label, times), never its secret, so a deleted
 * password or private key cannot be decrypted by anyone afterwards, nor
 * its identity (a login id's hash could be guessed back), nor an Open Banking
 * consent's tokens and the accounts it named (a withdrawal).
 */
const retired = (now: number, revokedReason: RevokedReason) => ({ status: "DELETED" as const, sealed: null, identity: null, consent: null, isDefault: false, deletedAt: now, revokedReason });

/** Retires every live or superseded credential of a workspace (its connection was revoked), to batch with that revocation. */
export function retireWorkspaceCredentials(db: Database, workspaceId: string, now: number) {
  return db
    .update(credentials)
    .set(retired(now, "CONNECTION_REVOKED"))
    .where(and(eq(credentials.workspaceId, workspaceId), inArray(credentials.status, ["ACTIVE", "SUPERSEDED"])));
}

/**
 * Erases a superseded credential's secret once no unfinished job runs on it
 * (those finish on the credential they started with); called when it is
 * superseded and whenever a job on it ends.
 */
export async function eraseSupersededSecret(d1: D1Database, id: string, hasActiveJob: ActiveJobCheck): Promise<void> {
  if (await hasActiveJob(d1, id)) return;
  await database(d1).update(credentials).set({ sealed: null }).where(and(eq(credentials.id, id), eq(credentials.status, "SUPERSEDED")));
}

/**
 * 409 CREDENTIAL_HAS_ACTIVE_CONNECTIONS while a job runs on any row of a credential's lineage: a job started before the
 * login was registered again still collects for it, and what it collects would outlive a deletion.
 */
export async function assertLineageIdle(d1: D1Database, lineage: Pick<CredentialLineage, "ids">, hasActiveJob: ActiveJobCheck): Promise<void> {
  if (!(await hasActiveJob(d1, lineage.ids))) return;
  throw new ApiError("CREDENTIAL_HAS_ACTIVE_CONNECTIONS", { message: "이 자격 증명(또는 다시 등록되기 전의 같은 계정)으로 진행 중인 작업이 있습니다. 작업이 끝난 뒤 삭제해 주세요." });
}

/**
 * Deletes unless a job still runs on it or on a row of the same login it superseded (assertLineageIdle); later jobs
 * of the workspace then fail CREDENTIAL_NOT_FOUND. Its results stay unless deleted too (jobs/results-rows.ts
 * deleteCredentialResults). `withdrawnBy` the holder (domain/consent-withdrawal), the consent record keeps when. The row
 * is the credential after, or null when a concurrent deletion got there first.
 */
export async function deleteCredential(d1: D1Database, workspaceId: string, id: string, hasActiveJob: ActiveJobCheck, withdrawnBy?: { holderAt: number }): Promise<CredentialRow | null> {
  await findCredential(d1, workspaceId, id);
  await assertLineageIdle(d1, (await credentialLineage(d1, workspaceId, id)) ?? { ids: [id] }, hasActiveJob);
  const now = withdrawnBy?.holderAt ?? Date.now();
  const withdrawal = withdrawnBy ? { consentRecord: sql`json_set(${credentials.consentRecord}, '$.withdrawnAt', ${new Date(now).toISOString()})` } : {};
  const after = await database(d1).update(credentials).set({ ...retired(now, withdrawnBy ? "HOLDER_WITHDREW" : "DELETED_BY_WORKSPACE"), ...withdrawal }).where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE"))).returning().get();
  return after ?? null;
}
