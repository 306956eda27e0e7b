import { type BrowserAdapter, type BrowserPage, UnreadablePage } from "../collectors/adapter";
import { COMMON_REDACTION, redactionScript } from "../collectors/redaction";
import { MAX_REPORT_HTML_CHARS, type PageReport } from "../collectors/scraper-protocol";

// A screenshot is for a person to see the page's layout: a modest JPEG of the viewport keeps a report small.
const SCREENSHOT_QUALITY = 60;

/** A failure the adapter met on a page it could not read, with the report the scraper kept of it. */
export class ReportedFailure extends Error {
  constructor(
    readonly failure: UnreadablePage,
    readonly report: PageReport,
  ) {
    super(failure.message);
    this.name = "ReportedFailure";
  }
}

/** The page as it is, after its personal data was rewritten in place by the common and the institution's rules. */
async function redactedPage(page: BrowserPage, adapter: BrowserAdapter): Promise<Pick<PageReport, "url" | "html" | "screenshot">> {
  await page.evaluate(redactionScript([...COMMON_REDACTION, ...(adapter.redaction ?? [])]));
  const html = await page.content();
  const shot = await page.screenshot({ encoding: "base64", type: "jpeg", quality: SCREENSHOT_QUALITY });
  return {
    url: page.url(),
    html: html.length > MAX_REPORT_HTML_CHARS ? `${html.slice(0, MAX_REPORT_HTML_CHARS)}<!-- truncated -->` : html,
    screenshot: typeof shot === "string" ? shot : Buffer.from(shot).toString("base64"),
  };
}

/**
 * Runs one step of a browser adapter; a page it could not read leaves as a ReportedFailure carrying the redacted
 * page. A page that cannot even be captured (the browser gone) still gives a report, without the page.
 */
export async function reportingUnreadable<T>(adapter: BrowserAdapter, page: BrowserPage, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof UnreadablePage)) throw err;
    const captured = await redactedPage(page, adapter).catch(() => ({ url: null, html: null, screenshot: null }));
    throw new ReportedFailure(err, { surprise: err.surprise, step, adapterVersion: adapter.version, detail: err.message, ...captured });
  }
}
