import { jobError } from "../../../contracts/job-failures";
import { type ProbeMessage, settleCheck, startCheck } from "./login-checks";
import { and, eq, isNull, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { credentials } from "./tables";
import { ALWAYS, type ActiveJobCheck, clearDefaultStatement, type CredentialRow, findCredential, type WriteCondition } from "./store";
import { eraseSupersededSecret } from "./retirement";
import type { LoginCredential } from "../../../contracts/task-unit";
import { sealCredential } from "../vault/envelope";
import { maskedLabel } from "./fields";
import { credentialIdentity, GLOBAL_PROVIDER } from "./identity";
import { type CertificateFace, verifyCertificate } from "../certificates/verify";
import { type ConsentFace, consentLabel } from "./consent-face";
import type { ConsentRecord } from "./consent-record";
import { log } from "../../platform/observability/telemetry";
import { ApiError } from "../../platform/errors/api-error";

type RegistrationEnv = Pick<Env, "DB"> & { TASKS: Queue<ProbeMessage> };

/** Whether a registration is checked with a login once it is in, in the background (CREDENTIAL_CHECKS, platform/settings.d.ts). */
export const checksOnRegistration = (env: Pick<Env, "CREDENTIAL_CHECKS">): boolean => env.CREDENTIAL_CHECKS === undefined || env.CREDENTIAL_CHECKS === "";

/** Whether the hosted page checks an ID login at the institution before it stores it (CREDENTIAL_CHECKS, platform/settings.d.ts). */
export const checksHostedLogins = (env: Pick<Env, "CREDENTIAL_CHECKS">): boolean => env.CREDENTIAL_CHECKS !== "off";

/**
 * Sends a credential's login check to the pipeline (domain/pipeline/probe.ts). The check is recorded before the send, so
 * a send that fails must not leave it CHECKING for ever: it is settled UNKNOWN, for the owner to check again.
 */
export async function sendProbe(env: RegistrationEnv, credential: Pick<CredentialRow, "id" | "workspaceId">, providerCode: string, checkId: string): Promise<boolean> {
  const message: ProbeMessage = { type: "probe", credentialId: credential.id, workspaceId: credential.workspaceId, providerCode, checkId };
  try {
    await env.TASKS.send(message);
    return true;
  } catch (err) {
    log("error", "probe-send-failed", { credentialId: credential.id, error: String(err) });
    await settleCheck(env.DB, credential.id, checkId, { state: "UNKNOWN", error: jobError("INTERNAL_ERROR") }, Date.now());
    return false;
  }
}

/**
 * Checks a live credential again, at `providerCode` (a global certificate's choice): false when there is no secret to
 * log in with. A second check of one credential within a minute is 429 API_RATE_LIMITED with Retry-After: each is a
 * login at the institution holding the credential's lease, and repeated logins bring an account closer to its lock.
 */
export async function recheckCredential(env: RegistrationEnv, credential: CredentialRow, providerCode: string): Promise<boolean> {
  const started = await startCheck(env.DB, credential.id);
  if ("checkId" in started) return sendProbe(env, credential, providerCode, started.checkId);
  if (started.refused === "NO_SECRET") return false;
  throw new ApiError("API_RATE_LIMITED", {
    message: `이 자격 증명은 1분 안에 이미 확인을 요청했습니다. 확인할 때마다 기관에 로그인하므로 한 자격 증명은 1분에 한 번만 확인합니다. ${started.retryAfterSeconds}초 뒤에 다시 시도해 주세요.`,
    headers: { "Retry-After": String(started.retryAfterSeconds) },
  });
}

/** After a registration's batch: what it superseded loses its secret (once unused), and the new credential is checked. */
export async function credentialRegistered(env: RegistrationEnv, row: CredentialRow, superseded: string[], hasActiveJob: ActiveJobCheck): Promise<void> {
  await Promise.all(superseded.map((id) => eraseSupersededSecret(env.DB, id, hasActiveJob)));
  if (row.checkId) await sendProbe(env, row, row.providerCode, row.checkId);
}

/** Registers a credential directly, superseding the workspace's live one with the same identity. */
export async function registerCredential(env: RegistrationEnv, row: CredentialRow, hasActiveJob: ActiveJobCheck): Promise<CredentialRow> {
  await assertIdentitiesKnown(env.DB, row.workspaceId);
  const [supersede] = await env.DB.batch(replaceCredentialStatements(env.DB, row)).catch((err: unknown) => {
    throw isIdentityConflict(err) ? alreadyExists() : err;
  });
  await credentialRegistered(env, row, supersededIds(supersede!), hasActiveJob);
  return findCredential(env.DB, row.workspaceId, row.id);
}

/**
 * What a credential's field patterns cannot show, checked before it is
 * sealed: a certificate must open with its password, match its key and
 * belong to the workspace's business (422 CERT_* codes); its face is
 * returned to be shown with the credential. An ID login is only proved by
 * a job, so it passes as it is.
 */
export async function checkCredential(credential: LoginCredential, businessNumber: string | null): Promise<CertificateFace | null> {
  return credential.authMethod === "CERTIFICATE" ? verifyCertificate(credential, businessNumber) : null;
}

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

/** The ids the first statement of `replaceCredentialStatements` superseded, from its batch result. */
export function supersededIds(result: D1Result): string[] {
  return (result.results as { id: string }[]).map((r) => r.id);
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
