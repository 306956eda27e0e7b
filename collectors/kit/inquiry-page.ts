import { type AdapterContext, type BrowserPage, type ProviderFailure, UnreadablePage } from "../adapter";
import { press, settle } from "./page-state";

/**
 * A site's inquiry page: where it is, the element whose `data-state` says an inquiry is done, its page or batch mark,
 * the table whose rows the adapter reads, how to open it.
 */
export interface InquiryPage {
  path: string;
  result: string;
  mark: string;
  table: string;
  open: () => Promise<void>;
}

/** The pages whose last unit was answered whole on them: only such a page is asked again. */
const answered = new WeakSet<BrowserPage>();

/**
 * Asks a session's unit on the inquiry page the last unit left, as a person asks again on it: opening it anew cost
 * Chromium a document (HTML, script, style, layout) a unit, 42% of the scraper's CPU a 36-unit bank job
 * (docs/capacity.md, stop 68). The page is opened anew, as every unit did before, when the last unit failed on it or
 * it ended otherwise (still loading, an error line, elsewhere); and when a kept page's answer cannot be read, before
 * the unit fails on it: the site may have changed since it was opened, and the failure (and its report) is then the
 * new page's. The last result's mark goes before each inquiry: the new inquiry's first page says 1 too, and a wait for
 * it must not end on the last one's. The result table is hidden before each inquiry: its rows are read as text, never
 * looked at, and shown it was laid out and painted at every page or 더보기 batch, the table growing batch by batch on
 * the card issuer's page (two thirds of a card job's renderer CPU: docs/capacity.md, "Tables read, not shown").
 */
export async function askOnInquiryPage<T>(page: BrowserPage, inquiry: InquiryPage, ask: () => Promise<T>): Promise<T> {
  const result = `document.querySelector(${JSON.stringify(inquiry.result)})`;
  const finished = `location.pathname.endsWith(${JSON.stringify(inquiry.path)}) && ${result}?.dataset.state === "done"`;
  const kept = answered.has(page) && ((await page.evaluate(finished)) as boolean);
  answered.delete(page);
  const askAfresh = async () => {
    await page.evaluate(`delete ${result}?.dataset[${JSON.stringify(inquiry.mark)}]; document.querySelector(${JSON.stringify(inquiry.table)})?.style.setProperty("display", "none");`);
    const answer = await ask();
    answered.add(page);
    return answer;
  };
  if (kept) {
    try {
      return await askAfresh();
    } catch (failure) {
      if (!(failure instanceof UnreadablePage)) throw failure;
    }
  }
  await inquiry.open();
  return askAfresh();
}

/**
 * Every result page of the inquiry just asked on it, each handed to `read` once its result says it is done and its
 * mark says its number, then the `next` button pressed until it is disabled.
 */
export async function readEachPage(
  page: BrowserPage,
  inquiry: InquiryPage,
  next: string,
  ctx: AdapterContext,
  failureFromText: (text: string) => ProviderFailure,
  read: () => Promise<void>,
): Promise<void> {
  const result = `document.querySelector(${JSON.stringify(inquiry.result)})`;
  for (let pageNo = 1; ; pageNo++) {
    await settle(page, `${result}?.dataset.state === "done" && ${result}?.dataset[${JSON.stringify(inquiry.mark)}] === "${pageNo}"`, ctx, failureFromText);
    await read();
    if (!((await page.evaluate(`!document.querySelector(${JSON.stringify(next)}).disabled`)) as boolean)) return;
    await press(page, next);
  }
}
