import { beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../../scripts/demo-seed";
import { SANDBOX_BANK_ERROR_CODES } from "../../sandbox/bank/behaviours";
import { jobError } from "../../collectors/job-failures";
import { client, type Stack, startStack } from "./stack";

let stack: Stack;
const keys = new Map<string, string>();

beforeAll(async () => {
  // A short page timeout so the hanging-site case settles quickly, yet long enough that thirteen logins at once on
  // two loaded cores never reach it (2 s turned a slow error_PROVIDER_ERROR page into TIMEOUT).
  stack = await startStack();
  const seeds = SANDBOX_BANK_ERROR_CODES.map((code) => {
    const apiKey = newApiKey();
    keys.set(code, apiKey);
    return { workspaceId: crypto.randomUUID(), name: `error ${code}`, apiKey, login: { loginId: "user_good", password: `error_${code}` } };
  });
  await stack.seedWorkspaces(seeds);
});

describe("institution failures through the real stack", () => {
  it("ends each error_<CODE> job Failed with that code, its category and retryable flag", async () => {
    const outcomes = await Promise.all(
      SANDBOX_BANK_ERROR_CODES.map(async (code) => {
        const api = client(stack, keys.get(code));
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
