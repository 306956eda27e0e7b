import type { RawRecord, Target } from "../adapter";
import type { AdapterContext, BrowserPage } from "../adapter";
import { malformed } from "../kit/failure-text";
import { failureFromText } from "./failures";
import { parseAmount } from "../kit/display-values";
import { open, settle } from "../kit/page-state";

const TYPES: Record<string, string> = { 입출금: "CHECKING", 적금: "INSTALLMENT_SAVINGS", 외화: "FOREIGN" };

interface AccountRow {
  number: string;
  type: string;
  product: string;
  alias: string;
  formatted: string;
  currency: string;
  balance: string;
  available: string;
}

const READ_ROWS = `[...document.querySelectorAll("#accountList tbody tr")].map((tr) => {
  const cell = (c) => tr.querySelector("td." + c)?.textContent ?? null;
  return { number: tr.dataset.account ?? null, type: cell("type"), product: cell("product"), alias: cell("alias"), formatted: cell("number"), currency: cell("currency"), balance: cell("balance"), available: cell("available") };
})`;

async function readAccounts(page: BrowserPage, ctx: AdapterContext): Promise<AccountRow[]> {
  if (!page.url().endsWith("/accounts")) await open(page, new URL("accounts", ctx.baseUrl).toString(), ctx);
  await settle(page, `document.querySelector("#accountList")?.dataset.state === "done"`, ctx, failureFromText);
  const rows = (await page.evaluate(READ_ROWS)) as AccountRow[];
  for (const row of rows) {
    if (Object.values(row).some((v) => v === null) || !TYPES[row.type]) throw malformed("account row incomplete");
  }
  return rows;
}

export async function accountTargets(page: BrowserPage, ctx: AdapterContext): Promise<Target[]> {
  return (await readAccounts(page, ctx)).map((row) => ({
    id: row.number,
    attributes: { accountType: TYPES[row.type]!, currencyCode: row.currency, accountNumberFormatted: row.formatted },
  }));
}

export async function accountRecords(page: BrowserPage, ctx: AdapterContext): Promise<RawRecord[]> {
  return (await readAccounts(page, ctx)).map((row) => ({
    accountNumber: row.number,
    accountNumberFormatted: row.formatted,
    accountType: TYPES[row.type]!,
    availableBalance: parseAmount(row.available).value,
    balance: parseAmount(row.balance).value,
    currencyCode: row.currency,
    displayName: row.alias || null,
    productName: row.product,
  }));
}
