/**
 * A task unit as the worker hands it to a scraper, what it collects with (the decrypted credential, only inside the
 * scraper) and what comes back (raw records, a holder's pending approval, a page's surprise): the wire's data, shared
 * by the worker, the scraper's protocol (scraper-protocol.ts) and the adapters (collectors/adapter.ts).
 */

/**
 * Decrypted login material, handed to an adapter only inside the scraper: a login, a certificate, or a person's
 * Open Banking consent (`OpenBankingConsent`, made by the code exchange, never typed in).
 */
export type LoginCredential =
  | { authMethod: "PROVIDER_LOGIN"; loginId: string; password: string; secondFactor?: string }
  | { authMethod: "CERTIFICATE"; certificate: string; privateKey: string; password: string }
  | SimpleAuthLogin
  | OpenBankingConsent;

/** The 간편인증 apps a relying-party gateway (Hometax's OACX) may ask to confirm a login (docs/institutions/hometax.md). */
export const SIMPLE_AUTH_PROVIDERS = ["kakao", "naver", "pass", "toss", "kica", "kb", "nh", "shinhan", "hana", "woori", "banksalad", "kakaobank"] as const;
export type SimpleAuthProvider = (typeof SIMPLE_AUTH_PROVIDERS)[number];
/** PASS needs the person's carrier; a budget carrier's line goes by its host network. */
export const MOBILE_CARRIERS = ["SKT", "KT", "LGU"] as const;
export type MobileCarrier = (typeof MOBILE_CARRIERS)[number];

/**
 * A person who logs in by 간편인증: who they are, as the app they chose knows them, and that app. No secret of
 * theirs is here: every login is confirmed on their phone (`requestApproval`), so the data alone logs nobody in.
 */
export interface SimpleAuthLogin {
  authMethod: "SIMPLE_AUTH";
  /** As the app knows the person: Hangul or Latin letters, 2-30 characters. */
  name: string;
  /** 11 digits, 010…, without hyphens. */
  phone: string;
  /** YYYYMMDD. */
  birthDate: string;
  provider: SimpleAuthProvider;
  /** PASS only. */
  carrier?: MobileCarrier;
}

/** A login waiting for its holder to approve it on their phone: the app asked, and until when the request stands. */
export interface HolderApproval {
  method: "SIMPLE_AUTH";
  provider: SimpleAuthProvider;
  /** ISO 8601: when the app was asked. */
  since: string;
  /** ISO 8601: when the request lapses (about 5 minutes on, facts K5, K9, K11). */
  until: string;
}

/**
 * A person's consent at KFTC Open Banking (docs/institutions/openbanking.md §1): the tokens KFTC issued to the
 * 이용기관 whose code is `clientUseCode`, for the user `userSeqNo`. `expiresAt` is the access token's end (ISO 8601);
 * `scope` is KFTC's space-separated grant (`login inquiry`). Made by collectors/openbanking/oauth.ts, never typed in;
 * the worker seals it as a credential of auth method `OPEN_BANKING` (docs/credentials.md).
 */
export interface OpenBankingConsent {
  authMethod: "OPEN_BANKING";
  accessToken: string;
  refreshToken: string;
  userSeqNo: string;
  expiresAt: string;
  scope: string;
  clientUseCode: string;
}

/**
 * A provider reached with the deployment's own key, not with anything of a workspace's (a public-data service key:
 * docs/institutions/nts-business-status.md §6). The worker sends this marker and holds no key; the scraper hands the
 * adapter its own key, from its environment, in `ctx.deploymentKey`.
 */
export interface DeploymentKeyCredential {
  authMethod: "DEPLOYMENT_KEY";
}

/** What a protocol adapter may be handed: a login, a certificate, a consent, or the deployment-key marker. */
export type AdapterCredential = LoginCredential | DeploymentKeyCredential;

/** What a job collects from: an account (bank) or a card (card issuer). */
export interface Target {
  /** accountNumber or cardNumberMasked: the key the job's params narrow by. */
  id: string;
  /** provider-specific facts planning and collection need (account type, currency...). */
  attributes: Record<string, string>;
}

export interface DateSegment {
  start: string; // YYYY-MM-DD, inclusive
  end: string; // YYYY-MM-DD, inclusive
}

/** One unit of work: one target x one date segment (either may be absent). */
export interface TaskUnit {
  jobId: string;
  unitIndex: number;
  schema: string;
  target: Target | null;
  segment: DateSegment | null;
  params: Record<string, unknown>;
}

/** A collected record, before the worker validates it against the schema's zod type. */
export type RawRecord = Record<string, unknown>;

/**
 * How a page can surprise an adapter (docs/operations.md, "Scraper failure reports"): a page it has never seen
 * (`SCRAPING_PARSER_NOT_FOUND`), or a page it knows with content it cannot read (`SCRAPING_RESPONSE_MALFORMED`).
 * Both are codes the spec flags for operators; the job fails with the spec's PROVIDER_RESPONSE_MALFORMED.
 */
export type PageSurprise = "SCRAPING_PARSER_NOT_FOUND" | "SCRAPING_RESPONSE_MALFORMED";
