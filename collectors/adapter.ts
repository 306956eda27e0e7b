import type { JobErrorCode } from "../contracts/job-failures";
import type { AdapterCredential, HolderApproval, LoginCredential, PageSurprise, RawRecord, SimpleAuthLogin, Target, TaskUnit } from "../contracts/task-unit";

/**
 * The slice of a puppeteer `Page` that adapters may use. Both `puppeteer-core`
 * (scraper-container) and `@cloudflare/puppeteer` (Browser Rendering) pages
 * satisfy it, so one adapter runs under either runtime.
 */
export interface BrowserPage {
  goto(url: string, options?: { waitUntil?: "load" | "domcontentloaded" | "networkidle0" | "networkidle2"; timeout?: number }): Promise<unknown>;
  url(): string;
  content(): Promise<string>;
  focus(selector: string): Promise<void>;
  keyboard: { sendCharacter(text: string): Promise<void> };
  mouse: { click(x: number, y: number): Promise<void> };
  select(selector: string, ...values: string[]): Promise<string[]>;
  waitForSelector(selector: string, options?: { timeout?: number; visible?: boolean }): Promise<unknown>;
  // Page-side code goes in as source text: bundlers (esbuild's keepNames in wrangler and tsx) wrap
  // functions in helpers that do not exist inside the page.
  waitForFunction(expression: string, options?: { timeout?: number; polling?: "mutation" | "raf" | number }): Promise<unknown>;
  evaluate(expression: string): Promise<unknown>;
  /** For failure reports only (scraper-container/evidence.ts): the visible page, after its personal data was redacted in place. */
  screenshot(options: { encoding: "base64"; type: "jpeg"; quality: number }): Promise<string | Uint8Array>;
}

/** A failure an adapter recognised on the institution's site, as a catalog code. */
export class ProviderFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    detail?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(detail ?? code);
    this.name = "ProviderFailure";
  }
}

/** The institution's page was not what the adapter knows: the scraper files a report of it (scraper-container/evidence.ts). */
export class UnreadablePage extends ProviderFailure {
  constructor(
    readonly surprise: PageSurprise,
    detail: string,
  ) {
    super("PROVIDER_RESPONSE_MALFORMED", detail);
    this.name = "UnreadablePage";
  }
}

/**
 * What personal data looks like on an institution's pages, to be replaced before a failure report keeps a page:
 * each match's digits become `#` and its Hangul `○` (amounts and numbers keep only their shape), or, with
 * `replacement`, that text. Applied to the page's text, input values and attributes (collectors/kit/redaction.ts).
 */
export interface RedactionRule {
  pattern: RegExp;
  replacement?: string;
}

export interface AdapterContext {
  /** Root URL of the institution's site (the sandbox base URL locally). */
  baseUrl: string;
  /** How long one page may take to reach the state the adapter waits for; TIMEOUT after. */
  timeoutMs?: number;
  /**
   * The business the session collects for (the workspace's, 10 digits). An institution account of another
   * business is BUSINESS_NUMBER_MISMATCH where the site shows whose account it is; absent, nothing to compare.
   */
  businessNumber?: string;
  /**
   * The deployment's own key for a provider reached with one (`DeploymentKeyCredential`), read by the scraper from its
   * environment (NTS_SERVICE_KEY for nts.business-status); absent for every other provider, or when the scraper has none.
   */
  deploymentKey?: string;
}

/**
 * An adapter of the browser kind drives one institution's web site. It knows
 * nothing of queues, D1 or HTTP routing: it gets a page and returns records or
 * throws a ProviderFailure.
 */
export interface BrowserAdapter {
  readonly kind: "browser";
  readonly providerCode: string;
  /** Named in failure reports, so a report leads to the adapter's code as it was; changed with every change of the adapter. */
  readonly version: string;
  /** The institution's own personal data shapes, beside the common ones (collectors/kit/redaction.ts). */
  readonly redaction?: readonly RedactionRule[];
  login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void>;
  /** Targets a schema runs over; empty for schemas that need none. Page is logged in. */
  discoverTargets(page: BrowserPage, schema: string, ctx: AdapterContext): Promise<Target[]>;
  /** Records of one unit. Page is logged in. */
  collect(page: BrowserPage, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]>;
}

/** One answer of an institution, read whole (bounded) so an adapter never holds a stream. */
export interface InstitutionResponse {
  /** The real URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Headers;
  text: string;
  /** The body as it came, for a file that is not text (a BIFF8 workbook); the protocol kind's HTTP always sets it. */
  bytes?: Uint8Array;
}

export interface InstitutionRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

/**
 * HTTP to an institution's real hosts, as a browser would make it: cookies kept per real host and domain, only
 * the hosts the adapter declares, through the deployment's egress. A timeout is TIMEOUT and a refused or reset
 * connection PROVIDER_ERROR, so adapters only read answers.
 */
export interface InstitutionHttp {
  fetch(url: string, request?: InstitutionRequest): Promise<InstitutionResponse>;
  /** Keeps a cookie for the real `url` as a page's own script sets one (`document.cookie`): a queue ticket, say. */
  setCookie(url: string, setCookie: string): void;
}

/**
 * An adapter of the protocol kind speaks the institution's own HTTP protocol, no browser. Login returns the
 * session's state (whatever later calls need: the cookies live in `http`); the same one-login-per-job session,
 * units and failures as the browser kind.
 */
export interface ProtocolAdapter<Session = unknown, Credential extends AdapterCredential = LoginCredential> {
  readonly kind: "protocol";
  readonly providerCode: string;
  /** As the browser kind's: named in failure reports. */
  readonly version: string;
  /** The real hosts it calls (`hometax.go.kr`); any other is refused before a byte leaves. */
  readonly hosts: readonly string[];
  login(http: InstitutionHttp, credential: Credential, ctx: AdapterContext): Promise<Session>;
  discoverTargets(session: Session, schema: string, ctx: AdapterContext): Promise<Target[]>;
  collect(session: Session, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]>;
  /**
   * A login its holder approves on a phone (`SimpleAuthLogin`), in two steps so nothing waits minutes in one call:
   * `requestApproval` asks the app (the phone rings) and answers at once with what waits and the state to poll with;
   * `awaitApproval` asks the gateway again, for at most `waitMs` (polling at the facts' pace), and answers the
   * logged-in session once approved, or null while the person has not answered. Denial, expiry, an unknown person and
   * an outage are ProviderFailures with catalog codes. `login` with such a credential does both, waiting it out.
   */
  requestApproval?(http: InstitutionHttp, credential: SimpleAuthLogin, ctx: AdapterContext): Promise<PendingApproval>;
  awaitApproval?(http: InstitutionHttp, pending: PendingApproval, waitMs: number, ctx: AdapterContext): Promise<Session | null>;
}

/** What an adapter asked a phone for: the approval the job shows, and the adapter's own state to go on with. */
export interface PendingApproval {
  approval: HolderApproval;
  state: unknown;
}

export type ProviderAdapter = BrowserAdapter | ProtocolAdapter;
