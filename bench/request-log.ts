/**
 * Request log benchmark (issue 47), in two phases (BENCH_PHASES, default "write-path,end-to-end"):
 *
 * 1. write-path: the log's own pipeline at the 1,000 requests a second for one workspace (BENCH_LOG_RATE,
 *    BENCH_LOG_SECONDS, default 10), apart from the API, which this machine cannot drive that fast: a bench worker
 *    (request-log-worker.ts) hands the service's recordRequest realistic entries on schedule, and its queue, with
 *    production's consumer settings, feeds the service's consumer writing into the service's schema. Prints what was
 *    sent, what was written, the consumer's rows a second and how long after the last send the last row was there.
 * 2. end-to-end: one workspace's key sends a steady stream of API calls (BENCH_RATE, default 1,000 a second, for
 *    BENCH_SECONDS, default 5) to the local stack, and the run prints what the callers saw (throughput, p50 and p99) and
 *    what the log made of it: how many of the answered requests the log holds, how long after the last answer the
 *    last of them was written, and how long finding one by its request id takes through the API.
 *
 * Fails (exit code 1) on any entry or answered request the log is missing once it has drained, and in the second phase
 * on any non-2xx answer or connection error.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { experimental_readRawConfig } from "wrangler";
import { REQUEST_LOG_QUEUE } from "../worker/domain/request-logs/messages";
import { newApiKey } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { startLocalStack } from "../scripts/local-stack";
import { applyServiceSchema, startBenchWorker } from "./bench-worker";
import { percentile } from "./partner-jobs";

const ROOT = path.resolve(import.meta.dirname, "..");
const PHASES = (process.env.BENCH_PHASES ?? "write-path,end-to-end").split(",");
const LOG_RATE = Number(process.env.BENCH_LOG_RATE ?? 1000);
const LOG_SECONDS = Number(process.env.BENCH_LOG_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** How long the log may take to catch up after the last answer before the run counts what is missing. */
const DRAIN_TIMEOUT_MS = 120_000;
/** How many logged requests the second phase then finds by id, spread over the log (issue 47: "found by requestId in under a second"). */
const LOOKUPS = 50;
/** A path of its own, so the log's own list calls are not counted among the measured ones. */
const MEASURED_PATH = "/api/v1/providers";
const WRITE_PATH_CONFIG = "bench/wrangler.request-log.toml";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The log queue's consumer settings in a config (in `environment` when named): what the bench must share with production. */
function consumerSettings(config: string, environment?: string) {
  const raw = experimental_readRawConfig({ config: path.join(ROOT, config) }).rawConfig;
  const consumers: { queue: string; max_batch_size?: number; max_batch_timeout?: number }[] = (environment ? raw.env?.[environment] : raw)?.queues?.consumers ?? [];
  const consumer = consumers.find((c) => c.queue === REQUEST_LOG_QUEUE);
  return { max_batch_size: consumer?.max_batch_size, max_batch_timeout: consumer?.max_batch_timeout };
}

interface Delivery {
  messages: number;
  entries: number;
  startedAt: number;
  endedAt: number;
}

async function writePath(): Promise<boolean> {
  const settings = consumerSettings(WRITE_PATH_CONFIG);
  const production = consumerSettings("wrangler.toml", "production");
  if (JSON.stringify(settings) !== JSON.stringify(production)) throw new Error(`${WRITE_PATH_CONFIG} consumes with ${JSON.stringify(settings)}, production with ${JSON.stringify(production)}`);
  console.log(`write path: ${LOG_RATE} entries a second for ${LOG_SECONDS} s; the consumer takes production's max_batch_size ${settings.max_batch_size}, max_batch_timeout ${settings.max_batch_timeout} s`);
  const persistTo = mkdtempSync(path.join(tmpdir(), "bench-request-log-write-"));
  await applyServiceSchema(WRITE_PATH_CONFIG, "request-log-bench", persistTo);
  const worker = await startBenchWorker(WRITE_PATH_CONFIG, persistTo);
  try {
    const written = async () => (await (await fetch(`${worker.url}/rows`)).json()) as { rows: number; logged: number; deliveries: Delivery[] };
    const pushed = (await (await fetch(`${worker.url}/push?rate=${LOG_RATE}&seconds=${LOG_SECONDS}`, { method: "POST" })).json()) as { sent: number; startedAt: number; lastRecordedAt: number; sentAt: number };
    let state = await written();
    while (state.logged < pushed.sent && Date.now() - pushed.sentAt < DRAIN_TIMEOUT_MS) {
      await sleep(100);
      state = await written();
    }
    const lastRowSeenAt = Date.now();
    const { rows, logged, deliveries } = state;
    // The consumer's pace while entries kept coming: what follows the last send is the tail, which waits to fill a batch.
    const steady = deliveries.filter((d) => d.startedAt <= pushed.sentAt);
    const steadyEntries = steady.reduce((sum, d) => sum + d.entries, 0);
    const steadySeconds = steady.length > 0 ? (steady.at(-1)!.endedAt - steady[0]!.startedAt) / 1000 : 0;
    const busySeconds = deliveries.reduce((sum, d) => sum + d.endedAt - d.startedAt, 0) / 1000;
    const [first, last] = [deliveries.at(0), deliveries.at(-1)];
    console.table([
      {
        "offered /s": LOG_RATE,
        "sent /s": Math.round(pushed.sent / ((pushed.lastRecordedAt - pushed.startedAt) / 1000)),
        sent: pushed.sent,
        rows,
        logged,
        lost: pushed.sent - logged,
        deliveries: deliveries.length,
        "consumer rows/s while sending": Math.round(steadyEntries / steadySeconds),
        "consumer busy": first && last ? `${Math.round((100 * busySeconds) / ((last.endedAt - first.startedAt) / 1000))}%` : "none",
        "rows per busy s": Math.round(rows / busySeconds),
        "last row after last send (ms)": logged >= pushed.sent ? lastRowSeenAt - pushed.sentAt : `not within ${DRAIN_TIMEOUT_MS} ms`,
        "messages a delivery": deliveries.length > 0 ? (deliveries.reduce((sum, d) => sum + d.messages, 0) / deliveries.length).toFixed(1) : "none",
        "last delivery (messages, entries, ms)": last ? `${last.messages}, ${last.entries}, ${last.endedAt - last.startedAt}` : "none",
      },
    ]);
    return logged >= pushed.sent;
  } finally {
    worker.child.kill("SIGTERM");
  }
}

async function endToEnd(): Promise<boolean> {
  const stack = await startLocalStack({
    port: await freePort(),
    sandboxPort: await freePort(),
    scraperPort: await freePort(),
    persistTo: mkdtempSync(path.join(tmpdir(), "bench-request-log-")),
    vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
    logDir: path.join(ROOT, "test-artifacts/bench-request-log"),
  });

  /** The request ids of every logged request of the measured path, walked page by page with the API's own cursor. */
  async function loggedIds(auth: Record<string, string>): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ path: MEASURED_PATH, limit: "100", ...(cursor ? { cursor } : {}) });
      const page = (await (await fetch(`${stack.baseUrl}/api/v1/request-logs?${query}`, { headers: auth })).json()) as { items: { requestId: string }[]; nextCursor: string | null };
      ids.push(...page.items.map((item) => item.requestId));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  /** How long finding a request by its id takes through the API (the console's lookup is the same query), for ids spread over the log. */
  async function lookups(auth: Record<string, string>, ids: string[]): Promise<{ count: number; p50: number; max: number; missing: number }> {
    const count = Math.min(LOOKUPS, ids.length);
    const sample = Array.from({ length: count }, (_, i) => ids[Math.floor((i * ids.length) / count)]!);
    const times: number[] = [];
    let missing = 0;
    for (const id of sample) {
      const started = performance.now();
      const response = await fetch(`${stack.baseUrl}/api/v1/request-logs/${id}`, { headers: auth });
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status !== 200) missing++;
    }
    times.sort((a, b) => a - b);
    return { count, p50: count > 0 ? percentile(times, 50) : 0, max: times.at(-1) ?? 0, missing };
  }

  try {
    const key = newApiKey();
    await stack.seedWorkspaces([{ workspaceId: crypto.randomUUID(), name: "bench", apiKey: key }]);
    const auth = { Authorization: `Bearer ${key}` };
    const result = await autocannon({ url: `${stack.baseUrl}${MEASURED_PATH}`, headers: auth, connections: CONNECTIONS, overallRate: RATE, amount: RATE * SECONDS });
    const answered = result.requests.total;
    const lastAnswer = Date.now();
    let ids: string[] = [];
    while (Date.now() - lastAnswer < DRAIN_TIMEOUT_MS) {
      ids = await loggedIds(auth);
      if (ids.length >= answered) break;
      await sleep(500);
    }
    const drained = Date.now() - lastAnswer;
    const logged = ids.length;
    const found = await lookups(auth, ids);
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
        "found by id (of, p50 ms, max ms)": `${found.count - found.missing} of ${found.count}, ${found.p50.toFixed(0)}, ${found.max.toFixed(0)}`,
      },
    ]);
    return result.non2xx === 0 && result.errors === 0 && logged >= answered && found.missing === 0;
  } finally {
    await stack.stop();
  }
}

if (PHASES.includes("write-path") && !(await writePath())) process.exitCode = 1;
if (PHASES.includes("end-to-end") && !(await endToEnd())) process.exitCode = 1;
