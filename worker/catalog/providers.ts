export type AuthMethod = "PROVIDER_LOGIN" | "CERTIFICATE";

export interface CredentialField {
  name: string;
  label: string;
  /** ECMAScript regular expression the value must match in full. */
  pattern: string;
  secret: boolean;
  required: boolean;
  authMethod: AuthMethod;
}

/**
 * Where a provider's scraper runs. Sites that need a long-lived session,
 * many pages per job or native certificate handling run in the scraper
 * container; light single-page sites can run on Browser Rendering.
 */
export type ScraperRuntime = "container" | "browser-rendering";

export interface ProviderDefinition {
  code: string;
  name: string;
  kind: "BANK" | "TAX_PORTAL" | "CARD";
  sandbox: boolean;
  schemas: string[];
  acceptedAuthMethods: AuthMethod[];
  credentialFields: CredentialField[];
  /** Longest date range one job may ask for; longer gives DATE_RANGE_EXCEEDED. */
  maxRangeDays: number;
  /** Longest range the site answers in one inquiry: the task-unit segment length. */
  pageWindowDays: number;
  runtime: ScraperRuntime;
  /** Path of the institution's site under the sandbox base URL. */
  sitePath: string;
}

const LOGIN_FIELDS: CredentialField[] = [
  { name: "loginId", label: "아이디", pattern: "^[A-Za-z0-9_.-]{4,32}$", secret: false, required: true, authMethod: "PROVIDER_LOGIN" },
  { name: "password", label: "비밀번호", pattern: "^[\\x21-\\x7E]{4,64}$", secret: true, required: true, authMethod: "PROVIDER_LOGIN" },
];

const PROVIDERS: ProviderDefinition[] = [
  {
    code: "sandbox.bank",
    name: "샌드박스은행",
    kind: "BANK",
    sandbox: true,
    schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"],
    acceptedAuthMethods: ["PROVIDER_LOGIN"],
    credentialFields: LOGIN_FIELDS,
    maxRangeDays: 366,
    pageWindowDays: 31,
    runtime: "container",
    sitePath: "/bank/",
  },
];

const BY_CODE = new Map(PROVIDERS.map((p) => [p.code, p]));

export function allProviders(): readonly ProviderDefinition[] {
  return PROVIDERS;
}

export function findProvider(code: string): ProviderDefinition | undefined {
  return BY_CODE.get(code);
}
