import { and, eq, or, sql } from "drizzle-orm";
import { database, statementOf } from "../../platform/database/client";
import { credentials } from "./tables";
import type { ProviderDefinition } from "../catalog/providers";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { GLOBAL_PROVIDER } from "./identity";
import { keyVersionState } from "../vault/keyring";
import type { CredentialRow } from "./store";
import { log } from "../../platform/observability/telemetry";
import { assertConsentLive } from "./consent-record";

const on = (field: string, code: ApiErrorCode) => ({ fieldErrors: [fieldError(field, code)] });

/**
 * A credential logs in at its own provider, a global certificate at any provider taking certificates: else
 * 400 PROVIDER_CODE_MISMATCH or 422 CREDENTIAL_INSUFFICIENT_FOR_PROVIDER, on `field` (a job's credentialId, a
 * check's providerCode).
 */
export function assertLogsInAt(credentialProviderCode: string, provider: ProviderDefinition, field: string): void {
  if (credentialProviderCode === GLOBAL_PROVIDER) {
    if (!provider.acceptedAuthMethods.includes("CERTIFICATE")) throw new ApiError("CREDENTIAL_INSUFFICIENT_FOR_PROVIDER", on(field, "CREDENTIAL_INSUFFICIENT_FOR_PROVIDER"));
  } else if (credentialProviderCode !== provider.code) {
    throw new ApiError("PROVIDER_CODE_MISMATCH", on(field, "PROVIDER_CODE_MISMATCH"));
  }
}

/** The credential a job names must be live, and one that logs in at the job's provider. */
function named(row: CredentialCandidate | undefined, provider: ProviderDefinition): CredentialCandidate {
  const field = "body.credentialId";
  if (!row) throw new ApiError("CREDENTIAL_NOT_FOUND", on(field, "CREDENTIAL_NOT_FOUND"));
  if (row.status === "DELETED") throw new ApiError("CREDENTIAL_REVOKED", on(field, "CREDENTIAL_REVOKED"));
  if (row.status === "SUPERSEDED") throw new ApiError("CREDENTIAL_SUPERSEDED", on(field, "CREDENTIAL_SUPERSEDED"));
  assertLogsInAt(row.providerCode, provider, field);
  return row;
}

/**
 * Without a credentialId: the provider's own credentials first, global certificates only where it has none;
 * the only one, else the default, else the caller must choose.
 */
function byDefault(candidates: readonly CredentialCandidate[], provider: ProviderDefinition): CredentialCandidate | null {
  const own = candidates.filter((c) => c.providerCode === provider.code);
  const pool = own.length > 0 ? own : candidates;
  if (pool.length <= 1) return pool[0] ?? null;
  const chosen = pool.find((c) => c.isDefault);
  if (chosen) return chosen;
  throw new ApiError("CREDENTIAL_PROVIDER_DUPLICATED", {
    message: `이 기관(${provider.code})의 자격 증명이 ${pool.length}개이고 기본 자격 증명이 없습니다. credentialId로 하나를 고르거나 PATCH /api/v1/credentials/{id}로 기본 자격 증명을 정해 주세요.`,
  });
}

/**
 * The credential a new job takes (domain/jobs/create.ts), from what `jobCredentialCandidatesStatement` read; null when
 * the workspace holds none for the provider (the job is then born Failed, CREDENTIAL_NOT_FOUND). An expired
 * certificate cannot log in anywhere, and an ended consent allows nothing: both refused before anything is stored.
 */
export function chooseJobCredential(candidates: readonly CredentialCandidate[], provider: ProviderDefinition, credentialId: string | undefined, now: number, keyring: string): CredentialCandidate | null {
  const chosen = credentialId ? named(candidates[0], provider) : byDefault(candidates, provider);
  if (chosen?.notAfter && Date.parse(chosen.notAfter) <= now) {
    throw new ApiError("CREDENTIAL_EXPIRED", { message: "인증서의 유효기간이 지난 자격 증명입니다. 새 인증서로 다시 등록해 주세요." });
  }
  if (chosen) assertConsentLive(chosen.consentEndsAt, now);
  if (chosen?.keyVersion != null) assertOpenable(chosen, keyring);
  return chosen;
}

/**
 * A job must be able to open its secret: one sealed under a newer master key than this worker knows waits for the
 * rollout (409 CREDENTIAL_NATIVE_REWRAP_IN_PROGRESS, a minute); one whose key left the keyring can never be opened
 * (500 CONNECTION_CREDENTIAL_UNREADABLE, flagged for operators: a key was retired too early or lost).
 */
function assertOpenable(chosen: CredentialCandidate, keyring: string): void {
  const state = keyVersionState(keyring, chosen.keyVersion!);
  if (state === "newer") {
    throw new ApiError("CREDENTIAL_NATIVE_REWRAP_IN_PROGRESS", {
      message: "자격 증명을 새 암호화 키로 옮기는 배포가 진행 중입니다. 1분 뒤 다시 요청해 주세요.",
      headers: { "Retry-After": "60" },
    });
  }
  if (state === "missing") {
    log("error", "credential-unreadable", { credentialId: chosen.id, keyVersion: chosen.keyVersion });
    throw new ApiError("CONNECTION_CREDENTIAL_UNREADABLE", {
      message: "이 자격 증명의 비밀 값을 열 수 있는 키가 없습니다. 운영팀에 알렸습니다. 같은 계정이나 인증서로 다시 등록하면 바로 쓸 수 있습니다.",
    });
  }
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
