import type { Context } from "hono";

/**
 * Sets headers on the answer a middleware got back from next(). Hono's c.header copies a finished Response at each
 * call, because its headers may be immutable (a fetch()'s, a cache's); the answers the worker makes take them as they
 * are, and only an answer that refuses them is copied, as c.header does (a copy a header was some 4% of a job
 * detail's isolate time: docs/benchmarks.md, stop 68).
 */
export function setAnswerHeaders(c: Context, headers: Record<string, string>): void {
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    // Immutable headers refuse the first set, so none went on.
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
  }
}
