import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JAVA_OUT, java, PYTHON_OUT, python } from "../../../scripts/generate-partner-clients";

const root = path.resolve(import.meta.dirname, "../../..");
const document = () => JSON.parse(readFileSync(path.join(root, "client/openapi.json"), "utf8"));

describe("the Java and Python clients' generated types", () => {
  // client/openapi.json itself is compared with what the app serves by test/workers/client/client-openapi-document.test.ts.
  it("are what scripts/generate-partner-clients.ts makes of the committed document (npx tsx scripts/generate-partner-clients.ts rewrites them)", () => {
    expect(readFileSync(path.join(root, JAVA_OUT), "utf8")).toBe(java(document()));
    expect(readFileSync(path.join(root, PYTHON_OUT), "utf8")).toBe(python(document()));
  });

  it("follow a field added, renamed or retyped in the document, so the comparison above fails until they are regenerated", () => {
    const doc = document();
    const amount = doc.components.schemas.BankTransactionRecord.properties;
    amount.amountInWon = amount.amount;
    delete amount.amount;
    doc.components.schemas.InProgressDataJob.properties.totalTaskCount = { type: "string" };
    doc.components.schemas.JobError.properties.hint = { type: "string" };
    const [j, p] = [java(doc), python(doc)];
    expect(j).toContain("BigDecimal amountInWon,");
    expect(j).not.toContain("BigDecimal amount,");
    expect(j).toContain("String totalTaskCount,");
    expect(j).toMatch(/record JobError\([^)]*String hint/);
    expect(p).toContain("amount_in_won: Decimal");
    expect(p).toMatch(/ total_task_count: str\n/);
    expect(p).toContain('hint=None if d.get("hint") is None');
    expect(j).not.toBe(java(document()));
    expect(p).not.toBe(python(document()));
  });
});
