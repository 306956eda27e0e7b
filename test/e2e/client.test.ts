// start-order: 9 (why: vitest.e2e.config.ts)
import { createServer, type Server } from "node:http";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { CollectClient } from "../../client/src/index";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { RANGE, ROOT } from "../support/e2e/partner-programs";
import { useStackAndBrowser } from "../support/e2e/stack";
import { GOOD_LOGIN } from "../support/e2e/workspaces";

const { stack, newPage } = useStackAndBrowser();


/**
 * A hop between the client and the local stack that passes every request on
 * but, for the first job creation, drops the connection after the service
 * has answered: the network lost the answer, as it does in production.
 */
async function lossyHop(target: string): Promise<{ url: string; creationKeys: string[]; lostJobIds: string[]; close(): Promise<void> }> {
  const creationKeys: string[] = [];
  const lostJobIds: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name))) as Record<string, string>;
    const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    const creating = req.method === "POST" && req.url === "/api/v1/data-jobs";
    if (creating) creationKeys.push(req.headers["idempotency-key"] as string);
    if (creating && creationKeys.length === 1) {
      lostJobIds.push((JSON.parse(body.toString()) as { id: string }).id);
      req.socket.destroy();
      return;
    }
    res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => name !== "content-encoding" && name !== "transfer-encoding")));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    creationKeys,
    lostJobIds,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the typed client against the local stack", () => {
  it("retries a creation whose answer was lost with the same Idempotency-Key, so the service records one job, and follows it to Succeeded", async () => {
    const apiKey = stack().named["client/lossy-hop"].apiKey;
    const hop = await lossyHop(stack().baseUrl);
    try {
      const client = new CollectClient({ baseUrl: hop.url, apiKey, retry: { baseDelayMs: 50 } });
      const job = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
      expect(hop.creationKeys).toHaveLength(2);
      expect(hop.creationKeys[1]).toBe(hop.creationKeys[0]);
      expect(job.id).toBe(hop.lostJobIds[0]);

      const progress: { completed: number; total: number }[] = [];
      const done = await client.waitForJob(job, { onProgress: (j) => void progress.push({ completed: j.completedTaskCount, total: j.totalTaskCount }) });
      expect(done).toMatchObject({ id: job.id, kind: "Succeeded", recordCount: bankGroundTruth(GOOD_LOGIN.loginId, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions.length });
      expect(progress.length).toBeGreaterThan(0);
      for (const [i, p] of progress.entries()) {
        expect(p.completed).toBeLessThanOrEqual(Math.max(p.total, 0));
        if (i > 0) expect(p.completed).toBeGreaterThanOrEqual(progress[i - 1]!.completed);
      }

      const accounts = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
      const listed: string[] = [];
      for await (const item of client.listJobs({ pageSize: 1 })) listed.push(item.id);
      expect(listed).toEqual([accounts.id, job.id]);

      const records = await client.records(job.id, "bank.transactions.cb.v1");
      expect(records.data.map((r) => r.identifier).sort()).toEqual(
        bankGroundTruth(GOOD_LOGIN.loginId, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions.map((t) => t.identifier).sort(),
      );
    } finally {
      await hop.close();
    }
  });

  it("makes a new job after a failure whose retryable is true, as many times as asked, and then returns the failure", async () => {
    // The sandbox bank answers this workspace's login with a passing fault every time: the service resumes it, then fails it as TRANSIENT.
    const apiKey = stack().named["client/transient"].apiKey;
    const client = new CollectClient({ baseUrl: stack().baseUrl, apiKey });
    const failed = await client.runJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }, { jobRetries: 1 });
    expect(failed).toMatchObject({ kind: "Failed", error: { category: "TRANSIENT", retryable: true } });
    const jobs: string[] = [];
    for await (const item of client.listJobs()) jobs.push(item.id);
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toBe(failed.id);
  });

  it("runs in a browser: bundled for the web (no Node built-ins), it creates a job and reads every page of the list from a page", async () => {
    const apiKey = stack().named["client/browser"].apiKey;
    const bundle = await build({ entryPoints: [path.join(ROOT, "client/src/index.ts")], bundle: true, format: "iife", globalName: "Collect", platform: "browser", target: "es2022", write: false });
    const page = await newPage();
    // A page of the deployment's origin that may call it (connect-src 'self'): the console's sign-in page is a small one;
    // the API reference, which may too, renders the whole document first.
    await page.goto(`${stack().baseUrl}/console/sign-in`);
    await page.evaluate(bundle.outputFiles[0]!.text);
    const seen = await page.evaluate(async (key) => {
      const { CollectClient, CollectApiError } = (globalThis as unknown as { Collect: typeof import("../../client/src/index") }).Collect;
      const client = new CollectClient({ baseUrl: location.origin, apiKey: key });
      const job = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
      const ids: string[] = [];
      for await (const item of client.listJobs({ pageSize: 1 })) ids.push(item.id);
      const missing = await client.getJob(crypto.randomUUID()).catch((e: unknown) => e);
      return { job: job.id, ids, missing: missing instanceof CollectApiError ? missing.code : String(missing) };
    }, apiKey);
    expect(seen.ids).toEqual([seen.job]);
    expect(seen.missing).toBe("DATA_JOB_NOT_FOUND");
  });
});

