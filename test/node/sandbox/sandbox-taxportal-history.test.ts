import { describe, expect, it } from "vitest";
import { fromDay, toDay } from "../../../sandbox/dates";
import { DOCUMENT_TYPES, type DocumentType, documentsOf } from "../../../sandbox/sandbox-taxportal/documents";
import { findSchema } from "../../../worker/domain/catalog/schemas";
import { changesBetween } from "../../../worker/domain/results/record-changes";

const TODAY = "2026-06-30";
const RANGE = { start: fromDay(toDay(TODAY) - 14), end: TODAY };
const negated = ["supplyAmount", "taxAmount", "totalAmount"];
const LINES = "taxportal.tax-invoice-lines.v1";
/** The day a document is placed by, as incremental jobs place it. */
const dayOf = (type: DocumentType, document: Record<string, unknown>) => findSchema(type)!.identity!.day(document);

describe("sandbox tax portal history", () => {
  it.each((Object.keys(DOCUMENT_TYPES) as DocumentType[]).filter((type) => type !== LINES))("adds the correction of an earlier %s per revision, its amounts negated, and changes nothing else", (type) => {
    const [before, after] = [documentsOf("1208800767", type, RANGE, 0, TODAY), documentsOf("1208800767", type, RANGE, 1, TODAY)];
    const changes = changesBetween(findSchema(type)!.identity!, { range: RANGE, records: before }, { range: RANGE, records: after });
    // Revision 1 corrects the first document written 6 to 2 days before today, on the day before today.
    const original = before.find((d) => dayOf(type, d) >= fromDay(toDay(TODAY) - 6));
    expect(original).toBeDefined();
    expect(changes).toHaveLength(1);
    const { change, ...corrected } = changes[0]!;
    expect(change).toBe("added");
    expect(dayOf(type, corrected)).toBe(fromDay(toDay(TODAY) - 1));
    for (const field of negated) expect(corrected[field]).toBe(-(original![field] as number));
    expect(after).toHaveLength(before.length + 1);
  });

  it("adds the lines of each invoice a revision corrects, whole, adding up to its negated amounts", () => {
    const [before, after] = [documentsOf("1208800767", LINES, RANGE, 0, TODAY), documentsOf("1208800767", LINES, RANGE, 1, TODAY)];
    const changes = changesBetween(findSchema(LINES)!.identity!, { range: RANGE, records: before }, { range: RANGE, records: after });
    const corrections = (["taxportal.tax-invoices.sales.v1", "taxportal.tax-invoices.purchase.v1"] as const).flatMap((type) => {
      const known = new Set(documentsOf("1208800767", type, RANGE, 0, TODAY).map((d) => d.ntsTransactionId));
      return documentsOf("1208800767", type, RANGE, 1, TODAY).filter((d) => !known.has(d.ntsTransactionId));
    });
    expect(corrections).toHaveLength(2);
    expect(changes.every((c) => c.change === "added")).toBe(true);
    expect(new Set(changes.map((c) => c.approvalNumber))).toEqual(new Set(corrections.map((i) => i.ntsTransactionId)));
    expect(after).toHaveLength(before.length + changes.length);
    for (const invoice of corrections) {
      const lines = changes.filter((c) => c.approvalNumber === invoice.ntsTransactionId);
      expect(lines.map((l) => l.lineNumber)).toEqual(lines.map((_, i) => i + 1));
      expect(lines.reduce((sum, l) => sum + (l.supplyAmount as number), 0)).toBe(invoice.supplyAmount);
      expect(invoice.supplyAmount as number).toBeLessThan(0);
    }
  });
});
