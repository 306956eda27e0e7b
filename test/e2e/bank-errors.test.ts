// start-order: 2 (why: vitest.e2e.config.ts)
import { beforeAll, describe, expect, it } from "vitest";
import { jobError } from "../../contracts/job-failures";
import { client, type Stack, startStack } from "../support/e2e/stack";
import { BANK_ERRORS_END_TO_END } from "../support/e2e/workspaces";

let stack: Stack;

beforeAll(async () => {
  // Each code's login is a workspace of its own (test/support/e2e/workspaces.ts); the shared profile's page timeout lets
  // the hanging-site case settle within the test.
  stack = await startStack();
});

describe("institution failures through the real stack", () => {
  it("ends an error_<CODE> job of each kind of failure Failed with that code, its category and retryable flag", async () => {
    const outcomes = await Promise.all(
      BANK_ERRORS_END_TO_END.map(async (code) => {
        const api = client(stack, stack.named[`bank-errors/${code}`]!.apiKey);
        const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } });
        return { code, done: await api.waitForJob(job.id) };
      }),
    );
    for (const { code, done } of outcomes) {
      const expected = jobError(code);
      expect(done.kind, code).toBe("Failed");
      expect(done.error, code).toMatchObject({ code, category: expected.category, retryable: expected.retryable, message: expected.message });
    }
  });
});
