import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { type Database, database, statementOf } from "../../platform/database/client";
import { credentials, type REVOKED_REASONS } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import type { LoginCredential } from "../../../contracts/task-unit";
import { isJobErrorCode, type JobErrorCode } from "../../../contracts/job-failures";
import { latestKeyVersion, openCredential, rewrapCredential, sealCredential } from "../vault/envelope";
import { maskedLabel } from "./fields";
import { credentialIdentity, GLOBAL_PROVIDER } from "./identity";
import type { CertificateFace } from "../certificates/verify";
import type { KnownTargets } from "./targets";
import { type ConsentFace, consentLabel } from "./consent-face";
import type { ConsentRecord } from "./consent-record";
import { type CredentialLineage, credentialLineage } from "./lineage";

export type CredentialRow = typeof credentials.$inferSelect;
type RevokedReason = (typeof REVOKED_REASONS)[number];

/**
 * Whether a job still runs on a credential (jobs/store.ts hasActiveJob): the job flow sits above credentials, so the
 * caller above both passes it.
 */
export type ActiveJobCheck = (d1: D1Database, credentialIds: string | readonly string[]) => Promise<boolean>;

/** What a registration says of the credential besides its secret. */
export interface CredentialRegistration {
  /** The provider it logs in at, or GLOBAL_PROVIDER (identity.ts) for a certificate serving every provider taking one. */
  providerCode: string;
  credential: LoginCredential;
  certificate: CertificateFace | null;
  businessNumber: string | null;
  /** The owner's name for it; without one, a masked hint. */
  label?: string;
  /** Make it the provider's default; a first credential for a provider, or one replacing the default, becomes it anyway. */
  makeDefault?: boolean;
  /** Check it with a login once it is in (domain/credentials/replace.ts checksOnRegistration). */
  check: boolean;
  /** The schemas its holder consented to (consent.ts consentedSchemas); null for every one it serves. */
  schemas?: string[] | null;
  /** An Open Banking consent's face (consent-face.ts), shown with it; null for other methods. */
  consent?: ConsentFace | null;
  /** The consent its holder gave (consent-record.ts newConsentRecord); every registration path records one. */
  consentRecord?: ConsentRecord | null;
}

/**
 * The id of the check a credential's new secret starts with, or null when it is not checked: when checks are off,
 * and for a global certificate, which names no provider to log in at (it is checked when asked, at the one named).
 */
export function newCheckId(check: boolean, providerCode: string): string | null {
  return check && providerCode !== GLOBAL_PROVIDER ? crypto.randomUUID() : null;
}

/** A new credential row, its secret sealed under a data key of its own; a certificate's checked face beside it, in the clear. */
export async function sealedCredentialRow(masterKey: string, workspaceId: string, registration: CredentialRegistration): Promise<CredentialRow> {
  const { providerCode, credential, certificate } = registration;
  const id = crypto.randomUUID();
  const checkId = newCheckId(registration.check, providerCode);
  return {
    id,
    workspaceId,
    providerCode,
    authMethod: credential.authMethod,
    identity: await credentialIdentity(providerCode, credential, certificate),
    isDefault: registration.makeDefault ?? false,
    businessNumber: registration.businessNumber,
    knownTargets: null,
    checkState: checkId ? "CHECKING" : null,
    checkId,
    checkError: null,
    checkedAt: null,
    checkRequestedAt: null,
    expiryWarnedDays: null,
    status: "ACTIVE",
    sealed: await sealCredential(masterKey, { credentialId: id, workspaceId, providerCode }, credential),
    label: registration.label ?? (registration.consent ? consentLabel(registration.consent) : maskedLabel(credential, certificate)),
    certificate,
    consent: registration.consent ?? null,
    schemas: registration.schemas ?? null,
    consentRecord: registration.consentRecord ?? null,
    invalidReason: null,
    invalidatedAt: null,
    supersededBy: null,
    supersededAt: null,
    createdAt: Date.now(),
    deletedAt: null,
    revokedReason: null,
  };
}

/** An SQL condition of a caller's, with its bindings, under which a write takes effect. */
export interface WriteCondition {
  condition: string;
  binds: unknown[];
}

const ALWAYS: WriteCondition = { condition: "1", binds: [] };

/**
 * Registering a credential: the workspace's live one with the same identity (the same login, the same
 * certificate) for the same provider becomes SUPERSEDED by the new row, which goes in; all only while
 * `onlyIf` holds, for a caller that batches them with a write of its own in one transaction. The new row is
 * its provider's default when asked, or when the provider has no default left (its first credential, or the
 * default it replaces). The same certificate live for another provider (or globally) makes the insert fail
 * on the one-live-identity index: see `isIdentityConflict`. The first statement returns the ids it
 * superseded, for `credentialRegistered`.
 */
export function replaceCredentialStatements(d1: D1Database, row: CredentialRow, onlyIf: WriteCondition = ALWAYS): D1PreparedStatement[] {
  const supersede = d1
    // Raw: the caller hands its write condition over as SQL text (`onlyIf`), which drizzle's builder cannot take.
    .prepare(
      `UPDATE credentials SET status = 'SUPERSEDED', superseded_by = ?, superseded_at = ?, is_default = 0
       WHERE workspace_id = ? AND provider_code = ? AND identity = ? AND status = 'ACTIVE' AND ${onlyIf.condition} RETURNING id`,
    )
    .bind(row.id, row.createdAt, row.workspaceId, row.providerCode, row.identity, ...onlyIf.binds);
  const statements = [supersede];
  if (row.isDefault) statements.push(clearDefaultStatement(d1, row.workspaceId, row.providerCode, onlyIf));
  statements.push(insertCredentialIf(d1, row, onlyIf));
  return statements;
}

/** Whether a registration's batch failed because the same certificate is live under another provider code. */
export function isIdentityConflict(err: unknown): boolean {
  return String(err).includes("credentials.identity");
}

/** The 409 a registration gets when its certificate is already live for another provider (or for all of them). */
export function alreadyExists(): ApiError {
  return new ApiError("CREDENTIAL_ALREADY_EXISTS", {
    message: "이 인증서는 이미 다른 기관용(또는 전체 기관용)으로 등록되어 있습니다. 한 인증서는 한 번만 등록합니다. 여러 기관에 쓰려면 기존 것을 삭제하고 기관 코드 없이(전체 기관용) 등록해 주세요.",
  });
}

/** Ends the default of a provider's live credential, to batch before another becomes it. */
function clearDefaultStatement(d1: D1Database, workspaceId: string, providerCode: string, onlyIf: WriteCondition = ALWAYS): D1PreparedStatement {
  return d1
    // Raw: the caller hands its write condition over as SQL text (`onlyIf`), which drizzle's builder cannot take.
    .prepare(`UPDATE credentials SET is_default = 0 WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' AND is_default = 1 AND ${onlyIf.condition}`)
    .bind(workspaceId, providerCode, ...onlyIf.binds);
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
export async function eraseSupersededSecret(d1: D1Database, id: string, hasActiveJob: ActiveJobCheck): Promise<void> {
  if (await hasActiveJob(d1, id)) return;
  await database(d1).update(credentials).set({ sealed: null }).where(and(eq(credentials.id, id), eq(credentials.status, "SUPERSEDED")));
}

/** The insert of a sealed row that takes effect only while `onlyIf` holds; it becomes the default where the provider has none. */
function insertCredentialIf(d1: D1Database, row: CredentialRow, onlyIf: WriteCondition): D1PreparedStatement {
  return d1
    // Raw: an INSERT … SELECT without FROM under a caller's SQL condition, which drizzle's builder cannot express.
    .prepare(
      `INSERT INTO credentials (id, workspace_id, provider_code, auth_method, identity, is_default, business_number, check_state, check_id, status, sealed, label, certificate, consent, schemas, consent_record, created_at)
       SELECT ?, ?, ?, ?, ?,
         NOT EXISTS (SELECT 1 FROM credentials WHERE workspace_id = ? AND provider_code = ? AND status = 'ACTIVE' AND is_default = 1),
         ?, ?, ?, 'ACTIVE', ?, ?, ?, ?, ?, ?, ? WHERE ${onlyIf.condition}`,
    )
    .bind(
      row.id, row.workspaceId, row.providerCode, row.authMethod, row.identity,
      row.workspaceId, row.providerCode,
      row.businessNumber, row.checkState, row.checkId, row.sealed, row.label, row.certificate && JSON.stringify(row.certificate), row.consent && JSON.stringify(row.consent), row.schemas && JSON.stringify(row.schemas), row.consentRecord && JSON.stringify(row.consentRecord), row.createdAt, ...onlyIf.binds,
    );
}

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

/** The workspace's credentials (deleted ones too), newest first, of one provider code if named: all of them, or one page (platform/http/paging.ts). */
export function listCredentials(d1: D1Database, workspaceId: string, page?: ListPage, providerCode?: string): Promise<CredentialRow[]> {
  const query = database(d1)
    .select()
    .from(credentials)
    .where(
      and(
        eq(credentials.workspaceId, workspaceId),
        providerCode === undefined ? undefined : eq(credentials.providerCode, providerCode),
        pastPosition(credentials.createdAt, credentials.id, page?.after),
      ),
    )
    .orderBy(desc(credentials.createdAt), desc(credentials.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

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

/** What choosing a job's credential reads of each candidate (domain/credentials/choose.ts). */
export interface CredentialCandidate {
  id: string;
  providerCode: string;
  status: CredentialRow["status"];
  isDefault: number;
  /** A certificate's end of validity (ISO time), null for a login. */
  notAfter: string | null;
  /** KnownTargets as JSON text, or null. */
  knownTargets: string | null;
  /** The master key version its secret is sealed under; null when no secret is kept. */
  keyVersion: number | null;
  /** The consented schemas as JSON text, or null for every one (consent.ts). */
  schemas: string | null;
  /** When its holder's consent ends (ISO time, consent-record.ts), null for rows older than consent records. */
  consentEndsAt: string | null;
  authMethod: CredentialRow["authMethod"];
}

/** Aliased, as the statement is read raw (its rows keyed by these names), not through drizzle's mapping. */
const CANDIDATE_COLUMNS = {
  id: sql<string>`${credentials.id}`.as("id"), providerCode: sql<string>`${credentials.providerCode}`.as("providerCode"), status: sql<string>`${credentials.status}`.as("status"),
  isDefault: sql<number>`${credentials.isDefault}`.as("isDefault"), notAfter: sql<string | null>`json_extract(${credentials.certificate}, '$.notAfter')`.as("notAfter"),
  knownTargets: sql<string | null>`${credentials.knownTargets}`.as("knownTargets"), keyVersion: sql<number | null>`json_extract(${credentials.sealed}, '$.kv')`.as("keyVersion"), schemas: sql<string | null>`${credentials.schemas}`.as("schemas"),
  consentEndsAt: sql<string | null>`json_extract(${credentials.consentRecord}, '$.expiresAt')`.as("consentEndsAt"),
  authMethod: sql<CredentialRow["authMethod"]>`${credentials.authMethod}`.as("authMethod"),
};

/**
 * The credentials a job for the provider may take, as a statement for the caller to batch: the one it names
 * (whatever its state, so the answer can say why not), or the workspace's live ones for the provider and, where
 * the provider takes certificates, its global certificates.
 */
export function jobCredentialCandidatesStatement(d1: D1Database, workspaceId: string, providerCode: string, takesCertificates: boolean, credentialId?: string): D1PreparedStatement {
  const candidates = database(d1).select(CANDIDATE_COLUMNS).from(credentials);
  if (credentialId) return statementOf(d1, candidates.where(and(eq(credentials.id, credentialId), eq(credentials.workspaceId, workspaceId))));
  const forProvider = or(eq(credentials.providerCode, providerCode), and(eq(credentials.providerCode, GLOBAL_PROVIDER), sql`${takesCertificates ? 1 : 0}`));
  return statementOf(d1, candidates.where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.status, "ACTIVE"), forProvider)));
}

/**
 * A registration adds to the workspace only once every live credential's identity is known, or it could not tell
 * a re-registration from a new one: 409 CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS while the backfill
 * (identity-backfill.ts) still reads some, with the minute the cron takes to come round.
 */
export async function assertIdentitiesKnown(d1: D1Database, workspaceId: string): Promise<void> {
  const live = and(eq(credentials.workspaceId, workspaceId), eq(credentials.status, "ACTIVE"));
  const unknown = await database(d1).select({ one: sql`1` }).from(credentials).where(and(live, isNull(credentials.identity))).limit(1).get();
  if (!unknown) return;
  throw new ApiError("CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS", {
    message: "이전에 등록된 자격 증명의 인증서 일련번호와 아이디를 확인하는 중입니다. 1분 뒤 다시 등록해 주세요.",
    headers: { "Retry-After": "60" },
  });
}

/** Keeps what the institution showed of one kind of target (accounts, cards) for a credential, for later jobs' checks. */
export async function rememberTargets(d1: D1Database, id: string, kind: keyof KnownTargets, ids: string[], now: number): Promise<void> {
  const known = sql`json_set(coalesce(${credentials.knownTargets}, '{}'), ${`$.${kind}`}, json(${JSON.stringify({ ids, seenAt: now })}))`;
  await database(d1).update(credentials).set({ knownTargets: known }).where(eq(credentials.id, id));
}

/** Whether a workspace holds a live certificate issued for a business number: the proof that it is that business. */
export async function holdsCertificateOf(d1: D1Database, workspaceId: string, businessNumber: string): Promise<boolean> {
  const held = and(eq(credentials.workspaceId, workspaceId), eq(credentials.businessNumber, businessNumber), eq(credentials.status, "ACTIVE"), isNotNull(credentials.certificate));
  const row = await database(d1).select({ one: sql`1` }).from(credentials).where(held).limit(1).get();
  return Boolean(row);
}

/** Renames a live credential and makes it its provider's default or not; the previous default, if any, stops being it. */
export async function updateCredential(d1: D1Database, workspaceId: string, id: string, change: { label?: string; isDefault?: boolean }): Promise<CredentialRow> {
  const row = await findCredential(d1, workspaceId, id);
  const statements: D1PreparedStatement[] = [];
  if (change.isDefault === true && !row.isDefault) statements.push(clearDefaultStatement(d1, workspaceId, row.providerCode));
  const isDefault = change.isDefault ?? row.isDefault;
  const label = change.label ?? row.label;
  statements.push(statementOf(d1, database(d1).update(credentials).set({ label, isDefault }).where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE")))));
  await d1.batch(statements);
  return { ...row, label, isDefault };
}

export async function findCredential(d1: D1Database, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await database(d1).select().from(credentials).where(and(eq(credentials.id, id), eq(credentials.workspaceId, workspaceId))).get();
  if (!row || row.status === "DELETED") throw new ApiError("CREDENTIAL_NOT_FOUND");
  if (row.status === "SUPERSEDED") throw new ApiError("CREDENTIAL_SUPERSEDED");
  return row;
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

/**
 * Moves up to `limit` sealed secrets still wrapped by an older master key than the keyring's newest onto the newest
 * (domain/key-rotation/rewrap.ts). Each row is written only if its blob is still the one read, so a credential erased or
 * replaced meanwhile keeps what it has. A blob the keyring cannot open is left as it is and counted apart.
 * Returns how many rows were looked at and how many could not be opened.
 */
export async function rewrapCredentials(d1: D1Database, masterSecret: string, limit: number): Promise<{ seen: number; unreadable: number }> {
  const older = and(isNotNull(credentials.sealed), sql`json_extract(${credentials.sealed}, '$.kv') < ${latestKeyVersion(masterSecret)}`);
  const columns = { id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed };
  const rows = (await database(d1).select(columns).from(credentials).where(older).limit(limit).all()) as { id: string; workspaceId: string; providerCode: string; sealed: string }[];
  let unreadable = 0;
  for (const row of rows) {
    const next = await rewrapCredential(masterSecret, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed).catch(() => undefined);
    if (next === undefined) unreadable++;
    if (next) await database(d1).update(credentials).set({ sealed: next }).where(and(eq(credentials.id, row.id), eq(credentials.sealed, row.sealed)));
  }
  return { seen: rows.length, unreadable };
}

/** A credential in whatever state, for the operator console, which reads the job that ran on it (the row holds its secret sealed: views leave it out). */
export async function credentialRow(d1: D1Database, id: string): Promise<CredentialRow | null> {
  return (await database(d1).select().from(credentials).where(eq(credentials.id, id)).get()) ?? null;
}

/** Which workspace a credential is of, for the operator console's search: its id, nothing of its secret. */
export async function credentialWorkspace(d1: D1Database, id: string): Promise<string | null> {
  return (await database(d1).select({ workspaceId: credentials.workspaceId }).from(credentials).where(eq(credentials.id, id)).get())?.workspaceId ?? null;
}
