import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CollectClient } from "../../client/src/index";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { finished, RANGE, ROOT } from "../support/e2e/partner-programs";
import { client, type Stack, startStack } from "../support/e2e/stack";
import { GOOD_LOGIN } from "../support/e2e/workspaces";

type Json = Record<string, any>;

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let javaClasspath: string;
const work = mkdtempSync(path.join(tmpdir(), "partner-clients-"));

const run = (command: string, args: string[], env: Record<string, string> = {}): ChildProcess =>
  spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });

beforeAll(async () => {
  // Java compiles once for both of its runs, while the stack starts.
  const classes = path.join(work, "classes");
  const [built] = await Promise.all([
    finished(run("bash", ["client-java/build.sh", classes])),
    startStack().then((s) => void (stack = s)),
    startWebhookReceiver().then((r) => void (receiver = r)),
  ]);
  if (built.code !== 0) throw new Error(`client-java did not build: ${built.stderr}`);
  javaClasspath = `${classes}:${(await finished(run("bash", ["client-java/build.sh", "--classpath"]))).stdout.trim()}`;
}, 240_000);
afterAll(async () => {
  await receiver?.close();
});

/** A hop to the stack that answers the first read of a job 429 with Retry-After: 1, as the rate limit does, and passes the rest on. */
async function rateLimitingHop(target: string) {
  const seen: { url: string; at: number; status: number }[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const jobRead = req.method === "GET" && /^\/api\/v1\/data-jobs\/[0-9a-f-]{36}$/.test(req.url ?? "");
    if (jobRead && !seen.some((s) => s.status === 429)) {
      seen.push({ url: req.url!, at: Date.now(), status: 429 });
      res.writeHead(429, { "Content-Type": "application/json", "Retry-After": "1" }).end(JSON.stringify({ code: "RATE_LIMITED", message: "요청이 너무 많습니다", requestId: "hop" }));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name))) as Record<string, string>;
    const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    seen.push({ url: req.url!, at: Date.now(), status: upstream.status });
    res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => name !== "content-encoding" && name !== "transfer-encoding")));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const withoutNulls = (record: Json) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));

const LANGUAGES = {
  java: {
    run: (dir: string, env: Record<string, string>) => run("java", ["-cp", javaClasspath, "kr.co.collectedge.client.E2e", "run", dir, RANGE.dateRangeStart, RANGE.dateRangeEnd], env),
    verify: (file: string) => run("java", ["-cp", javaClasspath, "kr.co.collectedge.client.E2e", "verify", file]),
    // Jackson writes BigDecimal amounts as JSON numbers.
    record: (r: Json) => withoutNulls(r),
  },
  python: {
    run: (dir: string, env: Record<string, string>) => run("python3", ["client-python/tests/e2e.py", "run", dir, RANGE.dateRangeStart, RANGE.dateRangeEnd], env),
    verify: (file: string) => run("python3", ["client-python/tests/e2e.py", "verify", file]),
    // The example keeps Decimal amounts as their exact text.
    record: (r: Json) => Object.fromEntries(Object.entries(withoutNulls(r)).map(([k, v]) => [k, typeof v === "number" ? String(v) : v])),
  },
} as const;

describe("the Java and Python clients against the local stack", () => {
  for (const [language, program] of Object.entries(LANGUAGES)) {
    it(`${language}: a sandbox job created through a 429, polled to Succeeded, its records equal to the TypeScript client's, its CSV streamed, a refused credential's failure read, its webhook verified`, async () => {
      const apiKey = stack.named[`clients/${language}` as "clients/java"].apiKey;
      const endpoint = await client(stack, apiKey).json("POST", "/api/v1/webhook-endpoints", { url: `${receiver.url}/hooks/${language}`, events: ["data_job.succeeded"] });
      expect(endpoint.status).toBe(201);
      const hop = await rateLimitingHop(stack.baseUrl);
      const dir = mkdtempSync(path.join(work, `${language}-`));
      try {
        const ran = await finished(program.run(dir, { COLLECT_BASE_URL: hop.url, COLLECT_API_KEY: apiKey, COLLECT_REFUSED_API_KEY: stack.named[`clients/${language}-refused` as "clients/java-refused"].apiKey }));
        expect(ran.code, ran.stdout + ran.stderr).toBe(0);
        const out = JSON.parse(readFileSync(path.join(dir, `${language}.json`), "utf8")) as Json;

        const truth = bankGroundTruth(GOOD_LOGIN.loginId, { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
        expect(out).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
        expect(out.progressCalls).toBeGreaterThan(0);
        // The 429 was waited out: the job's next read came a second later, through the same client.
        const limited = hop.seen.findIndex((s) => s.status === 429);
        const next = hop.seen.slice(limited + 1).find((s) => s.url === hop.seen[limited]!.url);
        expect(next!.at - hop.seen[limited]!.at).toBeGreaterThanOrEqual(950);

        const ts = new CollectClient({ baseUrl: stack.baseUrl, apiKey });
        const records = await ts.records(out.jobId, "bank.transactions.cb.v1");
        expect(out.records).toEqual(records.data.map((r) => program.record(r as Json)));
        const csv = Buffer.from(await new Response(await ts.resultsCsv(out.jobId)).arrayBuffer());
        expect(readFileSync(path.join(dir, `${language}.csv`)).equals(csv)).toBe(true);
        expect(out.csvBytes).toBe(csv.length);
        if (language === "python") expect(out.csvRows).toBe(truth.length);

        expect(out.listed).toEqual([out.accountsJobId, out.jobId]);
        const download = await fetch(out.downloadUrl);
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(csv)).toBe(true);

        expect(out.verdict).toBe("REFUSED");
        expect(out.failure).toMatchObject({ category: "CREDENTIAL", code: "LOGIN_FAILED", retryable: false });
        expect(out.failure.message).toMatch(/[가-힣]/);
        expect(out).toMatchObject({ missingCode: "DATA_JOB_NOT_FOUND", missingStatus: 404 });
        expect(out.missingRequestId).toBeTruthy();
        if (language === "python") expect(out.loaded).toEqual({ first: truth.length, again: truth.length, rows: truth.length });

        // The job's data_job.succeeded delivery, exactly as received, checked by the client's two verifications.
        const deadline = Date.now() + 60_000;
        let delivery: { body: string; headers: Record<string, string> } | undefined;
        while (!delivery && Date.now() < deadline) {
          delivery = receiver.received(language).find((d) => JSON.parse(d.body).data.object.id === out.jobId);
          if (!delivery) await new Promise((r) => setTimeout(r, 200));
        }
        expect(delivery).toBeDefined();
        const file = path.join(dir, "delivery.json");
        writeFileSync(file, JSON.stringify({ body: delivery!.body, headers: delivery!.headers, secret: endpoint.body.secret }));
        const verified = await finished(program.verify(file));
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
        expect(JSON.parse(verified.stdout)).toMatchObject({ event: { type: "data_job.succeeded", data: { object: { id: out.jobId, kind: "Succeeded" } } }, sameEvent: true, otherSecret: "WEBHOOK_SIGNATURE_INVALID" });
      } finally {
        await hop.close();
      }
    }, 180_000);
  }
});
