import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { type ListPage, pastPosition } from "../jobs/cursor";
import { type Database, database } from "../db/client";
import { credentials } from "../db/tables";
import { hasActiveJob } from "../jobs/store";
import { ApiError } from "../errors/api-error";
import type { LoginCredential } from "../../collectors/adapter";
import { latestKeyVersion, openCredential, rewrapCredential, sealCredential } from "../vault/envelope";
import { maskedLabel } from "./fields";
import type { CertificateFace } from "../certificates/verify";

export type CredentialRow = typeof credentials.$inferSelect;

/** A new credential row, its secret sealed under a data key of its own; a certificate's checked face beside it, in the clear. */
export async function sealedCredentialRow(masterKey: string, workspaceId: string, providerCode: string, credential: LoginCredential, certificate: CertificateFace | null = null): Promise<CredentialRow> {
  const id = crypto.randomUUID();
  return {
    id,
    workspaceId,
    providerCode,
    authMethod: credential.authMethod,
    status: "ACTIVE",
    sealed: await sealCredential(masterKey, { credentialId: id, workspaceId, providerCode }, credential),
    label: maskedLabel(credential, certificate),
    certificate,
    invalidReason: null,
    invalidatedAt: null,
    supersededBy: null,
    supersededAt: null,
    createdAt: Date.now(),
    deletedAt: null,
  };
}

/** An SQL condition of a caller's, with its bindings, under which a write takes effect. */
export interface WriteCondition {
  condition: string;
  binds: unknown[];
}

const ALWAYS: WriteCondition = { condition: "1", binds: [] };

/**
 * Registering a credential: the workspace's live one for the provider (if
 * any) becomes SUPERSEDED by the new row, which goes in; both only while
 * `onlyIf` holds, for a caller that batches them with a write of its own in
 * one transaction. The first statement returns the ids it superseded, for
 * `credentialReplaced`.
 */
export function replaceCredentialStatements(d1: D1Database, row: CredentialRow, onlyIf: WriteCondition = ALWAYS): [D1PreparedStatement, D1PreparedStatement] {
  const supersede = d1
    .prepare(
      `UPDATE credentials SET status = 'SUPERSEDED', superseded_by = ?, superseded_at = ?
       WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' AND ${onlyIf.condition} RETURNING id`,
    )
    .bind(row.id, row.createdAt, row.workspaceId, row.providerCode, ...onlyIf.binds);
  return [supersede, insertCredentialIf(d1, row, onlyIf)];
}

/** The ids the first statement of `replaceCredentialStatements` superseded, from its batch result. */
export function supersededIds(result: D1Result): string[] {
  return (result.results as { id: string }[]).map((r) => r.id);
}

/**
 * Erases a superseded credential's secret once no unfinished job runs on it
 * (those finish on the credential they started with); called when it is
 * superseded and whenever a job on it ends.
 */
export async function eraseSupersededSecret(d1: D1Database, id: string): Promise<void> {
  if (await hasActiveJob(d1, id)) return;
  await database(d1).update(credentials).set({ sealed: null }).where(and(eq(credentials.id, id), eq(credentials.status, "SUPERSEDED")));
}

/** The insert of a sealed row that takes effect only while `onlyIf` holds. */
function insertCredentialIf(d1: D1Database, row: CredentialRow, onlyIf: WriteCondition): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO credentials (id, workspace_id, provider_code, auth_method, status, sealed, label, certificate, created_at)
       SELECT ?, ?, ?, ?, 'ACTIVE', ?, ?, ?, ? WHERE ${onlyIf.condition}`,
    )
    .bind(row.id, row.workspaceId, row.providerCode, row.authMethod, row.sealed, row.label, row.certificate && JSON.stringify(row.certificate), row.createdAt, ...onlyIf.binds);
}

/**
 * What deletion leaves of a credential: what an audit needs (id, workspace,
 * provider, auth method, label, times), never its secret, so a deleted
 * password or private key cannot be decrypted by anyone afterwards.
 */
const retired = (now: number) => ({ status: "DELETED" as const, sealed: null, deletedAt: now });

/** Retires every live or superseded credential of a workspace (its connection was revoked), to batch with that revocation. */
export function retireWorkspaceCredentials(db: Database, workspaceId: string, now: number) {
  return db
    .update(credentials)
    .set(retired(now))
    .where(and(eq(credentials.workspaceId, workspaceId), inArray(credentials.status, ["ACTIVE", "SUPERSEDED"])));
}

/** The workspace's credentials (deleted ones too), newest first: all of them, or one page (routes/paging.ts). */
export function listCredentials(d1: D1Database, workspaceId: string, page?: ListPage): Promise<CredentialRow[]> {
  const query = database(d1)
    .select()
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), pastPosition(credentials.createdAt, credentials.id, page?.after)))
    .orderBy(desc(credentials.createdAt), desc(credentials.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** What a job finds of its credential: the login to use, a login the institution refused, or nothing (deleted, never existed). */
export type JobCredential = { kind: "usable"; login: LoginCredential } | { kind: "invalid" } | { kind: "gone" };

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
  if (row.invalidReason !== null) return { kind: "invalid" };
  if (row.sealed === null) return { kind: "gone" };
  const login = await openCredential(masterKey, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed);
  return { kind: "usable", login };
}

/**
 * Marks a credential the institution refused (LOGIN_FAILED, LOGIN_LOCKED); it stays so until registered again, so
 * its secret can never serve another login: it is erased with the mark.
 */
export async function invalidateCredential(d1: D1Database, id: string, reason: string, now: number): Promise<void> {
  await database(d1)
    .update(credentials)
    .set({ invalidReason: reason, invalidatedAt: now, sealed: null })
    .where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE"), isNull(credentials.invalidReason)));
}

/** The id of a workspace's live credential for a provider, which its jobs use implicitly: a statement for the caller to batch. */
/** The live credential a job for the provider takes: its id and, for a certificate, when the certificate ends (ISO time). */
export function activeCredentialIdStatement(d1: D1Database, workspaceId: string, providerCode: string): D1PreparedStatement {
  return d1
    .prepare("SELECT id, json_extract(certificate, '$.notAfter') AS notAfter FROM credentials WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' LIMIT 1")
    .bind(workspaceId, providerCode);
}

export async function findCredential(d1: D1Database, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await database(d1).select().from(credentials).where(and(eq(credentials.id, id), eq(credentials.workspaceId, workspaceId))).get();
  if (!row || row.status === "DELETED") throw new ApiError("CREDENTIAL_NOT_FOUND");
  if (row.status === "SUPERSEDED") throw new ApiError("CREDENTIAL_SUPERSEDED");
  return row;
}

/** Deletes unless a job still runs on it; later jobs of the workspace then fail CREDENTIAL_NOT_FOUND. */
export async function deleteCredential(d1: D1Database, workspaceId: string, id: string): Promise<void> {
  await findCredential(d1, workspaceId, id);
  if (await hasActiveJob(d1, id)) throw new ApiError("CREDENTIAL_HAS_ACTIVE_CONNECTIONS", { message: "이 자격 증명으로 진행 중인 작업이 있습니다. 작업이 끝난 뒤 삭제해 주세요." });
  await database(d1).update(credentials).set(retired(Date.now())).where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE")));
}

/**
 * Moves up to `limit` sealed secrets still wrapped by an older master key than the keyring's newest onto the newest
 * (vault/rotation.ts). Each row is written only if its blob is still the one read, so a credential erased or
 * replaced meanwhile keeps what it has. A blob the keyring cannot open is left as it is and counted apart.
 * Returns how many rows were looked at and how many could not be opened.
 */
export async function rewrapCredentials(d1: D1Database, masterSecret: string, limit: number): Promise<{ seen: number; unreadable: number }> {
  const rows = await d1
    .prepare("SELECT id, workspace_id AS workspaceId, provider_code AS providerCode, sealed FROM credentials WHERE sealed IS NOT NULL AND json_extract(sealed, '$.kv') < ? LIMIT ?")
    .bind(latestKeyVersion(masterSecret), limit)
    .all<{ id: string; workspaceId: string; providerCode: string; sealed: string }>();
  let unreadable = 0;
  for (const row of rows.results) {
    const next = await rewrapCredential(masterSecret, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed).catch(() => undefined);
    if (next === undefined) unreadable++;
    if (next) await database(d1).update(credentials).set({ sealed: next }).where(and(eq(credentials.id, row.id), eq(credentials.sealed, row.sealed)));
  }
  return { seen: rows.results.length, unreadable };
}
