import type { InstitutionHttp, PendingApproval } from "../../collectors/adapter";
import type { HolderApproval, LoginCredential, SimpleAuthLogin } from "../../contracts/task-unit";
import { hometaxAdapter } from "../../collectors/hometax";
import { DEFAULT_OPTIONS, type HometaxOptions } from "../../collectors/hometax/options";
import { type HometaxDeps, REAL_DEPS } from "../../collectors/hometax/pacing";
import type { HometaxSession } from "../../collectors/hometax/session";
import type { SerialForm } from "../../collectors/hometax/signed-challenge";
import { degradedCounts } from "../../collectors/kit/degraded-paths";
import { DOWNLOAD_FALLBACK } from "../../collectors/hometax/invoice-download";
import { findProvider } from "../../worker/domain/catalog/providers";

/** One step of the check: what was tried, and what the portal did. */
export interface Step {
  step: string;
  ok: boolean;
  detail: string;
}

/**
 * Every list the adapter reads, each counted over the month: the catalog's Hometax schemas of the portal's own lists
 * (the card schemas are read from the business-card purchases, counted already).
 */
export const LIVE_CHECK_SCHEMAS = findProvider("hometax")!.schemas.filter((schema) => schema.startsWith("taxportal."));

const failed = (err: unknown) => {
  const { code, message } = err as { code?: string; message?: string };
  return `${code ?? "ERROR"}: ${message ?? String(err)}`;
};

/**
 * The live check of Hometax (docs/institutions/hometax.md, "Live check"): one login per serial form until the
 * portal takes one, then one month of each list, counted, with and without the integrity suffix. Counts only:
 * no record leaves this function, nothing is stored.
 */
export async function checkHometax(newHttp: () => InstitutionHttp, credential: LoginCredential, businessNumber: string | undefined, month: { start: string; end: string }, deps: HometaxDeps = REAL_DEPS): Promise<Step[]> {
  const steps: Step[] = [];
  const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber };
  let session: HometaxSession | null = null;
  let accepted: SerialForm | null = null;
  const forms: readonly SerialForm[] = credential.authMethod === "CERTIFICATE" ? DEFAULT_OPTIONS.serialForms : [DEFAULT_OPTIONS.serialForms[0]!];
  for (const serialForm of forms) {
    const adapter = hometaxAdapter({ ...DEFAULT_OPTIONS, serialForms: [serialForm] }, deps);
    try {
      session = await adapter.login(newHttp(), credential, ctx);
      accepted = serialForm;
      steps.push({ step: credential.authMethod === "CERTIFICATE" ? `login, serial form "${serialForm}"` : "ID login", ok: true, detail: `tin ${String(session.portal.tin ?? "").replace(/\d(?=\d{4})/g, "*")}` });
      break;
    } catch (err) {
      steps.push({ step: credential.authMethod === "CERTIFICATE" ? `login, serial form "${serialForm}"` : "ID login", ok: false, detail: failed(err) });
    }
  }
  if (!session || !accepted) return steps;
  const fallbacksBefore = degradedCounts()[DOWNLOAD_FALLBACK] ?? 0;
  for (const integritySuffix of [true, false]) {
    const options: HometaxOptions = { ...DEFAULT_OPTIONS, integritySuffix, serialForms: [accepted] };
    const adapter = hometaxAdapter(options, deps);
    // The same login, asked with or without the suffix: the portal's cookies stay in the session's HTTP.
    const asked: HometaxSession = { ...session, client: session.client.withOptions(options), sites: integritySuffix ? session.sites : new Map() };
    for (const schema of LIVE_CHECK_SCHEMAS) {
      const step = `${schema} ${month.start}..${month.end}, ${integritySuffix ? "with" : "without"} the integrity suffix`;
      try {
        const records = await adapter.collect(asked, { jobId: "live-check", unitIndex: 0, schema, target: null, segment: month, params: {} }, ctx);
        steps.push({ step, ok: true, detail: `${records.length} records` });
      } catch (err) {
        steps.push({ step, ok: false, detail: failed(err) });
      }
    }
  }
  // Whether the default (invoiceDownloadCheck on, the Excel download) found its download: a refused or unreadable one
  // leaves the lists to a detail per invoice (collectors/hometax/invoice-download.ts), which the counts above then were.
  const fallbacks = (degradedCounts()[DOWNLOAD_FALLBACK] ?? 0) - fallbacksBefore;
  steps.push({
    step: `invoice text download ATEETBDA005R04 (invoiceDownloadCheck ${DEFAULT_OPTIONS.invoiceDownloadCheck ? "on" : "off"} by default)`,
    ok: fallbacks === 0,
    detail: fallbacks === 0 ? "every invoice list agreed with its download" : `${fallbacks} lists without a usable download: read ${DEFAULT_OPTIONS.invoiceDownload === "xls" ? "with a detail per invoice" : "from the JSON pages alone"}`,
  });
  return steps;
}

/** The two lists of a 간편인증 check: one month of tax invoices, counted. */
export const SIMPLE_AUTH_CHECK_SCHEMAS = ["taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1"] as const;

/**
 * The live check of 간편인증 (docs/institutions/hometax.md, "간편인증 (OACX)"): the app is asked (`tell` says to
 * approve on the phone), the approval waited for in the scraper's own 20 s steps until the request lapses, then one
 * month of tax invoices counted. The options' defaults are what it tries; each step names what the gateway did.
 */
export async function checkHometaxSimpleAuth(
  http: InstitutionHttp,
  credential: SimpleAuthLogin,
  businessNumber: string | undefined,
  month: { start: string; end: string },
  tell: (approval: HolderApproval) => void,
  deps: HometaxDeps = REAL_DEPS,
): Promise<Step[]> {
  const steps: Step[] = [];
  const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber };
  const adapter = hometaxAdapter(DEFAULT_OPTIONS, deps);
  const asked = `간편인증 request (${credential.provider}, fields ${DEFAULT_OPTIONS.simpleAuthFields})`;
  let pending: PendingApproval;
  try {
    pending = await adapter.requestApproval!(http, credential, ctx);
    steps.push({ step: asked, ok: true, detail: `the app was asked, until ${pending.approval.until}` });
  } catch (err) {
    return [{ step: asked, ok: false, detail: failed(err) }];
  }
  tell(pending.approval);
  const approval = `approval and pubcLogin.do (result txId "${DEFAULT_OPTIONS.simpleAuthResultTxId}")`;
  let session: HometaxSession | null = null;
  try {
    while (!session) session = await adapter.awaitApproval!(http, pending, 20_000, ctx);
    steps.push({ step: approval, ok: true, detail: `userCertClCd ${String(session.portal.userCertClCd ?? "-")}, tin ${String(session.portal.tin ?? "").replace(/\d(?=\d{4})/g, "*")}` });
  } catch (err) {
    steps.push({ step: approval, ok: false, detail: failed(err) });
    return steps;
  }
  for (const schema of SIMPLE_AUTH_CHECK_SCHEMAS) {
    const step = `${schema} ${month.start}..${month.end}`;
    try {
      const records = await adapter.collect(session, { jobId: "live-check", unitIndex: 0, schema, target: null, segment: month, params: {} }, ctx);
      steps.push({ step, ok: true, detail: `${records.length} records` });
    } catch (err) {
      steps.push({ step, ok: false, detail: failed(err) });
    }
  }
  return steps;
}
