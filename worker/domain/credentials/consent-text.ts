/**
 * The consent text the hosted page shows before a person hands over a login, certificate or Open Banking consent,
 * kept here with its version so that a credential's consent record (consent-record.ts) names exactly what was shown.
 * A text is never changed once deployed: a new wording is a new version, added first, and the old one stays so the
 * records naming it can still be read back.
 */
export interface ConsentText {
  /** What the data is collected for, recorded with the consent. */
  purpose: string;
  /** The paragraphs, `{requester}` and `{days}` filled in for the session the page shows. */
  paragraphs: readonly string[];
}

export const CONSENT_TEXTS: Readonly<Record<string, ConsentText>> = {
  "2026-11-27": {
    purpose: "요청한 곳의 서비스 제공을 위한 금융·세무 자료 조회",
    paragraphs: [
      "{requester}이(가) 아래 자료를 조회하도록 이 로그인(또는 인증서, 오픈뱅킹 동의)을 맡깁니다.",
      "수집 목적: 요청한 곳의 서비스 제공을 위한 금융·세무 자료 조회. 아래에 적힌 자료 말고는 수집하지 않습니다.",
      "보관 기간: 동의한 날부터 {days}일. 기간이 끝나면 다시 동의해야 수집이 이어집니다.",
      "언제든지 요청한 곳이 보내 준 관리 링크에서 동의를 철회할 수 있으며, 철회하면 맡긴 비밀번호와 인증서는 바로 지워집니다.",
    ],
  },
  // The list of what is collected sits above the text on the page (not below, as the first version said); the holder
  // gets a manage link only when the one who asked makes one, so asking them is the way that always works.
  "2026-12-01": {
    purpose: "요청한 곳의 서비스 제공을 위한 금융·세무 자료 조회",
    paragraphs: [
      "{requester}이(가) 위에 적힌 자료를 조회하도록 이 로그인(또는 인증서, 오픈뱅킹 동의)을 맡깁니다.",
      "수집 목적: 요청한 곳의 서비스 제공을 위한 금융·세무 자료 조회. 위에 적힌 자료 말고는 수집하지 않습니다.",
      "동의 기간: 동의한 날부터 {days}일. 기간이 끝나면 다시 동의해야 수집이 이어집니다.",
      "철회 방법: 언제든지 연결을 요청한 곳({requester})에 철회를 요청하거나, 그곳이 보내 준 관리 링크에서 직접 철회할 수 있습니다. 관리 링크로 철회하면 맡긴 비밀번호·인증서와 그것으로 모은 자료가 바로 지워집니다.",
    ],
  },
};

/** The version new consents are given under: the newest. */
export const CURRENT_CONSENT_TEXT_VERSION = Object.keys(CONSENT_TEXTS).sort().at(-1)!;

/** The paragraphs of one version as a page shows them for a requester and period. */
export function consentParagraphs(version: string, requester: string, days: number): string[] {
  return CONSENT_TEXTS[version]!.paragraphs.map((p) => p.replaceAll("{requester}", requester).replaceAll("{days}", String(days)));
}

export const isConsentTextVersion = (version: string): boolean => Object.hasOwn(CONSENT_TEXTS, version);
