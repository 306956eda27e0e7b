import { describe, expect, it } from "vitest";
import { findProvider } from "../../worker/domain/catalog/providers";
import { findSchema } from "../../worker/domain/catalog/schemas";
import { waitBudgetSeconds } from "../../worker/domain/jobs/budget";

const year = { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" };

describe("a job's wait budget", () => {
  it("gives Hometax's paced segments their pace: a year is four quarters of its segment time, not of a minute", () => {
    const hometax = findProvider("hometax")!;
    const schema = findSchema("taxportal.tax-invoices.sales.v1")!;
    expect(waitBudgetSeconds(hometax, schema, year)).toBe(300 + 4 * hometax.segmentSeconds!);
    // Its segment holds at least a quarter's pages and details at S1's 1 s (docs/institutions/hometax.md).
    expect(hometax.segmentSeconds!).toBeGreaterThanOrEqual(200);
    const unpaced = { ...hometax, segmentSeconds: undefined };
    expect(waitBudgetSeconds(unpaced, schema, year)).toBe(300 + 4 * 60);
  });
});
