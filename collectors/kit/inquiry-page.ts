import type { BrowserPage } from "../adapter";

/**
 * Leaves the page on a site's inquiry form for a session's next unit. The inquiry page the last unit left, showing its
 * finished result, is asked again on as a person does: opening it anew cost Chromium a document (HTML, script, style,
 * layout) a unit, 42% of the scraper's CPU a 36-unit bank job (docs/capacity.md, stop 68). A page that ended otherwise
 * (still loading, an error line, elsewhere) is opened anew by `openAnew`, as every unit did before. The last result's
 * `data-<mark>` (the page or batch it shows) goes either way: the new inquiry's first page says 1 too, and a wait for
 * it must not end on the last one's.
 */
export async function toInquiryForm(page: BrowserPage, inquiryPath: string, resultSelector: string, mark: string, openAnew: () => Promise<void>): Promise<void> {
  const result = `document.querySelector(${JSON.stringify(resultSelector)})`;
  const finished = `location.pathname.endsWith(${JSON.stringify(inquiryPath)}) && ${result}?.dataset.state === "done"`;
  if (!(await page.evaluate(finished))) await openAnew();
  await page.evaluate(`delete ${result}?.dataset[${JSON.stringify(mark)}]`);
}
