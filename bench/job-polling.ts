/** Polling a job as a client would, for the benchmarks that run many jobs (scale.ts, capacity.ts). */

/** Polls that got no answer (in time, or a dropped connection) and were sent again, as a client would: printed, since each is a stall to explain. */
export const stalls = { unansweredPolls: 0 };
export const POLL_TIMEOUT_MS = 30_000;

export async function poll(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  for (;;) {
    try {
      return (await (await fetch(url, { headers, signal: AbortSignal.timeout(POLL_TIMEOUT_MS) })).json()) as Record<string, unknown>;
    } catch (err) {
      // undici says "fetch failed" for a connection the local server closed under the request.
      if (!(err instanceof Error && (err.name === "TimeoutError" || err.message === "fetch failed"))) throw err;
      stalls.unansweredPolls++;
    }
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
