interface Env {
  RESULTS: R2Bucket;
}

/**
 * GET /<key>?offset=<n>[&length=<n>] streams the R2 object as stored from byte n on (the same ranged read an export
 * makes: the CSV rows from their offset, the JSON lines up to it), one HTTP request a unit.
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const length = url.searchParams.get("length");
    const range = { offset: Number(url.searchParams.get("offset") ?? 0), ...(length ? { length: Number(length) } : {}) };
    const object = await env.RESULTS.get(decodeURIComponent(url.pathname.slice(1)), { range });
    return object ? new Response(object.body) : new Response("not found", { status: 404 });
  },
};
