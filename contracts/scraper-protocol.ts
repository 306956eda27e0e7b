import type { AdapterCredential, HolderApproval, OpenBankingConsent, PageSurprise, RawRecord, Target, TaskUnit } from "./task-unit";

/**
 * The scraper container's HTTP protocol (docs/scraper-runtime.md), shared by
 * the worker's client and the container's server so the two cannot drift.
 */
export const scraperPaths = {
  sessions: "/sessions",
  session: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}`,
  targets: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/targets`,
  collect: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/collect`,
  /** 200 once the session is logged in; 202 (AwaitingHolderResponse) while its holder has not approved it. */
  ready: (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}/ready`,
  sftpUploads: "/deliveries/sftp",
  openBankingTokens: "/open-banking/tokens",
};

/**
 * An Open Banking token call (docs/institutions/openbanking.md §1.2), made by the scraper because it is the one
 * component that reaches institutions (its egress and stand-ins): the code of a consent just given, exchanged at
 * once and read back with user/me; or a consent's refresh. The 이용기관's keys are the scraper's own
 * (OPENBANKING_CLIENT_ID, OPENBANKING_CLIENT_SECRET, OPENBANKING_CLIENT_USE_CODE; the worker never holds that secret),
 * or a partner's own, carried in the request (`keys`).
 */
export type OpenBankingTokenRequest = (
  | { grant: "authorization_code"; code: string; redirectUri: string }
  | { grant: "refresh_token"; credential: OpenBankingConsent; consentGivenAt: string }
) & {
  /**
   * A partner's own 이용기관 keys (docs/institutions/openbanking.md §1.5), opened by the worker for a consent of one of
   * that partner's businesses: the scraper uses them instead of its own for this call, and never logs them.
   */
  keys?: { clientId: string; clientSecret: string; clientUseCode: string };
};

export interface OpenBankingTokenResponse {
  /** The tokens to seal: the old refresh token no longer works after a refresh. */
  credential: OpenBankingConsent;
  refreshableUntil: string;
  consentExpiresAt: string;
  /** After a code exchange: the accounts the person consented to (user/me); absent after a refresh. */
  accounts?: { fintechUseNum: string; bankCodeStd: string; bankName: string; accountNumMasked: string; accountAlias: string | null; inquiryAgreed: boolean }[];
}

/**
 * One file of a route delivery to a partner's SFTP server (worker/domain/deliveries/), uploaded by the scraper, which speaks
 * SSH where the worker cannot: the file is the request's body, where to put it this header's base64url JSON.
 */
export const SFTP_UPLOAD_HEADER = "X-Sftp-Upload";

export interface SftpUpload {
  host: string;
  port: number;
  username: string;
  /** A password, or a private key in OpenSSH or PEM form. */
  secret: string;
  /** The server's host key's SHA-256 fingerprint, base64: any other key is refused before anything is sent. */
  hostKeySha256: string;
  /** The directory the file lands in (made when missing) and its name. */
  directory: string;
  name: string;
}

export interface SftpUploadResponse {
  bytes: number;
}

/** Every request but `GET /healthz` carries the secret the worker and the scraper share (SCRAPER_SHARED_SECRET). */
export const scraperAuthorization = (sharedSecret: string) => `Bearer ${sharedSecret}`;

/** Short secrets could be guessed; the local scripts make 43-character ones. Both ends refuse a shorter one. */
export const MIN_SHARED_SECRET_LENGTH = 32;

/** Largest request body the scraper reads; a credential or one unit is far below it. */
export const MAX_SCRAPER_BODY_BYTES = 1024 * 1024;

/** Which institution to log in to; where its site is comes from the scraper's own table, never from the caller. */
export interface OpenSessionRequest {
  providerCode: string;
  /** A workspace's login, or `DEPLOYMENT_KEY` for a provider reached with the scraper's own key (it holds the key, the worker never does). */
  credential: AdapterCredential;
  /** The business the session collects for (the adapter's `ctx.businessNumber`). */
  businessNumber?: string;
}
export interface OpenSessionResponse {
  sessionId: string;
  /**
   * A login its holder must approve on their phone (간편인증): the app was asked, and the session is logged in only
   * once they approve. Its targets and collect calls then answer 202 with `AwaitingHolderResponse` while they have not.
   */
  awaiting?: HolderApproval;
}

/**
 * The answer (HTTP 202) of a targets or collect call on a session whose holder has not approved its login yet: the
 * scraper asked the gateway for up to APPROVAL_WAIT_MS first, so the caller asks again at once.
 */
export interface AwaitingHolderResponse {
  awaiting: HolderApproval;
}

/**
 * How long a login its holder approved on their phone is kept between jobs, by the scraper (its session's idle life)
 * and the worker (the credential lock's keep): inside the portal's own idle life, about 30 minutes (facts K1, K19), so
 * one approval serves the credential's jobs of a while.
 */
export const APPROVED_LOGIN_KEEP_MS = 25 * 60_000;

/** How long one targets or collect call waits for a holder's approval before answering 202: well inside the worker's bound of the call. */
export const APPROVAL_WAIT_MS = 20_000;

export interface TargetsRequest {
  schema: string;
}
export interface TargetsResponse {
  targets: Target[];
}

export interface CollectRequest {
  unit: TaskUnit;
}
export interface CollectResponse {
  records: RawRecord[];
}

/**
 * Every non-2xx answer: a job failure catalog code, its Korean message, and a wait when the cause has one;
 * `detail` is what the institution showed, for the operators' log only (the service never passes it to partners).
 */
export interface FailureResponse {
  failure: { code: string; message: string; retryAfterSeconds?: number; detail?: string };
  /** A page the adapter could not read, as the scraper kept it for operators (worker/domain/reports/). */
  report?: PageReport;
}

/** The most of a page's HTML a report keeps: enough for any institution's page, bounded for the answer and R2. */
export const MAX_REPORT_HTML_CHARS = 512 * 1024;

/**
 * What a failure report holds (docs/operations.md, "Scraper failure reports"): where the adapter was, which version
 * of it, and the page as it was with personal data redacted in place (HTML and a JPEG screenshot, base64), or null
 * for an adapter with no page (the protocol kind).
 */
export interface PageReport {
  surprise: PageSurprise;
  /** `login`, `targets <schema>` or `collect <schema>`. */
  step: string;
  adapterVersion: string;
  detail: string;
  url: string | null;
  html: string | null;
  screenshot: string | null;
}

/**
 * A scraper call carried over a runner's WebSocket (worker/domain/scraper/runner-hub.ts to scraper-container/runner.ts),
 * and its answer, matched by `id`.
 */
export interface RunnerRequest {
  id: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | null;
}
export interface RunnerResponse {
  id: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}
