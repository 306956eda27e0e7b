import type { Page } from "puppeteer-core";

/**
 * Clicks a link or button of the console's menu as a person does: first the summaries of the closed menus it sits in
 * that are on screen (the phone's 메뉴, then its group), then the item itself.
 */
export async function fromMenu(page: Page, selector: string): Promise<void> {
  const target = `nav ${selector}`;
  for (;;) {
    const summary = await page.evaluateHandle((sel) => {
      const chain: HTMLDetailsElement[] = [];
      for (let d = document.querySelector(sel)!.closest("details"); d; d = d.parentElement!.closest("details")) chain.unshift(d);
      return chain.find((d) => !d.open && d.querySelector("summary")!.checkVisibility())?.querySelector("summary") ?? null;
    }, target);
    const element = summary.asElement();
    if (!element) break;
    await (element as Awaited<ReturnType<Page["$"]>>)!.click();
  }
  await page.click(target);
}
