import type { AdapterContext, BrowserPage, RawRecord, Target } from "../adapter";
import { malformed } from "../kit/failure-text";
import { open, settle } from "../kit/page-state";
import { failureFromText } from "./failures";

/** The card list, filled by the page's script after its notices. */
export const CARD_LIST_READY = `location.pathname.endsWith("/main") && document.querySelector("#cardList")?.dataset.state === "done"`;

const READ_ROWS = `[...document.querySelectorAll("#cardList tbody tr")].map((tr) => ({
  name: tr.querySelector("td.name")?.textContent ?? null,
  number: tr.querySelector("td.number")?.textContent ?? null,
}))`;

// Suspended and expired cards stay on the list: their history can still be asked for.
async function readCards(page: BrowserPage, ctx: AdapterContext): Promise<{ name: string; number: string }[]> {
  if (!page.url().endsWith("/main")) await open(page, new URL("main", ctx.baseUrl).toString(), ctx);
  await settle(page, CARD_LIST_READY, ctx, failureFromText);
  const rows = (await page.evaluate(READ_ROWS)) as { name: string | null; number: string | null }[];
  return rows.map((row) => {
    if (!row.name || !row.number?.includes("*")) throw malformed("card row without a name or a masked number");
    return { name: row.name, number: row.number };
  });
}

export async function cardTargets(page: BrowserPage, ctx: AdapterContext): Promise<Target[]> {
  return (await readCards(page, ctx)).map((card) => ({ id: card.number, attributes: {} }));
}

export async function cardRecords(page: BrowserPage, ctx: AdapterContext): Promise<RawRecord[]> {
  return (await readCards(page, ctx)).map((card) => ({ cardName: card.name, cardNumberMasked: card.number }));
}
