import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobTraceId } from "../../../../worker/platform/observability/trace-context";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { tracedDelivery } from "../../../../worker/domain/pipeline/traced-delivery";
import type { ReceivedWebhook } from "../../../support/webhook-receiver";
import { call, withCapturedQueue } from "../../../support/workers/helpers";
import { newJob } from "../../../support/workers/pipeline-harness";
import { sql } from "drizzle-orm";
import { database, withoutQueryParams } from "../../../../worker/platform/database/client";

type Json = Record<string, any>;

/** Every span a collector received under `name` at the receiver, with the service that sent it. */
async function spansAt(name: string): Promise<Json[]> {
  const received = (await (await fetch(`${env.TEST_WEBHOOK_RECEIVER_URL}/received/${name}`)).json()) as ReceivedWebhook[];
  return received.flatMap((r) =>
    (JSON.parse(r.body).resourceSpans as Json[]).flatMap((rs) => {
      const service = rs.resource.attributes.find((a: Json) => a.key === "service.name").value.stringValue;
      return (rs.scopeSpans as Json[]).flatMap((ss) => (ss.spans as Json[]).map((span) => ({ ...span, service })));
    }),
  );
}

describe("logs and traces", () => {
  afterEach(() => vi.restoreAllMocks());

  it("follow a job end to end: its queue deliveries and the scraper's login and collection are one trace, the job's id", async () => {
    const collector = `otlp-${crypto.randomUUID().slice(0, 8)}`;
    const traced: Env = { ...withCapturedQueue().env, OTEL_EXPORTER_OTLP_ENDPOINT: `${env.TEST_WEBHOOK_RECEIVER_URL}/hooks/${collector}` };
    const { job, plan } = await newJob({}, "bank.accounts.cb.v1");
    expect(await tracedDelivery(pipelineDeps(traced), traced, plan)).toEqual({ kind: "ack" });

    const traceId = jobTraceId(job.id);
    const worker = (await spansAt(collector)).filter((s) => s.traceId === traceId);
    const delivery = worker.find((s) => s.name === "job plan");
    expect(delivery).toMatchObject({ service: "collect-worker", kind: 5, status: { code: 1 } });
    expect(delivery!.parentSpanId).toBeUndefined();
    const scraperCalls = worker.filter((s) => s.name.startsWith("scraper "));
    expect(scraperCalls.map((s) => s.name)).toEqual(expect.arrayContaining(["scraper POST /sessions", "scraper POST /sessions/{id}/collect"]));
    for (const s of scraperCalls) expect(s.parentSpanId).toBe(delivery!.spanId);

    // The scraper's own spans, made by the OpenTelemetry SDK from the traceparent the worker sent, under the worker's client spans.
    await expect.poll(async () => (await spansAt("otlp-scraper")).filter((s) => s.traceId === traceId).map((s) => s.name).sort(), { timeout: 10_000 }).toEqual(["scraper collect", "scraper login"]);
    const scraper = (await spansAt("otlp-scraper")).filter((s) => s.traceId === traceId);
    for (const s of scraper) {
      expect(s.service).toBe("collect-scraper");
      expect(scraperCalls.map((c) => c.spanId)).toContain(s.parentSpanId);
    }
  });

  it("put the job's id and trace on every log line of its delivery", async () => {
    const { job, plan } = await newJob({}, "bank.accounts.cb.v1", { loginId: "user_good", password: "error_UNKNOWN" });
    const lines: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: unknown) => void lines.push(String(line)));
    await tracedDelivery(pipelineDeps(env), env, plan);
    const [line] = lines.map((l) => JSON.parse(l)).filter((l) => l.event === "unknown-institution-message");
    expect(line).toEqual({ level: "warn", event: "unknown-institution-message", jobId: job.id, traceId: jobTraceId(job.id), spanId: expect.stringMatching(/^[0-9a-f]{16}$/), text: expect.any(String) });
  });

  it("continue a caller's trace on an API request, with the request's id, and send nothing for an unsampled one", async () => {
    const collector = `otlp-${crypto.randomUUID().slice(0, 8)}`;
    const traced: Env = { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: `${env.TEST_WEBHOOK_RECEIVER_URL}/hooks/${collector}` };
    const traceId = crypto.randomUUID().replaceAll("-", "");
    const answer = await call("/api/v1/openapi.json", { env: traced, headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(answer.status).toBe(200);
    await expect.poll(async () => (await spansAt(collector)).filter((s) => s.traceId === traceId), { timeout: 10_000 }).toEqual([
      expect.objectContaining({ name: "HTTP GET", kind: 2, parentSpanId: "00f067aa0ba902b7", attributes: expect.arrayContaining([{ key: "request.id", value: { stringValue: answer.headers.get("X-Request-Id") } }]) }),
    ]);
    const unsampled = crypto.randomUUID().replaceAll("-", "");
    await call("/api/v1/openapi.json", { env: traced, headers: { traceparent: `00-${unsampled}-00f067aa0ba902b7-00` } });
    await call("/api/v1/openapi.json", { env: traced });
    expect((await spansAt(collector)).filter((s) => s.traceId === unsampled)).toEqual([]);
  });
});

describe("log lines of a failed query", () => {
  it("keep the query's text and the database's reason, never the values bound to it", async () => {
    const address = `person-${crypto.randomUUID()}@example.co.kr`;
    const failed = await database((env as unknown as Env).DB)
      .run(sql`SELECT * FROM no_such_table WHERE email = ${address}`)
      .then(() => null, (err: unknown) => err as Error);
    expect(failed).toBeInstanceOf(Error);
    // drizzle names the bound values in its message; the line kept for the log does not.
    expect(String(failed)).toContain(address);
    expect(withoutQueryParams(String(failed))).toContain("no_such_table");
    expect(withoutQueryParams(String(failed))).not.toContain(address);
    expect(withoutQueryParams(failed!.stack)).not.toContain(address);
  });
});
