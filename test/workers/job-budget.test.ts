import { describe, expect, it } from "vitest";
import { findProvider } from "../../worker/domain/catalog/providers";
import { findSchema } from "../../worker/domain/catalog/schemas";
import { waitBudgetSeconds } from "../../worker/domain/jobs/budget";

const year = { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" };

describe("a job's wait budget", () => {
  it("gives Hometax's paced segments their pace: a year is four quarters of its segment time, not of a minute", () => {
    const hometax = findProvider("hometax")!;
    // A schema of pages only: invoices, a detail request each, have their own segment time (the next test).
    const schema = findSchema("taxportal.cash-receipts.purchase.v1")!;
    expect(waitBudgetSeconds(hometax, schema, year)).toBe(300 + 4 * hometax.segmentSeconds!);
    // Its segment holds at least a quarter's pages and details at S1's 1 s (docs/institutions/hometax.md).
    expect(hometax.segmentSeconds!).toBeGreaterThanOrEqual(200);
    const unpaced = { ...hometax, segmentSeconds: undefined };
    expect(waitBudgetSeconds(unpaced, schema, year)).toBe(300 + 4 * 60);
  });

  it("holds a large business's Hometax year at the adapter's pace (issue 65): 3,000 invoices a side, a detail request each", () => {
    const hometax = findProvider("hometax")!;
    // bench:pipeline's counts at the replica (docs/benchmarks.md): 3,078 requests for a side's year, 6,149 for the lines;
    // the adapter waits 1 s plus half its 0.5 s jitter on average before each request.
    const seconds = (requests: number) => requests * 1.25;
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoices.sales.v1")!, year)).toBeGreaterThan(seconds(3_078));
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoices.purchase.v1")!, year)).toBeGreaterThan(seconds(3_078));
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoice-lines.v1")!, year)).toBeGreaterThan(seconds(6_149));
    // Schemas of pages only keep the provider's segment time.
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.cash-receipts.purchase.v1")!, year)).toBe(300 + 4 * hometax.segmentSeconds!);
  });
});
