/**
 * Where the scraper service runs: several instances, each with its own
 * browser and its own sessions in memory. The client (container-scraper.ts)
 * picks one per login and sends every later call of that session to it.
 * Two transports: Node processes over HTTP here, Cloudflare Container
 * instances through their Durable Object binding in production
 * (domain/scraper/scraper-container.ts); scraper-binding.ts picks one.
 */
export interface ScraperInstances {
  readonly count: number;
  /** One request to instance `instance` (0 <= instance < count); `path` is the scraper protocol's. */
  fetch(instance: number, path: string, init: RequestInit): Promise<Response>;
}

/** Local development and tests: Node processes on their own ports, one URL each. */
export function processInstances(baseUrls: readonly string[]): ScraperInstances {
  if (baseUrls.length === 0) throw new Error("no scraper URL");
  return { count: baseUrls.length, fetch: (instance, path, init) => fetch(`${baseUrls[instance]}${path}`, init) };
}
