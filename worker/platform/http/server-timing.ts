import type { Context } from "hono";
import { setMetric, timing } from "hono/timing";

/**
 * The W3C `Server-Timing` header (Hono's timing middleware): a response names the round trips its request paid for
 * beyond the worker's own work, and nothing when it paid none, so a partner (or bench/) can see why one call was
 * slower than the next. Steps: `gate` (the API key's rate gate was asked, domain/api-keys/key-leases.ts), `r2` (results
 * read from R2), `cache` (results served from the edge cache).
 */
export const serverTiming = timing({ total: false, enabled: (c) => (c.get("metric")?.headers.length ?? 0) > 0 });

export type TimedStep = "gate" | "r2" | "cache";

/** Notes one step of this request: its milliseconds when the request waited for it, a word when it did not. */
export function noteStep(c: Context, step: TimedStep, waited: number | string): void {
  if (!c.get("metric")) return;
  // Two calls of one function: its overloads take a duration or a description, never the union.
  if (typeof waited === "number") setMetric(c, step, waited);
  else setMetric(c, step, waited);
}
