import { type BrowserPage, ProviderFailure, type RedactionRule, UnreadablePage } from "../adapter";
import { base64Encode } from "../../contracts/base64url";
import { COMMON_REDACTION, redactionScript, redactText, reportUrl } from "./redaction";
import { MAX_REPORT_HTML_CHARS, type PageReport } from "../../contracts/scraper-protocol";

// A screenshot is for a person to see the page's layout: a modest JPEG of the viewport keeps a report small.
const SCREENSHOT_QUALITY = 60;

/** What a report names of the adapter that met the page. */
export interface ReportingAdapter {
  readonly version: string;
  readonly redaction?: readonly RedactionRule[];
}

/**
 * A failure the adapter met on a page it could not read, with the report kept of it (docs/operations.md, "Scraper
 * failure reports"): made where the page was (the container's scraper, Browser Rendering), and again by the worker's
 * scraper client from the container's answer, so the executor files one kind of failure whatever the runtime.
 */
export class ReportedFailure extends ProviderFailure {
  constructor(
    code: ProviderFailure["code"],
    detail: string | undefined,
    readonly report: PageReport,
  ) {
    super(code, detail);
    this.name = "ReportedFailure";
  }
}

/**
 * The page as it is, after its personal data was rewritten in place by the common and the institution's rules
 * (collectors/kit/redaction.ts): the HTML is the redaction's own answer (URLs without query or fragment), and the
 * redaction runs again right before the screenshot, so whatever the page's scripts wrote back meanwhile (a
 * re-rendered field) is gone from it too. The address keeps neither query nor fragment.
 */
async function redactedPage(page: BrowserPage, rules: readonly RedactionRule[]): Promise<Pick<PageReport, "url" | "html" | "screenshot">> {
  const script = redactionScript(rules);
  const html = String(await page.evaluate(script));
  await page.evaluate(script);
  const shot = await page.screenshot({ encoding: "base64", type: "jpeg", quality: SCREENSHOT_QUALITY });
  return {
    url: reportUrl(page.url(), rules),
    html: html.length > MAX_REPORT_HTML_CHARS ? `${html.slice(0, MAX_REPORT_HTML_CHARS)}<!-- truncated -->` : html,
    screenshot: typeof shot === "string" ? shot : base64Encode(shot),
  };
}

/**
 * An error leaving an adapter, its words redacted in place: an institution's message (`failureFromRules`), an
 * adapter's account of a page or a browser error may quote the page, and they go on to the answer, the worker's log
 * lines and the report's detail. The stack repeats the message, so it goes through the same rules.
 */
function redactedError(err: unknown, rules: readonly RedactionRule[]): unknown {
  if (!(err instanceof Error)) return err;
  try {
    err.message = redactText(err.message, rules);
    if (typeof err.stack === "string") err.stack = redactText(err.stack, rules);
  } catch {
    // A frozen error (none of ours): it leaves as it is, and the logs redact their own lines.
  }
  return err;
}

const NO_PAGE = { url: null, html: null, screenshot: null };

/**
 * Runs one step of an adapter; a page it could not read leaves as a ReportedFailure carrying the redacted page, and
 * every failure leaves with its words redacted by the same rules (`redactedError`). A
 * protocol adapter (no `page`), or a page that cannot even be captured (the browser gone), still gives a report,
 * without the page. Both scraper runtimes use it: the container's scraper and Browser Rendering.
 */
export async function reportingUnreadable<T>(adapter: ReportingAdapter, page: BrowserPage | null, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (thrown) {
    const rules = [...COMMON_REDACTION, ...(adapter.redaction ?? [])];
    const err = redactedError(thrown, rules);
    if (!(err instanceof UnreadablePage)) throw err;
    const captured = page ? await redactedPage(page, rules).catch(() => NO_PAGE) : NO_PAGE;
    throw new ReportedFailure(err.code, err.message, { surprise: err.surprise, step, adapterVersion: adapter.version, detail: err.message, ...captured });
  }
}
