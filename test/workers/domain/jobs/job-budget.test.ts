import { describe, expect, it } from "vitest";
import { collectBoundMs, findProvider, unitWindowDays } from "../../../../worker/domain/catalog/providers";
import { findSchema } from "../../../../worker/domain/catalog/schemas";
import { waitBudgetSeconds } from "../../../../worker/domain/jobs/budget";

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

  it("cuts a large business's invoice units short enough to run within what a unit may (issue 65): a month a side, half a month for lines", () => {
    const hometax = findProvider("hometax")!;
    // bench:pipeline's counts for a large business's year (docs/benchmarks.md), spread over the year's days; each request
    // at the adapter's 1.25 s on average, and one overload pause of 61 s (collectors/hometax/options.ts) a unit.
    const yearRequests: Record<string, number> = { "taxportal.tax-invoices.sales.v1": 3_103, "taxportal.tax-invoices.purchase.v1": 3_103, "taxportal.tax-invoice-lines.v1": 6_283 };
    for (const [schema, requests] of Object.entries(yearRequests)) {
      const days = unitWindowDays(hometax, schema);
      const unitSeconds = Math.ceil((requests * days) / 365) * 1.25 + 61;
      const segment = hometax.segmentSecondsBySchema![schema]!;
      expect(segment, schema).toBeGreaterThanOrEqual(unitSeconds);
      // The scraper stops a unit at collectBoundMs as stuck: the unit's expected time stays within it.
      expect(segment * 1000, schema).toBeLessThanOrEqual(collectBoundMs(hometax)!);
    }
    // Schemas of pages only keep the provider's quarters.
    expect(unitWindowDays(hometax, "taxportal.cash-receipts.purchase.v1")).toBe(hometax.pageWindowDays);
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoices.sales.v1")!, year)).toBe(300 + Math.ceil(365 / unitWindowDays(hometax, "taxportal.tax-invoices.sales.v1")) * hometax.segmentSecondsBySchema!["taxportal.tax-invoices.sales.v1"]!);
  });

  it("holds a large business's Hometax year at the adapter's pace (issue 65): 3,000 invoices a side, a detail request each", () => {
    const hometax = findProvider("hometax")!;
    // bench:pipeline's counts at the replica (docs/benchmarks.md), in the monthly units: 3,103 requests for a side's year, 6,283 for the lines;
    // the adapter waits 1 s plus half its 0.5 s jitter on average before each request.
    const seconds = (requests: number) => requests * 1.25;
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoices.sales.v1")!, year)).toBeGreaterThan(seconds(3_103));
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoices.purchase.v1")!, year)).toBeGreaterThan(seconds(3_103));
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.tax-invoice-lines.v1")!, year)).toBeGreaterThan(seconds(6_283));
    // Schemas of pages only keep the provider's segment time.
    expect(waitBudgetSeconds(hometax, findSchema("taxportal.cash-receipts.purchase.v1")!, year)).toBe(300 + 4 * hometax.segmentSeconds!);
  });
});
