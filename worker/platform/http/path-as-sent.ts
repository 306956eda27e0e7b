/**
 * A request URL's path as it came, percent-encoded, as `new URL(url).pathname` gives it for a URL the runtime has
 * already parsed and serialized (a Request's url), without parsing it again: the request log takes it for every request
 * after the answer (docs/benchmarks.md, stop 68). Hono's `c.req.path` is no substitute: it decodes a path with a `%`.
 */
export function pathAsSent(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const fragment = url.indexOf("#", start);
  return url.slice(start, query === -1 ? (fragment === -1 ? url.length : fragment) : fragment === -1 ? query : Math.min(query, fragment));
}
