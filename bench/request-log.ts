/**
 * Request log benchmark (issue 47): one workspace's key sends a steady stream of API calls (1,000 a second unless
 * BENCH_RATE says otherwise) to the local stack, and the run prints what the callers saw (throughput, p50 and p99) and
 * what the log made of it: how many of the answered requests the log holds, and how long after the last answer the
 * last of them was written (the queue's batches and the consumer's D1 writes, all after the answers).
 * Fails (exit code 1) on any non-2xx answer, connection error, or request the log is missing once it has drained.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { newApiKey } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { startLocalStack } from "../scripts/local-stack";

const ROOT = path.resolve(import.meta.dirname, "..");
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** How long the log may take to catch up after the last answer before the run counts what is missing. */
const DRAIN_TIMEOUT_MS = 120_000;
/** A path of its own, so the log's own list calls are not counted among the measured ones. */
const MEASURED_PATH = "/api/v1/providers";

const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-request-log-")),
  vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
  logDir: path.join(ROOT, "test-artifacts/bench-request-log"),
});

/** Every logged request of the measured path, walked page by page with the API's own cursor. */
async function loggedCount(auth: Record<string, string>): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ path: MEASURED_PATH, limit: "100", ...(cursor ? { cursor } : {}) });
    const page = (await (await fetch(`${stack.baseUrl}/api/v1/request-logs?${query}`, { headers: auth })).json()) as { items: unknown[]; nextCursor: string | null };
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

try {
  const key = newApiKey();
  await stack.seedWorkspaces([{ workspaceId: crypto.randomUUID(), name: "bench", apiKey: key }]);
  const auth = { Authorization: `Bearer ${key}` };
  const result = await autocannon({ url: `${stack.baseUrl}${MEASURED_PATH}`, headers: auth, connections: CONNECTIONS, overallRate: RATE, amount: RATE * SECONDS });
  const answered = result.requests.total;
  const lastAnswer = Date.now();
  let logged = 0;
  while (Date.now() - lastAnswer < DRAIN_TIMEOUT_MS) {
    logged = await loggedCount(auth);
    if (logged >= answered) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const drained = Date.now() - lastAnswer;
  console.table([
    {
      "offered req/s": RATE,
      "answered req/s": Math.round(result.requests.average),
      "p50 ms": result.latency.p50,
      "p99 ms": result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      answered,
      logged,
      "all logged after (s)": logged >= answered ? (drained / 1000).toFixed(1) : `not within ${DRAIN_TIMEOUT_MS / 1000}`,
    },
  ]);
  if (result.non2xx > 0 || result.errors > 0 || logged < answered) process.exitCode = 1;
} finally {
  await stack.stop();
}
