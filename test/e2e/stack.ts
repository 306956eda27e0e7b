import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/free-port";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack";

export type { LocalStack };

/**
 * A private local stack for one test file: fresh state, free ports, fast
 * automatic resumption so transient failures settle within a test's time,
 * and a rate limit above what close polling needs (the limit itself is
 * tested in test/workers).
 */
export async function startStack(name: string, options: { pageTimeoutMs?: number; sweepEveryMs?: number; vars?: Record<string, string> } = {}): Promise<LocalStack> {
  return startLocalStack({
    ...options,
    port: await freePort(),
    sandboxPort: await freePort(),
    scraperPort: await freePort(),
    persistTo: mkdtempSync(path.join(tmpdir(), `collect-e2e-${name}-`)),
    logDir: path.resolve(import.meta.dirname, "../../test-artifacts/e2e", name),
    vars: { RETRY_BASE_SECONDS: "1", RETRY_MAX_SECONDS: "2", RETRY_MAX_ATTEMPTS: "3", RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_PER_HOUR: "1000000", ...options.vars },
  });
}

type Json = Record<string, any>;

export function client(stack: LocalStack, apiKey = stack.apiKey) {
  const request = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(`${stack.baseUrl}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response;
  };
  const json = async (method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await request(method, urlPath, body);
    return { status: response.status, body: (await response.json()) as Json };
  };
  return {
    request,
    json,
    createJob: async (body: Json) => {
      const res = await json("POST", "/api/v1/data-jobs", body);
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    /** Polls until the job is terminal, handing each InProgress snapshot to `onProgress`. */
    waitForJob: async (id: string, onProgress?: (job: Json) => Promise<void> | void, timeoutMs = 150_000): Promise<Json> => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const { body } = await json("GET", `/api/v1/data-jobs/${id}`);
        if (body.kind !== "InProgress") return body;
        await onProgress?.(body);
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`job ${id} still running after ${timeoutMs} ms`);
    },
  };
}
