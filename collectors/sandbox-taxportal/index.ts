import type { AdapterContext, BrowserAdapter, BrowserPage, RawRecord } from "../adapter";
import { ProviderFailure } from "../adapter";
import { approvalsOfCard, CARD_PURCHASES, cardLookback, cardsOfPurchases } from "../kit/business-card-approvals";
import { documentRecords } from "./documents";
import { login } from "./login";

/** The portal's business-card purchases of a period, one inquiry per window it answers (31 days at most, documents.ts). */
async function cardPurchases(page: BrowserPage, period: { start: string; end: string }, ctx: AdapterContext) {
  const records: RawRecord[] = [];
  for (let start = period.start; start <= period.end; ) {
    const limit = new Date(Date.parse(start) + 30 * 86_400_000).toISOString().slice(0, 10);
    const end = limit < period.end ? limit : period.end;
    records.push(...(await documentRecords(page, { jobId: "", unitIndex: 0, schema: CARD_PURCHASES, target: null, segment: { start, end }, params: {} }, ctx)));
    start = new Date(Date.parse(end) + 86_400_000).toISOString().slice(0, 10);
  }
  return records;
}

/**
 * The sandbox tax portal (`sandbox.taxportal`): tax invoices and cash receipts, sales and purchase; invoice lines and
 * business-card purchases, and the spec's card schemas read from those purchases as from Hometax's (business-card-approvals.ts).
 */
export const sandboxTaxPortal: BrowserAdapter = {
  kind: "browser",
  providerCode: "sandbox.taxportal",
  version: "sandbox-taxportal/2026-12-01",
  login,
  async discoverTargets(page, schema, ctx) {
    if (schema !== "card.approvals.corp.v1") return [];
    return cardsOfPurchases(await cardPurchases(page, cardLookback(), ctx)).map((card) => ({ id: String(card.cardNumberMasked), attributes: {} }));
  },
  async collect(page, unit, ctx) {
    if (unit.schema === "card.cards.corp.v1") return cardsOfPurchases(await cardPurchases(page, cardLookback(), ctx));
    if (unit.schema !== "card.approvals.corp.v1") return documentRecords(page, unit, ctx);
    if (!unit.target || !unit.segment) throw new ProviderFailure("PROVIDER_ERROR", "card approvals need a card and a period");
    return approvalsOfCard(await cardPurchases(page, unit.segment, ctx), unit.target.id);
  },
};
