import { describe, expect, it } from "vitest";
import { approvalsOf } from "../../../sandbox/sandbox-card/approvals";
import { cardsOf } from "../../../sandbox/sandbox-card/cards";
import { cardGroundTruth } from "../../../sandbox/sandbox-card/ground-truth";
import { fromDay, toDay } from "../../../sandbox/dates";
import { findSchema } from "../../../worker/domain/catalog/schemas";
import { changesBetween } from "../../../worker/domain/results/record-changes";
import { CardApprovalRecord, CorporateCardRecord } from "../../../contracts/records/card";
import { specViolations } from "../../support/spec-field-tables";

const truth = cardGroundTruth("user_good");
const approvals = truth.approvals;
// A cancellation is a line of its own, with the negative of what it gives back.
const isCancellation = (a: (typeof approvals)[number]) => a.settledAmount < 0;
// A day to view the issuer's data on where a check depends on what the last days held (see its test).
const FIXED_DAY = "2026-06-10";

describe("sandbox card issuer's data", () => {
  it("is deterministic per login and different across logins", () => {
    expect(cardGroundTruth("user_good")).toEqual(truth);
    expect(cardsOf("someone_else").map((c) => c.cardNumberMasked)).not.toEqual(truth.cards.map((c) => c.cardNumberMasked));
    expect(cardGroundTruth("someone_else", { start: "2026-01-01", end: "2026-01-31" }).approvals).not.toEqual(cardGroundTruth("user_good", { start: "2026-01-01", end: "2026-01-31" }).approvals);
  });

  it("gives a business several cards, one suspended and one expired, used only while they worked", () => {
    const cards = cardsOf("user_good");
    expect(cards.length).toBeGreaterThanOrEqual(4);
    expect(cards.map((c) => c.state)).toEqual(expect.arrayContaining(["ACTIVE", "SUSPENDED", "EXPIRED"]));
    expect(new Set(cards.map((c) => c.cardNumberMasked)).size).toBe(cards.length);
    for (const card of cards) {
      const attempts = approvalsOf(card).filter((a) => a.settledAmount >= 0);
      expect(attempts.length, card.cardNumberMasked).toBeGreaterThan(0);
      for (const a of attempts) {
        expect(a.approvedAt.slice(0, 10) >= card.usableFrom).toBe(true);
        if (card.usableUntil) expect(a.approvedAt.slice(0, 10) <= card.usableUntil).toBe(true);
      }
    }
  });

  it("produces records that fit the spec's field tables and the record schemas, with unique transaction identifiers", () => {
    for (const record of [...truth.cards, ...approvals]) expect(specViolations(record), JSON.stringify(record)).toEqual([]);
    for (const record of truth.cards) expect(CorporateCardRecord.parse(record)).toEqual(record);
    for (const record of approvals) expect(CardApprovalRecord.parse(record)).toEqual(record);
    expect(new Set(approvals.map((a) => a.transactionIdentifier)).size).toBe(approvals.length);
    expect(approvals.length).toBeGreaterThan(2000);
  });

  it("has every kind of approval: domestic and overseas, lump-sum, instalment and check, cancelled in full and in part, declined, authorised and captured", () => {
    const kinds = (pick: (a: (typeof approvals)[number]) => unknown) => new Set(approvals.map(pick));
    expect(kinds((a) => a.overseas)).toEqual(new Set([true, false]));
    expect(kinds((a) => a.paymentMethod)).toEqual(new Set(["SINGLE_PAYMENT", "INSTALLMENT", "CHECK"]));
    expect(kinds((a) => a.status)).toEqual(new Set(["APPROVED", "CANCELLED", "PARTIALLY_CANCELLED", "DECLINED"]));
    expect(kinds((a) => a.lifecycleStage)).toEqual(new Set(["AUTHORIZED", "CAPTURED", "UNKNOWN"]));
    expect(kinds((a) => a.originalCurrencyCode)).toEqual(new Set([null, "USD", "JPY", "EUR", "SGD", "GBP"]));
  });

  it("splits VAT out of domestic totals and settles overseas spending in dollars", () => {
    for (const a of approvals) {
      if (a.overseas) {
        expect(a).toMatchObject({ settledCurrencyCode: "USD", taxAmount: null, merchantBusinessIdentifier: null });
        expect(a.originalCurrencyCode).toMatch(/^[A-Z]{3}$/);
        expect(Math.sign(a.originalAmount!)).toBe(Math.sign(a.settledAmount));
      } else {
        expect(a).toMatchObject({ settledCurrencyCode: "KRW", originalAmount: null, originalCurrencyCode: null });
        expect(a.merchantBusinessIdentifier ?? "0000000000").toMatch(/^\d{10}$/);
        expect(Math.abs(a.settledAmount) % 10).toBe(0);
        if (a.status === "DECLINED") expect(a.taxAmount).toBeNull();
        // Exempt supplies (books, post, medical care) carry a zero VAT; everything else 1/11 of the total.
        else if (a.taxAmount !== 0) expect(a.taxAmount).toBe(Math.sign(a.settledAmount) * Math.round(Math.abs(a.settledAmount) / 11));
      }
    }
    expect(approvals.some((a) => !a.overseas && a.taxAmount === 0)).toBe(true);
  });

  it("pairs every cancellation with its approval: same approval number, full or partial amount, the approval's status", () => {
    const cancellations = approvals.filter(isCancellation);
    expect(cancellations.length).toBeGreaterThan(50);
    for (const c of cancellations) {
      const original = approvals.find((a) => !isCancellation(a) && a.approvalNumber === c.approvalNumber && a.cardNumberMasked === c.cardNumberMasked)!;
      expect(original, c.transactionIdentifier).toBeDefined();
      expect(original.approvedAt <= c.approvedAt).toBe(true);
      expect(original.status).toBe(c.status);
      expect({ ...c, approvedAt: null, settledAmount: null, originalAmount: null, taxAmount: null, lifecycleStage: null, transactionIdentifier: null }).toEqual({
        ...original, approvedAt: null, settledAmount: null, originalAmount: null, taxAmount: null, lifecycleStage: null, transactionIdentifier: null,
      });
      if (c.status === "CANCELLED") expect(c.settledAmount).toBe(-original.settledAmount);
      else expect(-c.settledAmount).toBeLessThan(original.settledAmount);
    }
    for (const a of approvals.filter((x) => !isCancellation(x) && (x.status === "CANCELLED" || x.status === "PARTIALLY_CANCELLED"))) {
      expect(cancellations.some((c) => c.approvalNumber === a.approvalNumber && c.cardNumberMasked === a.cardNumberMasked)).toBe(true);
    }
  });

  it("pays in instalments only on credit cards, as check payments on the check card", () => {
    const kinds = new Map(cardsOf("user_good").map((c) => [c.cardNumberMasked, c.kind]));
    for (const a of approvals) {
      expect(a.paymentMethod === "CHECK").toBe(kinds.get(a.cardNumberMasked) === "CHECK");
      if (a.paymentMethod === "INSTALLMENT") expect(a.installmentMonths).toBeGreaterThanOrEqual(2);
      else expect(a.installmentMonths).toBeNull();
    }
  });

  it("captures approvals some days after authorising them; declined ones never are", () => {
    // The issuer's view on a fixed day: whether the last two days saw spending still waiting for capture depends on
    // the day (on about one day in 50 they did not), so today's view would make the last check fail now and then.
    const today = toDay(FIXED_DAY);
    const viewed = cardGroundTruth("user_good", undefined, 0, FIXED_DAY).approvals;
    for (const a of viewed) {
      if (a.status === "DECLINED") expect(a.lifecycleStage).toBe("UNKNOWN");
      else expect(a.lifecycleStage).not.toBe("UNKNOWN");
      // Authorised and still not captured after a week: only an authorisation released by a full cancellation.
      if (a.lifecycleStage === "AUTHORIZED" && today - toDay(a.approvedAt.slice(0, 10)) > 7) expect(a.status).toBe("CANCELLED");
    }
    expect(viewed.some((a) => a.lifecycleStage === "AUTHORIZED" && today - toDay(a.approvedAt.slice(0, 10)) <= 2)).toBe(true);
  });

  it("moves a login's history on a week per revision: approvals made by then are captured or cancelled since, and match by identifier", () => {
    // As above, a fixed day: on about one day in 100, nothing of the last 30 days changes in the week after.
    const range = { start: fromDay(toDay(FIXED_DAY) - 30), end: FIXED_DAY };
    const [before, after] = [cardGroundTruth("user_good", range, 0, FIXED_DAY).approvals, cardGroundTruth("user_good", range, 1, FIXED_DAY).approvals];
    const changes = changesBetween(findSchema("card.approvals.corp.v1")!.identity!, { range, records: before }, { range, records: after });
    expect(changes.length).toBeGreaterThan(0);
    for (const { change, ...line } of changes) {
      expect(change).toBe("modified");
      const was = before.find((a) => a.transactionIdentifier === line.transactionIdentifier)!;
      expect({ ...line, status: was.status, lifecycleStage: was.lifecycleStage }).toEqual(was);
    }
  });
});

