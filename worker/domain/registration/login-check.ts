import { type HolderApproval, type LoginCredential, ProviderFailure } from "../../../collectors/adapter";
import { jobError, type JobError } from "../../../contracts/job-failures";
import type { Bindings } from "../../env";
import { ApiError } from "../../platform/errors/api-error";
import { log } from "../../platform/observability/telemetry";
import { redactText } from "../../../collectors/kit/redaction";
import type { ProviderDefinition } from "../catalog/providers";
import { credentialRegistered } from "../credentials/replace";
import { type ActiveJobCheck, type CredentialRow } from "../credentials/store";
import { AwaitingHolder, type ScraperPort } from "../scraper/port";
import { findProvider } from "../catalog/providers";
import { sessionEnded } from "./events";
import { dropPendingLogin, holdPendingLogin, type PendingLogin, pendingLoginOf, updatePendingLogin } from "./pending-login";
import { assertPending, consumeWithCredential, findSession, MAX_ATTEMPTS, recordFailedAttempt, type SessionRow } from "./sessions";

/** What checking a login at the institution needs from above: the scraper a provider runs on, and the pipeline's lock. */
export interface LoginCheckDeps {
  scraperFor(provider: ProviderDefinition): ScraperPort;
  /** Keeps an approved login for the credential's first job, so its holder is not asked again; false when it could not. */
  keepLogin(credentialId: string, scraperSessionId: string): Promise<boolean>;
  hasActiveJob: ActiveJobCheck;
  /** Lets a login still being made go on after the answer (the request's waitUntil). */
  defer(work: Promise<unknown>): void;
  /** Counts a ring of this person's phone, across sessions and workspaces: 0 when it may ring now, else the ms until it may. */
  holderAsk(phone: string): Promise<number>;
}

/** Where a submitted login stands, as the hosted page shows it. */
export type LoginCheckState = { state: "CONNECTED"; session: SessionRow } | { state: "CHECKING"; sessionId: string } | { state: "AWAITING_HOLDER"; sessionId: string; awaiting: HolderApproval };

/**
 * How long a submission waits for the institution's answer before it says the check goes on: a bank's login takes a
 * few seconds, and a person should not look at a spinner with no word for longer.
 */
export const LOGIN_ANSWER_MS = 20_000;

/** Whether a failure is the institution (or the person's side) refusing the login, rather than it being unable to tell. */
const isRefusal = (error: JobError) => error.category === "CREDENTIAL" || error.category === "USER_ENVIRONMENT";

/** The institution's reason in the person's words: the catalog's, except an approval left to lapse on the phone. */
function refusalMessage(row: Pick<CredentialRow, "authMethod">, error: JobError): string {
  if (row.authMethod === "SIMPLE_AUTH" && error.code === "LOGIN_SECOND_FACTOR_REQUIRED") return "휴대폰의 인증 요청이 승인되지 않은 채 시간이 지났습니다. 다시 연결하기를 눌러 휴대폰에서 승인해 주세요.";
  return error.message;
}

/**
 * Holds the sealed login with the session and logs in with it at the institution. The answer waits LOGIN_ANSWER_MS
 * at most: a login still being made goes on (`defer`) and records what it found in the pending login, for the
 * page's next check. Nothing is stored here unless the institution let the login in.
 */
export async function startLoginCheck(env: Bindings, deps: LoginCheckDeps, session: SessionRow, row: CredentialRow, credential: LoginCredential): Promise<LoginCheckState> {
  const pending: PendingLogin = { checkId: crypto.randomUUID(), row, scraperSessionId: null, awaiting: null, refused: null };
  const earlier = await pendingLoginOf(env.DB, session.id);
  if (!(await holdPendingLogin(env, session.id, pending))) {
    assertPending(await findSession(env.DB, session.workspaceId, session.id));
    throw new ApiError("REGISTRATION_SESSION_NOT_USABLE");
  }
  const provider = findProvider(row.providerCode)!;
  const scraper = deps.scraperFor(provider);
  if (earlier?.scraperSessionId) deps.defer(scraper.closeSession(earlier.scraperSessionId).catch(() => undefined));
  if (credential.authMethod === "SIMPLE_AUTH") {
    const waitMs = await deps.holderAsk(credential.phone);
    if (waitMs > 0) {
      await dropPendingLogin(env.DB, session.id, pending.checkId);
      const seconds = Math.ceil(waitMs / 1000);
      throw new ApiError("API_RATE_LIMITED", {
        message: `이 휴대폰에는 최근 한 시간 동안 인증 요청을 이미 여러 번 보냈습니다. ${Math.ceil(seconds / 60)}분 뒤에 다시 연결하기를 눌러 주세요. 입력한 정보는 저장하지 않았습니다.`,
        headers: { "Retry-After": String(seconds) },
      });
    }
  }
  const login = scraper.openSession(provider.code, credential, row.businessNumber ?? undefined).then(
    async (opened) => {
      // A newer submission replaced this one meanwhile: its login is not wanted.
      if (!(await updatePendingLogin(env.DB, session.id, pending.checkId, { scraperSessionId: opened.sessionId, awaiting: opened.awaiting ?? null }))) await scraper.closeSession(opened.sessionId);
    },
    (err: unknown) => updatePendingLogin(env.DB, session.id, pending.checkId, { refused: failureOf(err) }),
  );
  const answered = await Promise.race([login.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, LOGIN_ANSWER_MS, false))]);
  if (!answered) {
    deps.defer(login);
    return { state: "CHECKING", sessionId: session.id };
  }
  return advance(env, deps, session, false);
}

/** A failure as the job catalog names it; anything that is not the institution's is logged, its text redacted. */
function failureOf(err: unknown): JobError {
  if (err instanceof ProviderFailure) return jobError(err.code, err.retryAfterSeconds);
  log("error", "registration-check-error", { error: redactText(String(err)) });
  return jobError("INTERNAL_ERROR");
}

/**
 * The hosted page's check of the login it submitted (GET/POST /connect/api/registrations/check): asks the scraper
 * whether the login is through (`ready` waits for the holder's approval a while), and stores it once it is.
 */
export function checkPendingLogin(env: Bindings, deps: LoginCheckDeps, session: SessionRow): Promise<LoginCheckState> {
  return advance(env, deps, session, true);
}

async function advance(env: Bindings, deps: LoginCheckDeps, session: SessionRow, waitForHolder: boolean): Promise<LoginCheckState> {
  const pending = await pendingLoginOf(env.DB, session.id);
  if (!pending) throw new ApiError("REGISTRATION_SESSION_NOT_USABLE", { message: "확인 중인 로그인이 없습니다. 입력한 뒤 연결하기를 눌러 주세요." });
  if (pending.refused) return refuse(env, session, pending, pending.refused);
  if (!pending.scraperSessionId) return { state: "CHECKING", sessionId: session.id };
  // A login that asks its holder is answered at once on submission; the page's checks then wait for the phone.
  if (pending.awaiting && !waitForHolder) return { state: "AWAITING_HOLDER", sessionId: session.id, awaiting: pending.awaiting };
  const scraper = deps.scraperFor(findProvider(pending.row.providerCode)!);
  try {
    await scraper.ready(pending.scraperSessionId);
  } catch (err) {
    if (err instanceof AwaitingHolder) {
      await updatePendingLogin(env.DB, session.id, pending.checkId, { awaiting: err.approval });
      return { state: "AWAITING_HOLDER", sessionId: session.id, awaiting: err.approval };
    }
    return refuse(env, session, pending, failureOf(err));
  }
  return store(env, deps, session, pending);
}

/**
 * The institution refused the login (or could not tell): it is dropped, nothing superseded. A refusal counts against
 * the session's attempts, and the page shows the institution's reason with the attempts left; a check that could not
 * tell costs no attempt.
 */
async function refuse(env: Bindings, session: SessionRow, pending: PendingLogin, error: JobError): Promise<never> {
  await dropPendingLogin(env.DB, session.id, pending.checkId);
  if (!isRefusal(error)) throw new ApiError("CREDENTIAL_PROBE_FAILED", { message: `${error.message} 입력한 정보는 저장하지 않았습니다.` });
  await recordFailedAttempt(env, session.id);
  const left = MAX_ATTEMPTS - (session.attempts + 1);
  const attempts = left > 0 ? ` 남은 시도: ${left}회.` : " 시도 횟수를 모두 써서 이 등록 화면은 닫힙니다.";
  // The person's own input refused: not an alert for operators.
  throw new ApiError("CREDENTIAL_PROBE_FAILED", { message: `${refusalMessage(pending.row, error)}${attempts}`, noise: true });
}

/**
 * The institution let the login in: it is stored as a submission stores a credential (superseding the same login's
 * earlier row, in the transaction that consumes the session), already VALID. An approved 간편인증 login is handed to
 * the credential's lock for its first job; any other is logged out, as a check's is.
 */
async function store(env: Bindings, deps: LoginCheckDeps, session: SessionRow, pending: PendingLogin): Promise<LoginCheckState> {
  const now = Date.now();
  const row: CredentialRow = { ...pending.row, checkState: "VALID", checkId: null, checkError: null, checkedAt: now };
  const scraper = deps.scraperFor(findProvider(row.providerCode)!);
  const sessionId = pending.scraperSessionId!;
  const { after, superseded } = await consumeWithCredential(env, session, row, now).catch(async (err: unknown) => {
    await scraper.closeSession(sessionId).catch(() => undefined);
    throw err;
  });
  if (!(row.authMethod === "SIMPLE_AUTH" && (await deps.keepLogin(row.id, sessionId)))) await scraper.closeSession(sessionId).catch(() => undefined);
  await credentialRegistered(env, row, superseded, deps.hasActiveJob);
  await sessionEnded(env, after);
  return { state: "CONNECTED", session: after };
}
