interface Env {
  RESULTS: R2Bucket;
}

/** GET /<key> streams the R2 object as stored: the fastest any export could read it. */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const object = await env.RESULTS.get(decodeURIComponent(new URL(request.url).pathname.slice(1)));
    return object ? new Response(object.body) : new Response("not found", { status: 404 });
  },
};
