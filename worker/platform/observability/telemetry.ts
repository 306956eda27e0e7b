import { AsyncLocalStorage } from "node:async_hooks";
import { newSpanId, type SpanContext } from "./trace-context";

/**
 * Structured logs and spans (docs/operations.md, "Logs and traces"). Every log line is one JSON object with the
 * request id, job id and trace id of the work it belongs to, from the context `withTelemetry` opened for that
 * request or queue delivery. Spans go to an OTLP/HTTP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set (off by
 * default), once the work they belong to has ended.
 */
interface TelemetryContext {
  requestId?: string;
  jobId?: string;
  /** The span the current work runs under: its children and the scraper calls made from it point at it. */
  span?: SpanContext;
  /** Where this invocation's finished spans wait for export; absent when export is off. */
  spans?: FinishedSpan[];
}

type AttributeValue = string | number | boolean;

interface FinishedSpan {
  context: SpanContext;
  parentSpanId: string | null;
  name: string;
  kind: "server" | "client" | "consumer" | "internal";
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  error: boolean;
}

const store = new AsyncLocalStorage<TelemetryContext>();

/** The one setting telemetry reads (worker/platform/settings.d.ts), not the bindings: the scraper client runs it under Node too. */
type TelemetryEnv = { OTEL_EXPORTER_OTLP_ENDPOINT?: string };

export function log(level: "info" | "warn" | "error", event: string, fields: Record<string, unknown> = {}): void {
  const context = store.getStore();
  const line = JSON.stringify({
    level,
    event,
    ...(context?.requestId ? { requestId: context.requestId } : {}),
    ...(context?.jobId ? { jobId: context.jobId } : {}),
    ...(context?.span ? { traceId: context.span.traceId, spanId: context.span.spanId } : {}),
    ...fields,
  });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** The current span's context, for a call that carries the trace on (a scraper request's `traceparent`). */
export const currentSpan = (): SpanContext | undefined => store.getStore()?.span;

/**
 * Runs `work` as a span of `parent`'s trace, with `fields` added to every log line inside it. The outermost one of an
 * invocation (`exporting` given) collects the spans made inside it and, with export on, sends them when it ends.
 */
export async function withSpan<T>(
  name: string,
  options: { parent: SpanContext; kind?: FinishedSpan["kind"]; attributes?: Record<string, AttributeValue>; fields?: Pick<TelemetryContext, "requestId" | "jobId">; exporting?: { env: TelemetryEnv; waitUntil?: (work: Promise<unknown>) => void } },
  work: (span: { setAttribute(key: string, value: AttributeValue): void }) => Promise<T>,
): Promise<T> {
  const outer = store.getStore();
  const exportTo = options.exporting?.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const spans = outer?.spans ?? (exportTo && options.parent.sampled ? [] : undefined);
  const context: SpanContext = { traceId: options.parent.traceId, spanId: newSpanId(), sampled: options.parent.sampled && spans !== undefined };
  const attributes: Record<string, AttributeValue> = { ...options.attributes };
  const startMs = Date.now();
  let error = false;
  try {
    return await store.run({ ...outer, ...options.fields, span: context, spans }, () => work({ setAttribute: (key, value) => void (attributes[key] = value) }));
  } catch (err) {
    error = true;
    throw err;
  } finally {
    // A parent of the same trace is this span's parent; a span starting a trace has none (its parent id is remote or absent).
    spans?.push({ context, parentSpanId: options.parent.spanId, name, kind: options.kind ?? "internal", startMs, endMs: Date.now(), attributes, error });
    if (!outer?.spans && spans?.length && exportTo) {
      const sent = exportSpans(exportTo, spans).catch((err) => console.error(JSON.stringify({ level: "error", event: "span-export-failed", error: String(err) })));
      if (options.exporting?.waitUntil) options.exporting.waitUntil(sent);
      else await sent;
    }
  }
}

const SPAN_KINDS = { internal: 1, server: 2, client: 3, consumer: 5 } as const;
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
const attribute = (key: string, value: AttributeValue) => ({
  key,
  value: typeof value === "string" ? { stringValue: value } : typeof value === "boolean" ? { boolValue: value } : Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value },
});

/** OTLP/HTTP with the JSON encoding (https://opentelemetry.io/docs/specs/otlp/), the collector's /v1/traces. */
async function exportSpans(endpoint: string, spans: FinishedSpan[]): Promise<void> {
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [attribute("service.name", "collect-worker")] },
        scopeSpans: [
          {
            scope: { name: "collect-edge" },
            spans: spans.map((s) => ({
              traceId: s.context.traceId,
              spanId: s.context.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: SPAN_KINDS[s.kind],
              startTimeUnixNano: nanos(s.startMs),
              endTimeUnixNano: nanos(s.endMs),
              attributes: Object.entries(s.attributes).map(([k, v]) => attribute(k, v)),
              status: { code: s.error ? 2 : 1 },
            })),
          },
        ],
      },
    ],
  };
  const answer = await fetch(`${endpoint.replace(/\/$/, "")}/v1/traces`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  await answer.body?.cancel();
  if (!answer.ok) throw new Error(`collector answered ${answer.status}`);
}
