import { describe, expect, it } from "vitest";
import { fromDay, toDay } from "../../sandbox/dates";
import { DOCUMENT_TYPES, type DocumentType, documentsOf } from "../../sandbox/taxportal/documents";
import { findSchema } from "../../worker/domain/catalog/schemas";
import { changesBetween } from "../../worker/domain/results/record-changes";

const TODAY = "2026-06-30";
const RANGE = { start: fromDay(toDay(TODAY) - 14), end: TODAY };
const negated = ["supplyAmount", "taxAmount", "totalAmount"];

describe("sandbox tax portal history", () => {
  it.each(Object.keys(DOCUMENT_TYPES) as DocumentType[])("adds the correction of an earlier %s per revision, its amounts negated, and changes nothing else", (type) => {
    const [before, after] = [documentsOf("1208800767", type, RANGE, 0, TODAY), documentsOf("1208800767", type, RANGE, 1, TODAY)];
    const changes = changesBetween(findSchema(type)!.identity!, { range: RANGE, records: before }, { range: RANGE, records: after });
    // Revision 1 corrects the first document written 6 to 2 days before today, on the day before today.
    const original = before.find((d) => String(d.writeDate ?? d.transactionAt).slice(0, 10) >= fromDay(toDay(TODAY) - 6));
    expect(original).toBeDefined();
    expect(changes).toHaveLength(1);
    const { change, ...corrected } = changes[0]!;
    expect(change).toBe("added");
    expect(String(corrected.transactionAt ?? corrected.writeDate).slice(0, 10)).toBe(fromDay(toDay(TODAY) - 1));
    for (const field of negated) expect(corrected[field]).toBe(-(original![field] as number));
    expect(after).toHaveLength(before.length + 1);
  });
});
