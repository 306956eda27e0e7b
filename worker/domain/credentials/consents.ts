import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { OpenBankingTokenRequest, OpenBankingTokenResponse } from "../../../contracts/scraper-protocol";
import { ProviderFailure } from "../../../collectors/adapter";
import { DEFAULT_OPTIONS, type OpenBankingOptions } from "../../../collectors/openbanking/options";
import { log } from "../../platform/observability/telemetry";
import { database, withoutQueryParams } from "../../platform/database/client";
import { credentials } from "./tables";
import { openCredential, sealCredential } from "../vault/envelope";
import type { ConsentFace } from "./consent-face";
import type { WriteCondition } from "./store";
import { invalidateCredential } from "./job-credential";
import { partnerKeysFor } from "../partners/open-banking-keys";

const DAY_MS = 86_400_000;

/** How long before its access token ends a consent is refreshed (KFTC's tokens live 90 days, O12): a week of retries. */
export const REFRESH_AHEAD_MS = 7 * DAY_MS;
/** Consents one cron run refreshes; the rest are next minute's. Each is one scraper call and one KFTC request. */
export const REFRESHES_PER_RUN = 20;

/** The consent's face from a code exchange (contracts/scraper-protocol.ts), with only the accounts the person agreed to read. */
export function consentFaceOf(grant: OpenBankingTokenResponse, now: number): ConsentFace {
  return {
    clientUseCode: grant.credential.clientUseCode,
    accounts: (grant.accounts ?? []).filter((a) => a.inquiryAgreed).map(({ fintechUseNum, bankCodeStd, bankName, accountNumMasked, accountAlias }) => ({ fintechUseNum, bankCodeStd, bankName, accountNumMasked, accountAlias })),
    givenAt: new Date(now).toISOString(),
    expiresAt: grant.consentExpiresAt,
    tokenExpiresAt: grant.credential.expiresAt,
    refreshableUntil: grant.refreshableUntil,
    refreshedAt: null,
  };
}

/**
 * A recovered consent's new face, while `onlyIf` holds (batched with recovery.ts restoreStatement): the person
 * consented again, so the warnings of its end start over.
 */
export function consentFaceStatement(d1: D1Database, id: string, face: ConsentFace, onlyIf: WriteCondition): D1PreparedStatement {
  return d1
    // Raw: the caller hands its write condition over as SQL text (`onlyIf`), which drizzle's builder cannot take.
    .prepare(`UPDATE credentials SET consent = ?, expiry_warned_days = NULL WHERE id = ? AND status = 'ACTIVE' AND ${onlyIf.condition}`)
    .bind(JSON.stringify(face), id, ...onlyIf.binds);
}

/** Whether a consent has ended or ends within `withinMs`: its own end, or the refresh token's. */
export function consentEnding(face: ConsentFace | null, now: number, withinMs = 0): boolean {
  if (!face) return false;
  return Math.min(Date.parse(face.expiresAt), Date.parse(face.refreshableUntil)) - now <= withinMs;
}

interface DueRow {
  id: string;
  workspaceId: string;
  providerCode: string;
  sealed: string;
  consent: ConsentFace;
}

export type ConsentRefresh = (request: OpenBankingTokenRequest) => Promise<OpenBankingTokenResponse>;

/**
 * Runs `work` under the credential's lease, as a job's login runs (domain/pipeline/consent-refresh.ts); false, and
 * nothing run, while a job or a check holds it.
 */
export type ConsentLease = (credential: { id: string; providerCode: string }, work: () => Promise<void>) => Promise<boolean>;

export interface RefreshCounts {
  refreshed: number;
  /** Refused while the access token had not ended: the tokens kept (RefreshOutcome). */
  kept: number;
  ended: number;
  failed: number;
  /** Left for the next run: a job or a check held the credential's lease. */
  busy: number;
}

/**
 * What one refresh came to. `kept`: KFTC refused it while the access token had not ended by our clock, which may be
 * KFTC refusing an early refresh (unknown, §8) rather than the consent's end: the tokens stay, and the face notes the
 * refusal so the cron tries again only once the token has ended. `ended`: refused after the token's end, so the consent
 * is over (marked, while the pair refused is still the one sealed). `failed`: anything else, tried again later.
 */
export type RefreshOutcome = "refreshed" | "kept" | "ended" | "failed";

/**
 * One consent's refresh through the scraper's token call: the new pair sealed before anything uses it (the old refresh
 * token no longer works), written only if the sealed blob is still the one read (a recovery or deletion meanwhile
 * keeps its own).
 */
async function refreshRow(d1: D1Database, masterKey: string, refresh: ConsentRefresh, row: DueRow, now: number, refusedAtKftc = false): Promise<RefreshOutcome> {
  const db = database(d1);
  const binding = { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode };
  const face = row.consent;
  try {
    const credential = await openCredential(masterKey, binding, row.sealed);
    if (credential.authMethod !== "OPEN_BANKING") throw new ProviderFailure("NO_VALID_CREDENTIAL", "not a consent");
    // The keys the consent was made with, by its 이용기관 code: the acting partner's own (§1.5) when they match,
    // else the deployment's (the scraper's), which refuse another 이용기관's consent (NO_VALID_CREDENTIAL).
    const keys = await partnerKeysFor(d1, masterKey, row.workspaceId, credential.clientUseCode);
    const grant = await refresh({ grant: "refresh_token", credential, consentGivenAt: face.givenAt, ...(keys ? { keys } : {}) });
    const sealed = await sealCredential(masterKey, binding, grant.credential);
    const next: ConsentFace = { ...face, tokenExpiresAt: grant.credential.expiresAt, refreshableUntil: grant.refreshableUntil, refreshedAt: new Date(now).toISOString(), earlyRefreshRefusedAt: null };
    await db
      .update(credentials)
      .set({ sealed, consent: next })
      .where(and(eq(credentials.id, row.id), eq(credentials.status, "ACTIVE"), eq(credentials.sealed, row.sealed)));
    return "refreshed";
  } catch (err) {
    const code = err instanceof ProviderFailure ? err.code : "INTERNAL_ERROR";
    // KFTC's own words stay here, in the operators' log.
    log(code === "NO_VALID_CREDENTIAL" ? "info" : "warn", "open-banking-refresh-failed", { credentialId: row.id, code, detail: err instanceof Error ? withoutQueryParams(err.message) : String(err) });
    if (code !== "NO_VALID_CREDENTIAL") return "failed";
    // Refused while the access token lives by our clock, and nothing else said it ended: an early refresh KFTC does
    // not take, which ends nothing. A job's refresh follows KFTC's own refusal of the token, so its refusal is final.
    if (!refusedAtKftc && Date.parse(face.tokenExpiresAt) > now) {
      await db
        .update(credentials)
        .set({ consent: { ...face, earlyRefreshRefusedAt: new Date(now).toISOString() } })
        .where(and(eq(credentials.id, row.id), eq(credentials.status, "ACTIVE"), eq(credentials.sealed, row.sealed)));
      return "kept";
    }
    // Only the pair this run read: an overlapping run that refreshed first made KFTC refuse this one's.
    await invalidateCredential(d1, row.id, "NO_VALID_CREDENTIAL", now, row.sealed);
    return "ended";
  }
}

/**
 * Refreshes the Open Banking consents that are due (the cron, at most `limit` a run): under the adapter's
 * `refreshPolicy` (collectors/openbanking/options.ts), those whose access token has ended (`after-expiry`, the
 * default) or ends within REFRESH_AHEAD_MS (`ahead`, except one whose early refresh KFTC refused, until its token
 * ends). Each goes through the scraper's token call (`refresh`) under the credential's lease (`leased`: one a job or
 * a check holds waits for the next run, so no job's token is swapped under it). Outcomes as `RefreshOutcome`.
 */
export async function refreshConsents(d1: D1Database, masterKey: string, ports: { refresh: ConsentRefresh; leased: ConsentLease }, now: number, limit = REFRESHES_PER_RUN, policy: OpenBankingOptions["refreshPolicy"] = DEFAULT_OPTIONS.refreshPolicy): Promise<RefreshCounts> {
  const db = database(d1);
  const tokenExpiresAt = sql`json_extract(${credentials.consent}, '$.tokenExpiresAt')`;
  const ended = sql`${tokenExpiresAt} <= ${new Date(now).toISOString()}`;
  const due =
    policy === "ahead"
      ? or(ended, and(sql`${tokenExpiresAt} <= ${new Date(now + REFRESH_AHEAD_MS).toISOString()}`, sql`json_extract(${credentials.consent}, '$.earlyRefreshRefusedAt') IS NULL`))
      : ended;
  const results = (await db
    .select({ id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed, consent: credentials.consent })
    .from(credentials)
    .where(and(eq(credentials.status, "ACTIVE"), eq(credentials.authMethod, "OPEN_BANKING"), isNotNull(credentials.sealed), isNull(credentials.invalidReason), due))
    .orderBy(tokenExpiresAt)
    .limit(limit)
    .all()) as DueRow[];
  const counts: RefreshCounts = { refreshed: 0, kept: 0, ended: 0, failed: 0, busy: 0 };
  for (const row of results) {
    let outcome: RefreshOutcome | "busy" = "failed";
    try {
      const ran = await ports.leased({ id: row.id, providerCode: row.providerCode }, async () => {
        outcome = await refreshRow(d1, masterKey, ports.refresh, row, now);
      });
      if (!ran) outcome = "busy";
    } catch (err) {
      log("warn", "open-banking-refresh-failed", { credentialId: row.id, code: "INTERNAL_ERROR", detail: err instanceof Error ? withoutQueryParams(err.message) : String(err) });
    }
    counts[outcome]++;
  }
  return counts;
}

/**
 * A job's consent that KFTC refused or whose access token ended (NO_VALID_CREDENTIAL from the adapter, which holds no
 * keys): refreshed once for that job, while the pair the job logged in with (`whileSealed`) is still the one sealed
 * (else a newer pair is there already, and the job tries that). Not again once refreshed since `since` (the job's
 * start): a refusal that a fresh pair meets again is the consent's end, not its token's.
 */
export async function refreshForJob(d1: D1Database, masterKey: string, refresh: ConsentRefresh, credentialId: string, since: number, whileSealed: string, now: number): Promise<RefreshOutcome | "newer"> {
  const row = (await database(d1)
    .select({ id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed, consent: credentials.consent })
    .from(credentials)
    .where(and(eq(credentials.id, credentialId), eq(credentials.status, "ACTIVE"), eq(credentials.authMethod, "OPEN_BANKING"), isNull(credentials.invalidReason)))
    .get()) as DueRow | undefined;
  if (!row?.sealed || !row.consent) return "ended";
  if (row.sealed !== whileSealed) return "newer";
  if (row.consent.refreshedAt && Date.parse(row.consent.refreshedAt) >= since) return "ended";
  return refreshRow(d1, masterKey, refresh, row, now, true);
}
