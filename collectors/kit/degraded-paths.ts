/**
 * The roads an adapter took around a part of an institution that did not answer as the sources show, while the job
 * still collected (a refused cross-check download read from the JSON pages alone): counted per path for the
 * scraper's GET /stats, and each one a warn line for the operators' log. A count that grows says the institution
 * changed under the adapter before any job fails.
 */
const counts = new Map<string, number>();

export function noteDegraded(path: string, detail: string): void {
  counts.set(path, (counts.get(path) ?? 0) + 1);
  console.warn(JSON.stringify({ level: "warn", event: "adapter-degraded", path, detail }));
}

/** Each path taken since the process started, with how often. */
export function degradedCounts(): Record<string, number> {
  return Object.fromEntries(counts);
}
