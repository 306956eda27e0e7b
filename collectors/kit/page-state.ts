import { type AdapterContext, type BrowserPage, ProviderFailure, UnreadablePage } from "../adapter";

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

/**
 * Clicks an element as a person does: a real mouse click at its centre, which whatever covers it there receives (a
 * notice layer over the page, as the sandbox card issuer shows). The page itself scrolls the element into view when it
 * is out of it; puppeteer's `click` waits for a rendered frame to see it on screen and asks for its layout over the
 * protocol, which cost Chromium 13.7 ms a click against 3 (docs/testing.md, "stop 55").
 */
export async function press(page: BrowserPage, selector: string): Promise<void> {
  const point = (await page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    if (!element) return "missing";
    let box = element.getBoundingClientRect();
    if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
      element.scrollIntoView({ block: "center", inline: "center" });
      box = element.getBoundingClientRect();
    }
    return box.width > 0 && box.height > 0 ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : "hidden";
  })()`)) as { x: number; y: number } | "missing" | "hidden";
  if (point === "missing") throw new Error(`No element found for selector: ${selector}`);
  if (point === "hidden") throw new Error(`Element ${selector} is not visible to click`);
  await page.mouse.click(point.x, point.y);
}
