import type { AdapterContext, BrowserPage } from "../adapter";
import { press, settle } from "../kit/page-state";
import { failureFromText } from "./failures";

/**
 * Closes the issuer's pop-up notice, which covers the page and takes every
 * click meant for it, ticking "오늘 하루 보지 않기" so later pages of the
 * session open without it. Call once the page has finished asking for notices.
 */
export async function closeNoticeLayer(page: BrowserPage, ctx: AdapterContext): Promise<void> {
  if (!(await page.evaluate(`document.getElementById("noticeLayer")?.hidden === false`))) return;
  await press(page, "#noticeHideToday");
  await press(page, "#noticeClose");
  await settle(page, `document.getElementById("noticeLayer").hidden`, ctx, failureFromText);
}
