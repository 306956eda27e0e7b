interface Env {
  RESULTS: R2Bucket;
}

/**
 * GET /<key>?offset=<n> streams the R2 object as stored from byte n on (the
 * same ranged read the CSV export makes): the fastest any export could read it.
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const object = await env.RESULTS.get(decodeURIComponent(url.pathname.slice(1)), { range: { offset: Number(url.searchParams.get("offset") ?? 0) } });
    return object ? new Response(object.body) : new Response("not found", { status: 404 });
  },
};
