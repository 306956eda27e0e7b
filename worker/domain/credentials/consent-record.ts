import { allProviders } from "../catalog/providers";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { requestingPartner } from "../partners/connections";
import { consentTermsOf } from "../workspaces/store";
import type { ConsentFace } from "./consent-face";
import { CONSENT_TEXTS } from "./consent-text";
import { GLOBAL_PROVIDER } from "./identity";

const DAY_MS = 86_400_000;

/** What a workspace registering its own login through the API consents to: no page showed a text. */
const OWN_PURPOSE = "워크스페이스가 직접 등록한 자기 자격 증명으로 자기 자료 조회";

/**
 * The consent a credential's holder gave (docs/credentials.md, "The consent record"): kept beside the credential,
 * in the clear (nothing in it opens anything), and kept after deletion or withdrawal, as what an audit needs.
 */
export interface ConsentRecord {
  givenAt: string;
  /** The period the workspace sets (at most a year), or an Open Banking consent's own end where sooner. */
  expiresAt: string;
  /** On whose behalf: the workspace the credential is held in, and the partner acting for it when one asked. */
  workspaceId: string;
  workspaceName: string;
  partner: { id: string; name: string | null } | null;
  purpose: string;
  /** The version of the consent text (consent-text.ts) the hosted page showed; null when registered through the API. */
  textVersion: string | null;
  /** When the holder withdrew it through the manage link (domain/consent-withdrawal); null otherwise. */
  withdrawnAt: string | null;
}

/**
 * How long a consent given now for `workspaceId` lasts, in days: the setting of the partner acting for it when one is
 * (its product asks for the consent), else the workspace's own.
 */
export async function consentPeriodDays(d1: D1Database, workspaceId: string, partner?: { id: string } | null): Promise<number> {
  const asker = partner === undefined ? await requestingPartner(d1, workspaceId) : partner;
  return (await consentTermsOf(d1, asker?.id ?? workspaceId)).days;
}

/**
 * The record of a consent given now for `workspaceId`: through the hosted page (`textVersion`, the text it showed) or
 * through the API (null). An Open Banking consent's own end caps the workspace's period.
 */
export async function newConsentRecord(d1: D1Database, workspaceId: string, textVersion: string | null, face: ConsentFace | null | undefined, now: number): Promise<ConsentRecord> {
  const [terms, partner] = await Promise.all([consentTermsOf(d1, workspaceId), requestingPartner(d1, workspaceId)]);
  const end = Math.min(now + (await consentPeriodDays(d1, workspaceId, partner)) * DAY_MS, face ? Date.parse(face.expiresAt) : Infinity);
  return {
    givenAt: isoTime(now),
    expiresAt: isoTime(end),
    workspaceId,
    workspaceName: terms.name,
    partner,
    purpose: textVersion ? CONSENT_TEXTS[textVersion]!.purpose : OWN_PURPOSE,
    textVersion,
    withdrawnAt: null,
  };
}

/** What the consent covers: the providers the credential logs in at and the schemas consented (every one served when none were named). */
export function consentCoverage(providerCode: string, schemas: readonly string[] | null): { providerCodes: string[]; schemas: string[] } {
  const providers = allProviders().filter((p) => (providerCode === GLOBAL_PROVIDER ? p.acceptedAuthMethods.includes("CERTIFICATE") : p.code === providerCode));
  const served = [...new Set(providers.flatMap((p) => p.schemas))].sort();
  return { providerCodes: providers.map((p) => p.code), schemas: schemas ? [...schemas] : served };
}

/** The record as the API shows it, with what it covers. */
export function consentRecordView(record: ConsentRecord, providerCode: string, schemas: readonly string[] | null) {
  return {
    givenAt: record.givenAt,
    expiresAt: record.expiresAt,
    withdrawnAt: record.withdrawnAt,
    onBehalfOf: { workspaceId: record.workspaceId, workspaceName: record.workspaceName, partner: record.partner },
    ...consentCoverage(providerCode, schemas),
    purpose: record.purpose,
    textVersion: record.textVersion,
  };
}

/** A job on a credential whose consent has ended collects nothing: 409 CREDENTIAL_EXPIRED, saying to ask the holder again. */
export function assertConsentLive(expiresAt: string | null, now: number): void {
  if (expiresAt === null || Date.parse(expiresAt) > now) return;
  const message = `이 자격 증명의 소유자 동의가 ${expiresAt}에 끝났습니다. 복구 세션(recoverCredentialId)으로 다시 동의를 받아 주세요.`;
  throw new ApiError("CREDENTIAL_EXPIRED", { message, fieldErrors: [fieldError("body.credentialId", "CREDENTIAL_EXPIRED", message)] });
}
