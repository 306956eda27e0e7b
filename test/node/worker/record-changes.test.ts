import { describe, expect, it } from "vitest";
import { findSchema } from "../../../worker/domain/catalog/schemas";
import { changesBetween } from "../../../worker/domain/results/record-changes";

const invoices = findSchema("taxportal.tax-invoices.sales.v1")!.identity!;
const line = (id: string | null, writeDate: string, itemName: string, supplyAmount = 1000) => ({ ntsTransactionId: id, writeDate, itemName, supplyAmount });
const JANUARY = { start: "2026-01-01", end: "2026-01-31" };

describe("changes between two collections", () => {
  it("takes a document's lines as one: a changed line brings the whole document back as modified", () => {
    const base = [line("A", "2026-01-05", "볼트"), line("A", "2026-01-05", "너트"), line("B", "2026-01-06", "공구")];
    const now = [line("A", "2026-01-05", "볼트"), line("A", "2026-01-05", "너트", 1200), line("B", "2026-01-06", "공구")];
    expect(changesBetween(invoices, { range: JANUARY, records: base }, { range: JANUARY, records: now })).toEqual([
      { ...now[0], change: "modified" },
      { ...now[1], change: "modified" },
    ]);
  });

  it("sees no change in the same lines in another order", () => {
    const base = [line("A", "2026-01-05", "볼트"), line("A", "2026-01-05", "너트")];
    expect(changesBetween(invoices, { range: JANUARY, records: base }, { range: JANUARY, records: [...base].reverse() })).toEqual([]);
  });

  it("matches a record without its key only by all its fields: an edit to it is a removal and an addition", () => {
    const base = [line(null, "2026-01-05", "볼트")];
    const now = [line(null, "2026-01-05", "볼트", 900)];
    expect(changesBetween(invoices, { range: JANUARY, records: base }, { range: JANUARY, records: now })).toEqual([
      { ...now[0], change: "added" },
      { ...base[0], change: "removed" },
    ]);
  });

  it("removes only what the current range covers", () => {
    const base = [line("A", "2026-01-05", "볼트"), line("B", "2026-01-25", "공구")];
    const current = { range: { start: "2026-01-20", end: "2026-02-19" }, records: [] };
    expect(changesBetween(invoices, { range: JANUARY, records: base }, current)).toEqual([{ ...base[1], change: "removed" }]);
  });
});
