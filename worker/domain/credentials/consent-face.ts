/**
 * What the service shows and schedules by of an Open Banking consent (docs/credentials.md, "Open Banking
 * consents"), kept in the clear beside the sealed tokens as a certificate's face is: nothing in it opens anything.
 */
export interface ConsentFace {
  /** The 이용기관 (KFTC client) the tokens were issued to: the deployment's, or a partner's own. */
  clientUseCode: string;
  /** The accounts the person consented to, as KFTC's user/me named them at consent. */
  accounts: ConsentedAccountFace[];
  /** When the person consented (ISO 8601). */
  givenAt: string;
  /** When the consent itself ends (the adapter's consentDays after it was given): a new consent is needed then. */
  expiresAt: string;
  /** The access token's end: the cron refreshes by it (consents.ts, under the adapter's `refreshPolicy`). */
  tokenExpiresAt: string;
  /** The refresh token's end: past it, nothing but a new consent brings the credential back. */
  refreshableUntil: string;
  /** The last refresh, or null. */
  refreshedAt: string | null;
  /** When KFTC last refused a refresh before the access token's end (consents.ts RefreshOutcome `kept`); cleared by a refresh. */
  earlyRefreshRefusedAt?: string | null;
}

export interface ConsentedAccountFace {
  /** KFTC's fintech_use_num: the job's target id (`accountNumber` of the records). */
  fintechUseNum: string;
  bankCodeStd: string;
  bankName: string;
  /** As KFTC masks it (`300123-0000-***`). */
  accountNumMasked: string;
  accountAlias: string | null;
}

/** The label a consent shows when its owner names none: the first bank and how many accounts. */
export function consentLabel(face: ConsentFace): string {
  const [first, ...rest] = face.accounts;
  if (!first) return "오픈뱅킹 동의";
  return `오픈뱅킹 ${first.bankName} ${first.accountNumMasked}${rest.length ? ` 외 ${rest.length}개` : ""}`;
}
