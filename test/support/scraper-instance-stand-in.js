/**
 * The platform's side of a Cloudflare Container for the workers tests, which
 * have no container runtime: a Durable Object per instance name that hands
 * each request to the scraper process as a Container hands it to its port,
 * and remembers what it was sent so a test sees which instance served a call.
 */
export class ScraperInstanceStandIn {
  constructor(ctx, env) {
    this.env = env;
    this.seen = [];
  }

  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__stand-in/seen") return Response.json(this.seen);
    this.seen.push(`${request.method} ${url.pathname}`);
    return fetch(new Request(`${this.env.SCRAPER_PROCESS_URL}${url.pathname}`, request));
  }
}

export default {
  fetch: () => new Response(null, { status: 404 }),
};
