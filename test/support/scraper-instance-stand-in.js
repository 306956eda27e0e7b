/**
 * The platform's side of a Cloudflare Container for the workers tests, which
 * have no container runtime: a Durable Object per instance name that hands
 * each request to the scraper process as a Container hands it to its port,
 * and remembers what it was sent so a test sees which instance served a call.
 * The record is in the object's storage: an object evicted between two reads
 * of a loaded test run keeps it.
 */
export class ScraperInstanceStandIn {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }

  async fetch(request) {
    const url = new URL(request.url);
    const seen = (await this.ctx.storage.get("seen")) ?? [];
    if (url.pathname === "/__stand-in/seen") return Response.json(seen);
    await this.ctx.storage.put("seen", [...seen, `${request.method} ${url.pathname}`]);
    return fetch(new Request(`${this.env.SCRAPER_PROCESS_URL}${url.pathname}`, request));
  }
}

export default {
  fetch: () => new Response(null, { status: 404 }),
};
