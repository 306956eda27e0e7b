import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_ERROR_CODES, jobError } from "../../../contracts/job-failures";

const DOC = path.join(import.meta.dirname, "../../../docs/failure-codes.md");

/** The doc's table rows by code: category, origin, message, test. */
function documentedRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(DOC, "utf8").split("\n")) {
    const match = /^\| `([A-Z_]+)` \|(.*)\|$/.exec(line);
    if (match) rows.set(match[1]!, match[2]!.split(" | ").map((cell) => cell.trim()));
  }
  return rows;
}

describe("docs/failure-codes.md", () => {
  const rows = documentedRows();

  it.each(JOB_ERROR_CODES)("has a row for %s with the catalog's category and message, its origin and a test", (code) => {
    const row = rows.get(code);
    expect(row, `docs/failure-codes.md has no row for ${code}`).toBeDefined();
    const [category, origin, message, test] = row!;
    expect(category).toBe(jobError(code).category);
    expect(message).toBe(jobError(code).message);
    expect(origin).not.toBe("");
    expect(test).not.toBe("");
  });

  it("lists no code the catalog does not have", () => {
    expect([...rows.keys()].sort()).toEqual([...JOB_ERROR_CODES].sort());
  });
});
