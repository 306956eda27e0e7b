import type { Context } from "hono";

/** Work that outlives the answer: the runtime's waitUntil where there is one (an app run by hand in a test has none). */
export function afterAnswer(c: Context, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    void work;
  }
}
