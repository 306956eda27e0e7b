import type { z } from "zod";
import type { DateSegment } from "../../collectors/adapter";
import type { CardApprovalRecord } from "../../contracts/records/card";
import { inCurrency } from "../amounts";
import { fromDay, toDay } from "../dates";
import { pick, seededRandom } from "../random";
import { APPROVALS_ORIGIN, type Card } from "./cards";
import { DOMESTIC_MERCHANTS, type Merchant, OVERSEAS_MERCHANTS, SETTLEMENT_CURRENCY_ABROAD, USD_PER_UNIT } from "./merchants";
import { kstDate, kstIso } from "../../contracts/korean-time";

/** One line of a card's approval history, in the record shape the service returns. */
export type ApprovalLine = Omit<z.infer<typeof CardApprovalRecord>, "schema">;

const INSTALLMENT_MONTHS = [2, 3, 6, 10, 12] as const;
const WEEKEND_USE = 0.35;
const DECLINE_RATE = 0.015;
const FULL_CANCEL_RATE = 0.04;
const PARTIAL_CANCEL_RATE = 0.03;

/** What an approval attempt turns into over time: a cancellation later, a capture by the issuer some days after. */
interface Attempt {
  line: ApprovalLine;
  merchant: Merchant;
  day: number;
  /** The day the issuer captures (매입) it; null when it was declined. */
  captureDay: number | null;
  cancellation: { day: number; time: string; full: boolean; settled: number; original: number | null } | null;
}

const clock = (second: number) => [Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60].map((n) => String(n).padStart(2, "0")).join(":");
/** Small purchases are common, large ones rare; won amounts end in 0, as Korean prices do. */
function spend(random: () => number, merchant: Merchant): number {
  const raw = merchant.min + (merchant.max - merchant.min) * random() ** 2.2;
  return merchant.currency === "KRW" ? Math.round(raw / 10) * 10 : inCurrency(merchant.currency, raw);
}
const toUsd = (currency: string, amount: number) => inCurrency(SETTLEMENT_CURRENCY_ABROAD, amount * USD_PER_UNIT[currency]!);
/** VAT inside a domestic total (supply + 10%): 1/11 of it; zero for exempt supplies, unknown abroad. */
const vatOf = (merchant: Merchant, overseas: boolean, settled: number) => (overseas ? null : merchant.taxFree ? 0 : Math.round(settled / 11));

function attempt(card: Card, day: number, second: number, seq: number, random: () => number): Attempt {
  const date = fromDay(day);
  const overseas = card.overseas && random() < 0.12;
  const merchant = pick(random, overseas ? OVERSEAS_MERCHANTS : DOMESTIC_MERCHANTS);
  const charged = spend(random, merchant);
  const settled = overseas ? toUsd(merchant.currency, charged) : charged;
  const declined = random() < DECLINE_RATE;
  const installment = card.kind === "CREDIT" && merchant.installable && settled >= 50_000 && random() < 0.35 ? pick(random, INSTALLMENT_MONTHS) : null;
  const approvalNumber = String(Math.floor(random() * 1e8)).padStart(8, "0");
  const line: ApprovalLine = {
    approvalNumber,
    approvedAt: kstIso(`${date}T${clock(second)}`),
    cardNumberMasked: card.cardNumberMasked,
    installmentMonths: installment,
    lifecycleStage: "UNKNOWN",
    merchantAddress: merchant.address,
    merchantBusinessIdentifier: merchant.businessNumber,
    merchantBusinessType: merchant.businessType,
    merchantContactNumber: merchant.phone,
    merchantName: merchant.name,
    merchantRepresentativeName: merchant.representative,
    originalAmount: overseas ? charged : null,
    originalCurrencyCode: overseas ? merchant.currency : null,
    overseas,
    paymentMethod: card.kind === "CHECK" ? "CHECK" : installment ? "INSTALLMENT" : "SINGLE_PAYMENT",
    settledAmount: settled,
    settledCurrencyCode: overseas ? SETTLEMENT_CURRENCY_ABROAD : "KRW",
    status: declined ? "DECLINED" : "APPROVED",
    // A declined attempt carries no VAT: nothing was supplied.
    taxAmount: declined ? null : vatOf(merchant, overseas, settled),
    transactionIdentifier: `${date.replace(/-/g, "")}${card.serial}${String(seq).padStart(3, "0")}0`,
  };
  const cancelDraw = random();
  const cancelDelay = Math.floor(random() * 10);
  const cancelShare = 0.2 + random() * 0.4;
  const cancelSecond = cancelDelay === 0 ? second + Math.floor(random() * (86_399 - second)) : 9 * 3600 + Math.floor(random() * 12 * 3600);
  const captureDelay = overseas ? 2 + Math.floor(random() * 5) : 1 + Math.floor(random() * 2);
  let cancellation: Attempt["cancellation"] = null;
  const partialAllowed = settled >= (overseas ? 20 : 20_000);
  if (!declined && (cancelDraw < FULL_CANCEL_RATE || (cancelDraw < FULL_CANCEL_RATE + PARTIAL_CANCEL_RATE && partialAllowed))) {
    const full = cancelDraw < FULL_CANCEL_RATE;
    const original = overseas ? (full ? charged : inCurrency(merchant.currency, charged * cancelShare)) : null;
    const cancelled = full ? settled : overseas ? toUsd(merchant.currency, original!) : Math.round((settled * cancelShare) / 10) * 10;
    cancellation = { day: day + cancelDelay, time: clock(cancelSecond), full, settled: cancelled, original };
  }
  return { line, merchant, day, captureDay: declined ? null : day + captureDelay, cancellation };
}

/** The lines an attempt shows as of `today`: its own, with the status it has by now, and its cancellation once made. */
function linesAsOf(a: Attempt, today: number): ApprovalLine[] {
  const cancel = a.cancellation && a.cancellation.day <= today ? a.cancellation : null;
  // Cancelled in full before the issuer captured it: the authorisation is released and never captured.
  const released = cancel !== null && cancel.full && cancel.day < a.captureDay!;
  const stage = (captureDay: number | null): ApprovalLine["lifecycleStage"] => (captureDay === null ? "UNKNOWN" : !released && captureDay <= today ? "CAPTURED" : "AUTHORIZED");
  const status = cancel ? (cancel.full ? "CANCELLED" : "PARTIALLY_CANCELLED") : a.line.status;
  const own: ApprovalLine = { ...a.line, status, lifecycleStage: stage(a.captureDay) };
  if (!cancel) return [own];
  const vat = vatOf(a.merchant, a.line.overseas, cancel.settled);
  return [
    own,
    {
      ...own,
      approvedAt: kstIso(`${fromDay(cancel.day)}T${cancel.time}`),
      settledAmount: -cancel.settled,
      originalAmount: cancel.original === null ? null : -cancel.original,
      taxAmount: vat ? -vat : vat,
      lifecycleStage: stage(Math.max(cancel.day, a.captureDay!) + 1),
      transactionIdentifier: `${a.line.transactionIdentifier.slice(0, -1)}1`,
    },
  ];
}

const cache = new Map<string, Attempt[]>();

/** Every approval attempt of a card from the origin (or its issue) to the day it stopped working or today. */
function attemptsOf(card: Card, today: number): Attempt[] {
  const key = `${card.key}:${today}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const attempts: Attempt[] = [];
  const last = Math.min(today, card.usableUntil ? toDay(card.usableUntil) : today);
  for (let day = Math.max(toDay(APPROVALS_ORIGIN), toDay(card.usableFrom)); day <= last; day++) {
    const random = seededRandom(`${card.key}:${fromDay(day)}`);
    const weekday = new Date(day * 86_400_000).getUTCDay();
    const use = card.dailyUse * (weekday === 0 || weekday === 6 ? WEEKEND_USE : 1);
    const count = Math.floor(random() * (2 * use + 1));
    // Business spending happens between 07:00 and 23:00, Korean time.
    const seconds = Array.from({ length: count }, () => 7 * 3600 + Math.floor(random() * 16 * 3600)).sort((a, b) => a - b);
    seconds.forEach((second, seq) => attempts.push(attempt(card, day, second, seq + 1, random)));
  }
  cache.set(key, attempts);
  return attempts;
}

/**
 * A card's approval history as the issuer shows it on `today` (KST): oldest
 * first, cancellations as lines of their own on the day they were made.
 */
export function approvalsOf(card: Card, range?: DateSegment, today = kstDate()): ApprovalLine[] {
  const todayNumber = toDay(today);
  return attemptsOf(card, todayNumber)
    .flatMap((a) => linesAsOf(a, todayNumber))
    .filter((line) => !range || (line.approvedAt.slice(0, 10) >= range.start && line.approvedAt.slice(0, 10) <= range.end))
    .sort(byApprovalTime);
}

/** Days the issuer's view moves on per revision of a login's history (POST /card/sandbox/history). */
export const DAYS_PER_REVISION = 7;

/**
 * The day whose view a login's history shows at `revision`: today, or that many weeks on, when approvals made by
 * today have been captured or cancelled since (and later ones, past any range ending today, were made).
 */
export function viewDay(revision: number, today = kstDate()): string {
  return fromDay(toDay(today) + revision * DAYS_PER_REVISION);
}

/** Oldest first; lines of the same second in the order they were made. */
export function byApprovalTime(a: ApprovalLine, b: ApprovalLine): number {
  return a.approvedAt < b.approvedAt ? -1 : a.approvedAt > b.approvedAt ? 1 : a.transactionIdentifier < b.transactionIdentifier ? -1 : 1;
}
