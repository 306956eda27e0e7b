/**
 * API latency benchmark: drives GET /data-jobs/{id} and POST /data-jobs on the
 * local worker and a bare Hono route in the same runtime, for a fixed request
 * count, and prints throughput and p50/p99 with their ratios.
 * Target: job detail p50 within 2x of the bare route's.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { newApiKey } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { startLocalStack } from "../scripts/local-stack";
import { startBenchWorker } from "./bench-worker";

const ROOT = path.resolve(import.meta.dirname, "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: CONNECTIONS, amount: REQUESTS, ...options });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-api-")),
  vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
  logDir: path.join(ROOT, "test-artifacts/bench-api"),
});
const bare = await startBenchWorker("bench/wrangler.bare.toml", mkdtempSync(path.join(tmpdir(), "bare-")));
try {
  // A workspace without credentials: created jobs end Failed at once, so the POST path is measured without scraping behind it.
  const key = newApiKey();
  await stack.seedWorkspaces([{ workspaceId: crypto.randomUUID(), name: "bench", apiKey: key }]);
  const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const body = JSON.stringify({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } });
  const created = await fetch(`${stack.baseUrl}/api/v1/data-jobs`, { method: "POST", headers: auth, body });
  const { id } = (await created.json()) as { id: string };

  const bareUrl = `${bare.url}/bare`;
  await measure("warm-up", { url: bareUrl, amount: 300 });
  await measure("warm-up", { url: `${stack.baseUrl}/api/v1/data-jobs/${id}`, headers: auth, amount: 300 });

  const results = [
    await measure("bare GET", { url: bareUrl }),
    await measure("GET /data-jobs/{id}", { url: `${stack.baseUrl}/api/v1/data-jobs/${id}`, headers: auth }),
    await measure("bare POST", { url: bareUrl, method: "POST", headers: { "Content-Type": "application/json" }, body }),
    await measure("POST /data-jobs", { url: `${stack.baseUrl}/api/v1/data-jobs`, method: "POST", headers: auth, body }),
  ];
  console.log(`\n${REQUESTS} requests each, ${CONNECTIONS} connections\n`);
  console.table(results.map((r) => ({ route: r.name, "req/s": Math.round(r.rps), "p50 ms": r.p50, "p99 ms": r.p99, non2xx: r.non2xx })));
  const [bareGet, detail, barePost, create] = results as [Measured, Measured, Measured, Measured];
  const ratio = (a: number, b: number) => (b === 0 ? a : a / b).toFixed(2);
  console.log(`job detail p50 / bare p50: ${ratio(detail.p50, bareGet.p50)}x (target <= 2x)`);
  console.log(`job detail p99 / bare p99: ${ratio(detail.p99, bareGet.p99)}x`);
  console.log(`job detail throughput / bare: ${ratio(detail.rps, bareGet.rps)}x`);
  console.log(`job create p50 / bare POST p50: ${ratio(create.p50, barePost.p50)}x`);
  console.log(`job create throughput / bare POST: ${ratio(create.rps, barePost.rps)}x`);
} finally {
  bare.child.kill("SIGTERM");
  await stack.stop();
}
