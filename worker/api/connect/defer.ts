import type { Context } from "hono";
import type { ApiEnv } from "../context";

/**
 * Work that goes on after the answer (a login still being made at the institution): the request's waitUntil. A
 * caller without an execution context (a test calling the app directly) awaits nothing, and the work still runs.
 */
export function deferOf(c: Context<ApiEnv>): (work: Promise<unknown>) => void {
  return (work) => {
    const settled = work.catch(() => undefined);
    try {
      c.executionCtx.waitUntil(settled);
    } catch {
      // No execution context: nothing to extend.
    }
  };
}
