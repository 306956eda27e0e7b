import { type AdapterContext, type BrowserPage, ProviderFailure, UnreadablePage } from "./adapter";

export const DEFAULT_TIMEOUT_MS = 15_000;

// Browser-side code is passed as strings: bundlers rename or wrap functions, which breaks them inside the page.
const PROBLEM = `(document.querySelector("#notice")?.innerText ?? "").trim() || (document.querySelector("#loginError, #inquiryError")?.textContent ?? "").trim()`;

/**
 * Waits until the page is where the adapter wants it (`readyExpression`
 * true) or the site shows a notice (`#notice`) or an error line
 * (`#loginError`, `#inquiryError`) instead; the site's adapter turns that
 * text into the matching catalog failure.
 */
export async function settle(page: BrowserPage, readyExpression: string, ctx: AdapterContext, failureFromText: (text: string) => ProviderFailure, knownPages?: RegExp): Promise<void> {
  // With the site's known pages named, a page outside them ends the wait at once: no state of it will ever be ready.
  const unknownPage = knownPages ? `!${knownPages}.test(location.pathname)` : "false";
  try {
    // Checked on each change of the document, not on every animation frame (puppeteer's default), which kept
    // Chromium drawing frames at 60 a second for as long as a site took to answer.
    await page.waitForFunction(`(${readyExpression}) || !!(${PROBLEM}) || (${unknownPage})`, { timeout: ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS, polling: "mutation" });
  } catch (err) {
    if ((err as Error).name === "TimeoutError") throw new ProviderFailure("TIMEOUT", `page did not settle: ${readyExpression}`);
    throw err;
  }
  if (knownPages && !knownPages.test(new URL(page.url()).pathname)) throw new UnreadablePage("SCRAPING_PARSER_NOT_FOUND", `unknown page ${new URL(page.url()).pathname}`);
  const problem = (await page.evaluate(`(${readyExpression}) ? "" : (${PROBLEM})`)) as string;
  if (problem) throw failureFromText(problem);
}

export async function open(page: BrowserPage, url: string, ctx: AdapterContext): Promise<void> {
  try {
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  } catch (err) {
    if ((err as Error).name === "TimeoutError") throw new ProviderFailure("TIMEOUT", `navigation to ${url} timed out`);
    throw err;
  }
}

/**
 * Types `text` into a form field as one input event (CDP's insertText), as an IME commits a word: the sandbox sites
 * read the field's value, not its key events, and a keystroke at a time cost the browser 2.5 times the CPU (114 ms
 * against 46 ms for an ID and a password). A site whose script watches key events would need `page.keyboard.type`.
 */
export async function fill(page: BrowserPage, selector: string, text: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.sendCharacter(text);
}
