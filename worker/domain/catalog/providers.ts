import type { DailyWindow } from "./maintenance";
import type { Publication } from "./publication";
import { MOBILE_CARRIERS, SIMPLE_AUTH_PROVIDERS, type SimpleAuthProvider } from "../../../collectors/adapter";

/**
 * How a credential gets in: fields typed in (`PROVIDER_LOGIN`, `CERTIFICATE`), a person's consent at the
 * institution's own page (`OPEN_BANKING`: nothing typed here; docs/credentials.md "Open Banking consents"), or who a
 * person is to a 간편인증 app, each login then approved on their phone (`SIMPLE_AUTH`, docs/credentials.md).
 */
export const AUTH_METHOD_VALUES = ["PROVIDER_LOGIN", "CERTIFICATE", "OPEN_BANKING", "SIMPLE_AUTH"] as const;
export type AuthMethod = (typeof AUTH_METHOD_VALUES)[number];

/** Each way in as the console and the holder's page name it. */
export const AUTH_METHOD_NAMES: Record<AuthMethod, string> = { PROVIDER_LOGIN: "아이디 로그인", CERTIFICATE: "공동인증서", OPEN_BANKING: "오픈뱅킹 동의", SIMPLE_AUTH: "간편인증" };

export interface CredentialField {
  name: string;
  label: string;
  /** ECMAScript regular expression the value must match in full. */
  pattern: string;
  secret: boolean;
  required: boolean;
  authMethod: AuthMethod;
  /**
   * `file`: the value is the bytes of a file the user picks (certificate files) in standard base64, not something
   * typed; `select`: one of `options`, picked from a list (a 간편인증 app, a carrier).
   */
  input: "text" | "file" | "select";
  options?: { value: string; label: string }[];
}

/**
 * Where a provider's scraper runs. Sites that need a long-lived session,
 * many pages per job or native certificate handling run in the scraper
 * container; light single-page sites can run on Browser Rendering.
 */
export type ScraperRuntime = "container" | "browser-rendering";

/**
 * How far the provider is known to work: `sandbox` institutions are our own; a real institution is `replica`
 * (its adapter passes against a replica of its protocol) until a live check has passed and is recorded, with its
 * date, in docs/institutions/<provider>.md; then `live`.
 */
export type Verification = "sandbox" | "replica" | "live";

export interface ProviderDefinition {
  code: string;
  name: string;
  kind: "BANK" | "TAX_PORTAL" | "CARD";
  sandbox: boolean;
  verification: Verification;
  schemas: string[];
  /** The first is the provider's main way in, the one the demo workspace holds (scripts/demo-seed.ts). */
  acceptedAuthMethods: AuthMethod[];
  credentialFields: CredentialField[];
  /** Longest date range one job may ask for; longer gives DATE_RANGE_EXCEEDED. */
  maxRangeDays: number;
  /** Longest range the site answers in one inquiry: the task-unit segment length. */
  pageWindowDays: number;
  /**
   * A schema's own, shorter unit where a large business's unit of `pageWindowDays` would run longer than a unit may
   * (`collectBoundMs`): its requests grow with its records (a detail request each). See `unitWindowDays`.
   */
  pageWindowDaysBySchema?: Readonly<Record<string, number>>;
  /**
   * Time one segment is expected to take, in seconds, where a provider's own pace makes it longer than the default
   * minute (domain/jobs/budget.ts): a provider that spaces its requests spends that pace on every page and detail.
   */
  segmentSeconds?: number;
  /**
   * A schema's own segment time where its requests grow with its records (a detail request each) and a large business's
   * segment takes far longer than the provider's (bench/institution-pace.ts, docs/benchmarks.md).
   */
  segmentSecondsBySchema?: Readonly<Record<string, number>>;
  runtime: ScraperRuntime;
  /** Schemas whose data the institution publishes late (publication.ts), by schema; the others as at collection. */
  publication?: Readonly<Record<string, Publication>>;
  /** The windows the institution closes every day (maintenance.ts), as it publishes them; none where no source says. */
  maintenance: DailyWindow[];
  /**
   * Set for a provider reached with the deployment's own key rather than a workspace's credential: the scraper's
   * environment variable holding it. Its jobs name no credential and run without one (domain/jobs/create.ts); the
   * worker never sees the key (docs/institutions/nts-business-status.md §6).
   */
  deploymentKey?: string;
}

/** Whether a provider's jobs run on the deployment's own key, with no workspace credential. */
export const runsOnDeploymentKey = (provider: Pick<ProviderDefinition, "deploymentKey">): boolean => provider.deploymentKey !== undefined;

const ID_LOGIN_FIELDS: CredentialField[] = [
  { name: "loginId", label: "아이디", pattern: "^[A-Za-z0-9_.-]{4,32}$", secret: false, required: true, authMethod: "PROVIDER_LOGIN", input: "text" },
  { name: "password", label: "비밀번호", pattern: "^[\\x21-\\x7E]{4,64}$", secret: true, required: true, authMethod: "PROVIDER_LOGIN", input: "text" },
];

const LOGIN_FIELDS: CredentialField[] = [
  ...ID_LOGIN_FIELDS,
  // Some institutions ask ID logins for the first 7 digits of the resident number (LOGIN_SECOND_FACTOR_REQUIRED without it).
  { name: "secondFactor", label: "주민등록번호 앞 7자리", pattern: "^\\d{7}$", secret: true, required: false, authMethod: "PROVIDER_LOGIN", input: "text" },
];

// A file travels as its bytes in standard base64 (padded), at most 16 KiB of them. What is inside is
// checked by worker/certificates, which answers the CERT_* codes: a file that is not a certificate is
// CERT_INVALID, not a format error.
const FILE_BASE64 = "^(?:[A-Za-z0-9+/]{4}){1,5461}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";
export const CERTIFICATE_FIELDS: CredentialField[] = [
  { name: "certificate", label: "인증서 파일 (signCert.der)", pattern: FILE_BASE64, secret: false, required: true, authMethod: "CERTIFICATE", input: "file" },
  { name: "privateKey", label: "개인키 파일 (signPri.key)", pattern: FILE_BASE64, secret: true, required: true, authMethod: "CERTIFICATE", input: "file" },
  { name: "password", label: "인증서 비밀번호", pattern: "^[\\x20-\\x7E]{4,64}$", secret: true, required: true, authMethod: "CERTIFICATE", input: "text" },
];

/** The 간편인증 apps as people know them (facts K1 §9: Hometax's list of 2026-04). */
export const SIMPLE_AUTH_APP_NAMES: Record<SimpleAuthProvider, string> = {
  kakao: "카카오톡",
  naver: "네이버",
  pass: "통신사 PASS",
  toss: "토스",
  kica: "삼성패스",
  kb: "KB국민은행",
  nh: "NH인증서",
  shinhan: "신한인증서",
  hana: "하나은행",
  woori: "우리인증서",
  banksalad: "뱅크샐러드",
  kakaobank: "카카오뱅크",
};

/**
 * Who a person is to their 간편인증 app: each login is then approved on their phone, so none of these logs anyone in
 * alone, but all are personal data, sealed and never shown (docs/credentials.md, "간편인증").
 */
const SIMPLE_AUTH_FIELDS: CredentialField[] = [
  { name: "provider", label: "간편인증 앱", pattern: `^(${SIMPLE_AUTH_PROVIDERS.join("|")})$`, secret: false, required: true, authMethod: "SIMPLE_AUTH", input: "select", options: SIMPLE_AUTH_PROVIDERS.map((value) => ({ value, label: SIMPLE_AUTH_APP_NAMES[value] })) },
  { name: "name", label: "이름 (앱에 등록된 그대로)", pattern: "^[가-힣A-Za-z][가-힣A-Za-z ]{0,28}[가-힣A-Za-z]$", secret: true, required: true, authMethod: "SIMPLE_AUTH", input: "text" },
  { name: "birthDate", label: "생년월일 8자리 (예: 19800101)", pattern: "^(19|20)\\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])$", secret: true, required: true, authMethod: "SIMPLE_AUTH", input: "text" },
  { name: "phone", label: "휴대폰 번호 (숫자만, 예: 01012345678)", pattern: "^01[016789]\\d{7,8}$", secret: true, required: true, authMethod: "SIMPLE_AUTH", input: "text" },
  // PASS asks the person's carrier; a budget carrier's line goes by its host network (facts K6).
  { name: "carrier", label: "통신사 (PASS를 고른 경우, 알뜰폰은 망 통신사)", pattern: `^(${MOBILE_CARRIERS.join("|")})$`, secret: false, required: false, authMethod: "SIMPLE_AUTH", input: "select", options: [{ value: "SKT", label: "SKT" }, { value: "KT", label: "KT" }, { value: "LGU", label: "LG U+" }] },
];

/** What a tax portal offers: the spec's invoices and cash receipts, and the extensions (docs/institutions/hometax.md, "Extension schemas"). */
const TAX_PORTAL_SCHEMAS = [
  "taxportal.tax-invoices.sales.v1",
  "taxportal.tax-invoices.purchase.v1",
  "taxportal.cash-receipts.sales.v1",
  "taxportal.cash-receipts.purchase.v1",
  "taxportal.tax-invoice-lines.v1",
  "taxportal.business-card-purchases.v1",
  // Read from the business-card purchases, every issuer's (collectors/kit/business-card-approvals.ts).
  "card.cards.corp.v1",
  "card.approvals.corp.v1",
];

/**
 * Hometax's business-card data, and the card schemas read from it: the issuers report each month's purchases, which
 * Hometax shows from around the 15th of the next month (docs/institutions/hometax.md, "Freshness"; facts, S1).
 */
const CARD_DATA_NEXT_MONTH: Publication = { lag: "NEXT_MONTH", publishedFromDay: 15, note: "카드사가 보낸 사업용 신용카드 사용내역: 매월 자료를 다음 달 15일 무렵부터 조회할 수 있습니다" };
const TAX_PORTAL_PUBLICATION = Object.fromEntries(["taxportal.business-card-purchases.v1", "card.cards.corp.v1", "card.approvals.corp.v1"].map((schema) => [schema, CARD_DATA_NEXT_MONTH]));

const PROVIDERS: ProviderDefinition[] = [
  {
    code: "sandbox.bank",
    name: "샌드박스은행",
    kind: "BANK",
    sandbox: true,
    verification: "sandbox",
    schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"],
    acceptedAuthMethods: ["PROVIDER_LOGIN"],
    credentialFields: LOGIN_FIELDS,
    maxRangeDays: 366,
    pageWindowDays: 31,
    runtime: "container",
    // The bank's maintenance notice (sandbox/sandbox-bank/behaviours.ts NOTICES.maintenance), kept while the sandbox keeps hours.
    maintenance: [{ from: "00:00", to: "00:30", note: "인터넷뱅킹 정기점검 (매일 00:00~00:30)" }],
  },
  {
    code: "sandbox.taxportal",
    name: "샌드박스국세포털",
    kind: "TAX_PORTAL",
    sandbox: true,
    verification: "sandbox",
    schemas: TAX_PORTAL_SCHEMAS,
    publication: TAX_PORTAL_PUBLICATION,
    // The portal's ID login asks for the resident-number prefix too (LOGIN_SECOND_FACTOR_REQUIRED without it).
    acceptedAuthMethods: ["CERTIFICATE", "PROVIDER_LOGIN"],
    credentialFields: [...CERTIFICATE_FIELDS, ...LOGIN_FIELDS],
    maxRangeDays: 366,
    pageWindowDays: 31,
    runtime: "container",
    // The portal's notice (sandbox/sandbox-taxportal/id-login.ts MAINTENANCE_HOURS).
    maintenance: [{ from: "00:00", to: "06:00", note: "시스템 점검 (매일 00:00~06:00)" }],
  },
  {
    code: "sandbox.card",
    name: "샌드박스카드",
    kind: "CARD",
    sandbox: true,
    verification: "sandbox",
    schemas: ["card.cards.corp.v1", "card.approvals.corp.v1"],
    // The issuer's ID login and its business-certificate login (sandbox/sandbox-card/certificate-customers.ts).
    acceptedAuthMethods: ["PROVIDER_LOGIN", "CERTIFICATE"],
    credentialFields: [...ID_LOGIN_FIELDS, ...CERTIFICATE_FIELDS],
    maxRangeDays: 366,
    // The issuer's approval history answers at most 90 days per search (sandbox/sandbox-card/site.ts MAX_INQUIRY_DAYS).
    pageWindowDays: 90,
    runtime: "container",
    // The issuer's notice (sandbox/sandbox-card/behaviours.ts NOTICES.maintenance).
    maintenance: [
      { from: "23:50", to: "00:10", note: "법인카드 시스템 정기점검 (매일 23:50~00:10)" },
      { from: "23:00", to: "01:00", on: "monthEnd", note: "월말 정산 배치 (매월 말일 23:00~익일 01:00)" },
    ],
  },
  {
    code: "hometax",
    name: "국세청 홈택스",
    kind: "TAX_PORTAL",
    sandbox: false,
    // No live check has been recorded yet (docs/institutions/hometax.md, "Live check").
    verification: "replica",
    schemas: TAX_PORTAL_SCHEMAS,
    publication: TAX_PORTAL_PUBLICATION,
    // A business's joint certificate is the way in every source shows; the ID login's second factor is the
    // resident-number prefix; 간편인증 owners approve each login on their phone (docs/institutions/hometax.md).
    acceptedAuthMethods: ["CERTIFICATE", "PROVIDER_LOGIN", "SIMPLE_AUTH"],
    credentialFields: [...CERTIFICATE_FIELDS, ...LOGIN_FIELDS, ...SIMPLE_AUTH_FIELDS],
    maxRangeDays: 366,
    // Whole quarters at most per unit; the adapter splits a unit further by its query window (collectors/hometax/options.ts).
    pageWindowDays: 92,
    // A detail request per invoice (docs/institutions/hometax.md, "Requests a record needs"): a large business's
    // quarter (750 invoices a side, issue 65) is some 770 requests, ~16 min at 1.25 s, past the 11 min a unit may run
    // (collectBoundMs). A month of a side is some 265; a lines unit reads both sides, so half a month is as many.
    pageWindowDaysBySchema: { "taxportal.tax-invoices.sales.v1": 31, "taxportal.tax-invoices.purchase.v1": 31, "taxportal.tax-invoice-lines.v1": 16 },
    // Paced at 1 s plus up to 0.5 s jitter per request (collectors/hometax/options.ts, S1): a quarter of a business
    // issuing about 200 invoices is some 210 requests (pages and one detail each), ~265 s, plus room for one
    // overload pause of 61 s (docs/institutions/hometax.md, "Pacing and throttling").
    segmentSeconds: 330,
    // Those units of a large business at 1.25 s a request (~265 requests, ~330 s) and one overload pause (61 s).
    segmentSecondsBySchema: { "taxportal.tax-invoices.sales.v1": 400, "taxportal.tax-invoices.purchase.v1": 400, "taxportal.tax-invoice-lines.v1": 420 },
    // The protocol kind runs in the scraper (container or a runner in Korea), never on Browser Rendering.
    runtime: "container",
    // No public source gives the portal's hours (docs/institutions/hometax.md, "Open questions"): its stop page is
    // met as PROVIDER_TIME_WINDOW when it comes.
    maintenance: [],
  },
  {
    code: "openbanking",
    name: "오픈뱅킹 (금융결제원)",
    kind: "BANK",
    sandbox: false,
    // Tested against this project's replica of KFTC's testbed only (docs/institutions/openbanking.md §12).
    verification: "replica",
    schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"],
    // The credential is the person's consent, given on KFTC's own page through a registration session (the
    // session's option stays PROVIDER_LOGIN, the spec's kind): nothing is typed, so there are no fields.
    acceptedAuthMethods: ["OPEN_BANKING"],
    credentialFields: [],
    maxRangeDays: 366,
    // The adapter's maxPeriodDays (collectors/openbanking/options.ts): one unit is one transaction_list window.
    pageWindowDays: 31,
    runtime: "container",
    // No source publishes the banks' hours; A0020 (조회 가능시간 아님) is met as PROVIDER_TIME_WINDOW.
    maintenance: [],
  },
  {
    code: "nts.business-status",
    name: "국세청 사업자등록 상태조회",
    // The closest kind: the National Tax Service's data, as Hometax's.
    kind: "TAX_PORTAL",
    sandbox: false,
    // Tested against this project's replica only (docs/institutions/nts-business-status.md §9).
    verification: "replica",
    schemas: ["business.status.v1"],
    // No login: the deployment's data.go.kr service key, which the scraper holds. Nothing to register.
    acceptedAuthMethods: [],
    credentialFields: [],
    deploymentKey: "NTS_SERVICE_KEY",
    // Undated: a job is one unit of its numbers.
    maxRangeDays: 366,
    pageWindowDays: 31,
    // The protocol kind runs in the scraper, which holds the key.
    runtime: "container",
    // No source publishes a maintenance window (docs/institutions/nts-business-status.md §8).
    maintenance: [],
  },
];

/** Whether a provider's credential is a consent given at the institution (no fields), registered through the hosted page's consent step. */
export const takesConsent = (provider: Pick<ProviderDefinition, "acceptedAuthMethods">): boolean => provider.acceptedAuthMethods.includes("OPEN_BANKING");

const BY_CODE = new Map(PROVIDERS.map((p) => [p.code, p]));

export function allProviders(): readonly ProviderDefinition[] {
  return PROVIDERS;
}

export function findProvider(code: string): ProviderDefinition | undefined {
  return BY_CODE.get(code);
}

/** How many days one unit of a schema spans: the schema's own where a provider sets one, else the provider's. */
export function unitWindowDays(provider: Pick<ProviderDefinition, "pageWindowDays" | "pageWindowDaysBySchema">, schemaId: string): number {
  return provider.pageWindowDaysBySchema?.[schemaId] ?? provider.pageWindowDays;
}

/**
 * How long one unit of a provider may run at the scraper before it counts as stuck (ENGINE_CRASHED): twice the time a
 * paced provider's segment is expected to take, else none beyond the scraper client's own bound. A Queues consumer
 * may run 15 minutes, so this stays under it.
 */
export function collectBoundMs(provider: Pick<ProviderDefinition, "segmentSeconds">): number | undefined {
  return provider.segmentSeconds === undefined ? undefined : Math.min(2 * provider.segmentSeconds * 1000, 14 * 60_000);
}
