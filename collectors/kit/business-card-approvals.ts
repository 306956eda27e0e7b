import type { RawRecord } from "../adapter";
import { malformed } from "./failure-text";
import { DAY_MS, kstDate, kstIso } from "../../contracts/korean-time";

/**
 * The spec's card schemas read from a tax portal's business-card purchases (`taxportal.business-card-purchases.v1`,
 * Hometax's `ATECRCCA001R06`, sheet A4): every business card's purchases from every issuer, as the issuers report
 * them to the National Tax Service, about a month late (docs/institutions/hometax.md, "Card schemas from the
 * purchase list", which tables each field's source). A purchase becomes an approval field by field; what the list
 * does not say is null, or the schema's value for "not known", never a guess.
 */

/** The schema the card schemas are read from. */
export const CARD_PURCHASES = "taxportal.business-card-purchases.v1";

/**
 * The days before today whose purchases say which cards the business has: the longest job range (366 days). The
 * portal lists no cards of its own in any public source, so a card is known by a purchase in that time; a card
 * unused for longer is not listed (the doc says so).
 */
export const CARD_LOOKBACK_DAYS = 366;

/** The period the cards are read from, ending today in Korea. */
export function cardLookback(now = Date.now()): { start: string; end: string } {
  const today = kstDate(now);
  return { start: new Date(Date.parse(today) - (CARD_LOOKBACK_DAYS - 1) * DAY_MS).toISOString().slice(0, 10), end: today };
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** The cards of some purchases, each once, named by the issuer its latest purchase names (`crcmClNm`), else by its number. */
export function cardsOfPurchases(purchases: readonly RawRecord[]): RawRecord[] {
  const latest = new Map<string, RawRecord>();
  for (const purchase of purchases) {
    const card = text(purchase.cardNumberMasked);
    if (!card) throw malformed("a business-card purchase without its card number");
    const seen = latest.get(card);
    if (!seen || String(purchase.transactionDate) >= String(seen.transactionDate)) latest.set(card, purchase);
  }
  return [...latest.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([card, purchase]) => ({ schema: "card.cards.corp.v1", cardName: text(purchase.cardCompany) ?? card, cardNumberMasked: card }));
}

/** One purchase as the spec's approval (the mapping table: docs/institutions/hometax.md). */
export function approvalOfPurchase(purchase: RawRecord): RawRecord {
  const serial = text(purchase.transactionIdentifier);
  const total = purchase.totalAmount;
  if (!serial || typeof total !== "number") throw malformed("a business-card purchase without its serial or total");
  return {
    schema: "card.approvals.corp.v1",
    // The row serial is what S1 takes for the approval number; the list shows no other (A4).
    approvalNumber: serial,
    // The list has the approval day only (`aprvDt`): the day's start in Korea, the time not known.
    approvedAt: kstIso(`${String(purchase.transactionDate)}T00:00:00`),
    cardNumberMasked: purchase.cardNumberMasked,
    // Neither installments nor the card's kind (credit or check) is in the list.
    installmentMonths: null,
    paymentMethod: "OTHER",
    // The issuers report purchases to the NTS, which no source says are captured or only authorized.
    lifecycleStage: "UNKNOWN",
    merchantAddress: null,
    merchantBusinessIdentifier: purchase.merchantBusinessIdentifier ?? null,
    merchantBusinessType: purchase.businessTypeName ?? null,
    merchantContactNumber: null,
    // A merchant the list names no one for keeps its business number as its name, or is said to be unnamed.
    merchantName: text(purchase.merchantName) ?? text(purchase.merchantBusinessIdentifier) ?? "(가맹점명 없음)",
    merchantRepresentativeName: null,
    // Every amount of the list is the won the VAT return counts; no source shows a foreign one.
    originalAmount: null,
    originalCurrencyCode: null,
    overseas: false,
    settledAmount: total,
    settledCurrencyCode: "KRW",
    // A reported purchase is one made; a total below zero is no row any source shows, so not called a cancellation.
    status: total > 0 ? "APPROVED" : "UNKNOWN",
    // Its VAT (`vaTxamt`), 0 for a tax-exempt merchant's blank, as the purchase record has it.
    taxAmount: purchase.taxAmount ?? null,
    transactionIdentifier: serial,
  };
}

/** A card's approvals among some purchases. */
export function approvalsOfCard(purchases: readonly RawRecord[], card: string): RawRecord[] {
  return purchases.filter((p) => p.cardNumberMasked === card).map(approvalOfPurchase);
}
