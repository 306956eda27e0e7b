import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { OpenBankingTokenRequest, OpenBankingTokenResponse } from "../../../contracts/scraper-protocol";
import { ProviderFailure } from "../../../collectors/adapter";
import { log } from "../../platform/observability/telemetry";
import { database, withoutQueryParams } from "../../platform/database/client";
import { credentials } from "./tables";
import { openCredential, sealCredential } from "../vault/envelope";
import type { ConsentFace } from "./consent-face";
import { invalidateCredential, type WriteCondition } from "./store";
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
  ended: number;
  failed: number;
  /** Left for the next run: a job or a check held the credential's lease. */
  busy: number;
}

/**
 * Refreshes the Open Banking consents whose access token ends within REFRESH_AHEAD_MS (the cron, at most `limit`
 * a run), through the scraper's token call (`refresh`), each under the credential's lease (`leased`: one a job or a
 * check holds waits for the next run, so no job's token is swapped under it): the new pair is sealed before anything
 * uses it, as the old refresh token no longer works. Written only if the sealed blob is still the one read (a recovery or deletion
 * meanwhile keeps its own). A refusal (NO_VALID_CREDENTIAL: the consent ended) of the pair read marks the credential, so jobs fail
 * without calling KFTC and a recovery session may ask the person again; anything else is tried again next run.
 */
export async function refreshConsents(d1: D1Database, masterKey: string, ports: { refresh: ConsentRefresh; leased: ConsentLease }, now: number, limit = REFRESHES_PER_RUN): Promise<RefreshCounts> {
  const db = database(d1);
  const tokenExpiresAt = sql`json_extract(${credentials.consent}, '$.tokenExpiresAt')`;
  const results = (await db
    .select({ id: credentials.id, workspaceId: credentials.workspaceId, providerCode: credentials.providerCode, sealed: credentials.sealed, consent: credentials.consent })
    .from(credentials)
    .where(
      and(
        eq(credentials.status, "ACTIVE"),
        eq(credentials.authMethod, "OPEN_BANKING"),
        isNotNull(credentials.sealed),
        isNull(credentials.invalidReason),
        sql`${tokenExpiresAt} <= ${new Date(now + REFRESH_AHEAD_MS).toISOString()}`,
      ),
    )
    .orderBy(tokenExpiresAt)
    .limit(limit)
    .all()) as DueRow[];
  const counts: RefreshCounts = { refreshed: 0, ended: 0, failed: 0, busy: 0 };
  for (const row of results) {
    const binding = { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode };
    const face = row.consent;
    try {
      const ran = await ports.leased({ id: row.id, providerCode: row.providerCode }, async () => {
        const credential = await openCredential(masterKey, binding, row.sealed);
        if (credential.authMethod !== "OPEN_BANKING") throw new ProviderFailure("NO_VALID_CREDENTIAL", "not a consent");
        // The keys the consent was made with, by its 이용기관 code: the acting partner's own (§1.5) when they match,
        // else the deployment's (the scraper's), which refuse another 이용기관's consent (NO_VALID_CREDENTIAL).
        const keys = await partnerKeysFor(d1, masterKey, row.workspaceId, credential.clientUseCode);
        const grant = await ports.refresh({ grant: "refresh_token", credential, consentGivenAt: face.givenAt, ...(keys ? { keys } : {}) });
        const sealed = await sealCredential(masterKey, binding, grant.credential);
        const next: ConsentFace = { ...face, tokenExpiresAt: grant.credential.expiresAt, refreshableUntil: grant.refreshableUntil, refreshedAt: new Date(now).toISOString() };
        await db
          .update(credentials)
          .set({ sealed, consent: next })
          .where(and(eq(credentials.id, row.id), eq(credentials.status, "ACTIVE"), eq(credentials.sealed, row.sealed)));
      });
      counts[ran ? "refreshed" : "busy"]++;
    } catch (err) {
      const code = err instanceof ProviderFailure ? err.code : "INTERNAL_ERROR";
      // KFTC's own words stay here, in the operators' log.
      log(code === "NO_VALID_CREDENTIAL" ? "info" : "warn", "open-banking-refresh-failed", { credentialId: row.id, code, detail: err instanceof Error ? withoutQueryParams(err.message) : String(err) });
      if (code === "NO_VALID_CREDENTIAL") {
        // Only the pair this run read: an overlapping run that refreshed first made KFTC refuse this one's.
        await invalidateCredential(d1, row.id, "NO_VALID_CREDENTIAL", now, row.sealed);
        counts.ended++;
      } else counts.failed++;
    }
  }
  return counts;
}
