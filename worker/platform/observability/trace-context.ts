import { toHex } from "../lib/crypto";

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header that carries a trace from the
 * worker to the scraper, where the OpenTelemetry SDK reads it. Shared by both ends, so neither can drift.
 */
export interface SpanContext {
  traceId: string;
  spanId: string;
  /** Exported: the W3C `sampled` flag. */
  sampled: boolean;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function parseTraceparent(header: string | null | undefined): SpanContext | null {
  const match = TRACEPARENT.exec(header?.trim() ?? "");
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return null;
  return { traceId: match[1]!, spanId: match[2]!, sampled: (Number.parseInt(match[3]!, 16) & 1) === 1 };
}

export const formatTraceparent = (span: SpanContext): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`;

const hex = (bytes: number) => toHex(crypto.getRandomValues(new Uint8Array(bytes)));

export const newTraceId = (): string => hex(16);
export const newSpanId = (): string => hex(8);

/** A job's trace: its id is the job's uuid as 32 hex digits, so every delivery of the job, on any queue message, joins it. */
export const jobTraceId = (jobId: string): string => jobId.replaceAll("-", "").toLowerCase();
