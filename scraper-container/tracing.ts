import type { IncomingHttpHeaders } from "node:http";
import { context, defaultTextMapGetter, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface ScraperTracing {
  /** Runs a request's work as a span of the worker's trace (its `traceparent`); a request without one is not traced. */
  inSpan<T>(name: string, headers: IncomingHttpHeaders, attributes: Record<string, string>, work: () => Promise<T>): Promise<T>;
  /** The trace a request belongs to, for its log lines: the job's id as hex when the worker sent it (worker/platform/observability/trace-context.ts). */
  traceIdOf(headers: IncomingHttpHeaders): string | undefined;
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();
const parentOf = (headers: IncomingHttpHeaders) => propagator.extract(context.active(), headers, defaultTextMapGetter);

/**
 * The scraper's spans, with the OpenTelemetry SDK for Node (a library of others, so the worker's own traceparent and
 * OTLP are checked against it): exported to the same collector as the worker's when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; without it nothing is recorded, though log lines still name the trace.
 */
export function scraperTracing(otlpEndpoint: string | undefined): ScraperTracing {
  const provider = otlpEndpoint
    ? new BasicTracerProvider({
        resource: resourceFromAttributes({ "service.name": "collect-scraper" }),
        spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, "")}/v1/traces` }), { scheduledDelayMillis: 200 })],
      })
    : null;
  const tracer = provider?.getTracer("collect-edge-scraper");
  return {
    traceIdOf: (headers) => trace.getSpanContext(parentOf(headers))?.traceId,
    async inSpan(name, headers, attributes, work) {
      if (!tracer || !headers.traceparent) return work();
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parentOf(headers));
      try {
        return await work();
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message ?? err) });
        throw err;
      } finally {
        span.end();
      }
    },
    shutdown: async () => provider?.shutdown(),
  };
}
