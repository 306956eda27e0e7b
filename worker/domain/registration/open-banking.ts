import { and, eq, gt } from "drizzle-orm";
import { ProviderFailure } from "../../../collectors/adapter";
import { authorizationUrl, newState, readCallback } from "../../../collectors/openbanking/oauth";
import { parseInstitutionBaseUrls } from "../../../collectors/kit/protocol/stand-ins";
import { jobError } from "../../../contracts/job-failures";
import type { OpenBankingTokenResponse } from "../../../contracts/scraper-protocol";
import type { Bindings } from "../../env";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { sha256Hex } from "../../platform/lib/crypto";
import { log } from "../../platform/observability/telemetry";
import { findProvider, takesConsent } from "../catalog/providers";
import { partnerClientIdFor, partnerKeysFor } from "../partners/open-banking-keys";
import type { ActiveJobCheck } from "../credentials/store";
import { scraperClient } from "../scraper/binding";
import { assertMayUseProvider } from "../workspaces/store";
import { type RegistrationOption, recordFailedAttempt, type SessionRow, usableSessionForPage } from "./sessions";
import { registerConsent } from "./consent-registration";
import { registrationSessions } from "./tables";

/** How long a consent's `state` is good: the person logs in and picks accounts at KFTC's page meanwhile. */
export const CONSENT_STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/connect/open-banking/callback";

/** What the hosted page learns of the last consent of its session (GET /connect/api/open-banking/consent). */
export type ConsentOutcome = { state: "WAITING" } | { state: "CONNECTED" } | { state: "FAILED"; code: string; message: string };

/**
 * The redirect_uri: the Callback URL registered at KFTC, from the deployment's configuration only. Never derived from
 * the request (its Host header is the caller's to choose); a deployment without it is incomplete
 * (configuration-problems.ts) and takes no consent.
 */
export function callbackUrl(env: Pick<Bindings, "OPENBANKING_CALLBACK_URL">): string {
  if (!env.OPENBANKING_CALLBACK_URL) throw new ApiError("SCRAPING_ENGINE_UNAVAILABLE", { message: "이 서비스에는 오픈뱅킹 콜백 주소 설정이 없어 동의를 받을 수 없습니다. 서비스 운영자에게 문의해 주세요." });
  return env.OPENBANKING_CALLBACK_URL;
}

/** A real host's URL at its stand-in (INSTITUTION_BASE_URLS), path and query kept: what a browser can reach here. */
function standIn(url: string, env: Pick<Bindings, "INSTITUTION_BASE_URLS">): string {
  const base = parseInstitutionBaseUrls(env.INSTITUTION_BASE_URLS).openbanking?.[new URL(url).hostname];
  if (!base) return url;
  const real = new URL(url);
  return `${base.replace(/\/+$/, "")}${real.pathname}${real.search}`;
}

/** The session's Open Banking option (a recovery session's is its consent's own), or 403 REGISTRATION_SESSION_OPTION_NOT_ALLOWED. */
export function consentOptionOf(session: SessionRow, providerCode: string): RegistrationOption & { kind: "PROVIDER_LOGIN" } {
  const option = session.options.find((o): o is RegistrationOption & { kind: "PROVIDER_LOGIN" } => o.kind === "PROVIDER_LOGIN" && o.providerCode === providerCode);
  const provider = findProvider(providerCode);
  if (!option || !provider || !takesConsent(provider)) throw new ApiError("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
  return option;
}

/**
 * Starts a consent for the session the token opens: a fresh `state` (only its hash is kept, good for
 * CONSENT_STATE_TTL_MS and once, replacing any earlier one) bound to the session, and the authorization page's URL
 * with it (mapped to the stand-in where there is one). A refusal counts as a failed attempt, as a submission's does.
 */
export async function startConsent(env: Bindings, token: string, providerCode: string): Promise<{ authorizationUrl: string; expiresAt: number }> {
  const session = await usableSessionForPage(env.DB, token);
  const redirectUri = callbackUrl(env);
  try {
    consentOptionOf(session, providerCode);
  } catch (err) {
    await recordFailedAttempt(env, session.id);
    throw err;
  }
  // Before KFTC's page is named: the consent would be given, and exchanged on our keys, only to be refused at the callback.
  await assertMayUseProvider(env.DB, session.workspaceId, findProvider(providerCode)!);
  // A session a partner issued for one of its businesses uses the partner's own keys, if it set them (§1.5).
  const clientId = (await partnerClientIdFor(env.DB, session.workspaceId)) ?? env.OPENBANKING_CLIENT_ID;
  if (!clientId) {
    throw new ApiError("SCRAPING_ENGINE_UNAVAILABLE", { message: "이 서비스에는 오픈뱅킹 이용기관 설정이 없어 동의를 받을 수 없습니다. 서비스 운영자에게 문의해 주세요." });
  }
  const state = newState();
  const now = Date.now();
  const expiresAt = Math.min(now + CONSENT_STATE_TTL_MS, session.expiresAt);
  const bound = await database(env.DB)
    .update(registrationSessions)
    .set({ consentStateHash: await sha256Hex(state), consentStateExpiresAt: expiresAt, consentOutcome: null })
    .where(and(eq(registrationSessions.id, session.id), eq(registrationSessions.status, "PENDING"), gt(registrationSessions.expiresAt, now)))
    .returning({ id: registrationSessions.id })
    .get();
  if (!bound) throw new ApiError("REGISTRATION_SESSION_NOT_USABLE");
  const url = authorizationUrl({ environment: "production", clientId, redirectUri, state });
  return { authorizationUrl: standIn(url, env), expiresAt };
}

/** The last consent's outcome, for the hosted page: it polls while the person is at KFTC's page. Any status of the session. */
export async function consentOutcome(env: Bindings, token: string): Promise<ConsentOutcome> {
  const row = token.startsWith("rst_")
    ? await database(env.DB).select({ outcome: registrationSessions.consentOutcome }).from(registrationSessions).where(eq(registrationSessions.tokenHash, await sha256Hex(token))).get()
    : undefined;
  if (!row) throw new ApiError("REGISTRATION_SESSION_TOKEN_INVALID");
  return row.outcome ?? { state: "WAITING" };
}

const REFUSED = "오픈뱅킹 동의가 취소되었거나 끝나지 않았습니다. 등록 화면으로 돌아가 다시 동의해 주세요.";
const UNKNOWN_STATE = "이 동의 요청은 이미 처리되었거나 만료되었습니다. 등록 화면으로 돌아가 다시 시작해 주세요.";

/** A Korean sentence for the person, by the catalog code: the job catalog's words, the consent's own for LOGIN_FAILED. */
function failureText(code: string, fallback?: string): string {
  if (code === "LOGIN_FAILED") return REFUSED;
  return fallback ?? jobError(code).message;
}

/**
 * The hosted page completes the consent its own window came back from (docs/institutions/openbanking.md §1.6): KFTC's
 * answer (`code` and `state`, or `error`) reaches it only from the callback page it opened, by postMessage, so only the
 * browser that shows the hosted page can finish. The session is checked first (cancelled, expired, consumed or locked
 * answers its error and nothing is exchanged, so KFTC holds no orphan consent of ours); the state must be the one
 * bound to this very session (its hash, cleared in the same statement: once); then `readCallback`, the exchange by the
 * scraper, and the registration in the transaction that consumes the session, with the consent text the page showed.
 * Whatever fails after the state is used is recorded on the session, with a catalog code and Korean words; KFTC's own
 * text goes to the operators' log only.
 */
export async function completeConsent(env: Bindings, token: string, query: URLSearchParams, consentTextVersion: string, hasActiveJob: ActiveJobCheck): Promise<ConsentOutcome> {
  const session = await usableSessionForPage(env.DB, token);
  const redirectUri = callbackUrl(env);
  const state = query.get("state") ?? "";
  const now = Date.now();
  const t = registrationSessions;
  const used = state
    ? await database(env.DB)
        .update(t)
        .set({ consentStateHash: null })
        .where(and(eq(t.id, session.id), eq(t.consentStateHash, await sha256Hex(state)), eq(t.status, "PENDING"), gt(t.expiresAt, now)))
        .returning({ until: t.consentStateExpiresAt })
        .get()
    : undefined;
  if (!used) return { state: "FAILED", code: "LOGIN_FAILED", message: UNKNOWN_STATE };
  let outcome: ConsentOutcome;
  try {
    if ((used.until as number) <= now) throw new ProviderFailure("LOGIN_FAILED", "open banking consent came back after its state expired");
    const { code } = readCallback(query, state);
    const grant = await exchange(env, session.workspaceId, code, redirectUri);
    await registerConsent(env, session, grant, consentTextVersion, hasActiveJob);
    return { state: "CONNECTED" };
  } catch (err) {
    outcome = failed(session, err);
  }
  // A consent that did not complete counts as a failed attempt, as a rejected submission does (a session no longer
  // taking input is left as it is).
  await recordFailedAttempt(env, session.id);
  await database(env.DB).update(t).set({ consentOutcome: outcome as Exclude<ConsentOutcome, { state: "WAITING" }> }).where(eq(t.id, session.id));
  return outcome;
}

function failed(session: SessionRow, err: unknown): ConsentOutcome {
  if (err instanceof ApiError) return { state: "FAILED", code: err.code, message: err.message };
  const code = err instanceof ProviderFailure ? err.code : "INTERNAL_ERROR";
  log(code === "LOGIN_FAILED" ? "info" : "warn", "open-banking-consent-failed", { sessionId: session.id, code, detail: err instanceof Error ? err.message : String(err) });
  return { state: "FAILED", code, message: failureText(code) };
}

/** The code exchanged with the keys the authorization URL named: the acting partner's own, else the deployment's. */
async function exchange(env: Bindings, workspaceId: string, code: string, redirectUri: string): Promise<OpenBankingTokenResponse> {
  const scraper = scraperClient(env);
  if (!scraper) throw new ProviderFailure("ENGINE_CRASHED", "no scraper configured");
  const keys = await partnerKeysFor(env.DB, env.VAULT_MASTER_KEY, workspaceId);
  return scraper.openBankingToken({ grant: "authorization_code", code, redirectUri, ...(keys ? { keys } : {}) });
}
