import { type BrowserPage, ProviderFailure, type RedactionRule, UnreadablePage } from "./adapter";
import { base64Encode } from "../contracts/base64url";
import { COMMON_REDACTION, redactionScript } from "./redaction";
import { MAX_REPORT_HTML_CHARS, type PageReport } from "../contracts/scraper-protocol";

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

/** The page as it is, after its personal data was rewritten in place by the common and the institution's rules. */
async function redactedPage(page: BrowserPage, adapter: ReportingAdapter): Promise<Pick<PageReport, "url" | "html" | "screenshot">> {
  await page.evaluate(redactionScript([...COMMON_REDACTION, ...(adapter.redaction ?? [])]));
  const html = await page.content();
  const shot = await page.screenshot({ encoding: "base64", type: "jpeg", quality: SCREENSHOT_QUALITY });
  return {
    url: page.url(),
    html: html.length > MAX_REPORT_HTML_CHARS ? `${html.slice(0, MAX_REPORT_HTML_CHARS)}<!-- truncated -->` : html,
    screenshot: typeof shot === "string" ? shot : base64Encode(shot),
  };
}

const NO_PAGE = { url: null, html: null, screenshot: null };

/**
 * Runs one step of an adapter; a page it could not read leaves as a ReportedFailure carrying the redacted page. A
 * protocol adapter (no `page`), or a page that cannot even be captured (the browser gone), still gives a report,
 * without the page. Both scraper runtimes use it: the container's scraper and Browser Rendering.
 */
export async function reportingUnreadable<T>(adapter: ReportingAdapter, page: BrowserPage | null, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof UnreadablePage)) throw err;
    const captured = page ? await redactedPage(page, adapter).catch(() => NO_PAGE) : NO_PAGE;
    throw new ReportedFailure(err.code, err.message, { surprise: err.surprise, step, adapterVersion: adapter.version, detail: err.message, ...captured });
  }
}
