import type { Context, TypedResponse } from "hono";
import type { JSONParsed, JSONValue } from "hono/utils/types";
import { createMiddleware } from "hono/factory";
import { shownPrefix } from "../domain/api-keys/store";
import { recordRequest } from "../domain/request-logs/record";
import { flagOn } from "../platform/configuration";
import { afterAnswer } from "../platform/http/after-answer";
import type { RouteFront } from "../platform/http/route-fronts";
import { bearerKey } from "./authenticate";
import type { ApiEnv } from "./context";

/** The error envelope of a JSON error answer; cloned now, read after the answer has gone. */
function errorEnvelope(res: Response): Promise<unknown> | undefined {
  if (res.status < 400 || !res.headers.get("Content-Type")?.includes("application/json")) return undefined;
  return res.clone().json();
}

/**
 * What a route is defined behind to let its request log keep its JSON body, redacted (domain/request-logs/redaction.ts):
 * an allowlist, so a new route keeps nothing of what it is sent until someone decides it may. Routes that take card
 * numbers, credentials or destinations' secrets are never on it (docs/request-logs.md, "What is logged").
 */
export const LOGS_BODY: RouteFront<ApiEnv> = {
  middleware: createMiddleware<ApiEnv>(async (c, next) => {
    c.set("logsBody", true);
    await next();
  }),
  errors: [],
  extensions: { "x-request-log-body": true },
};

/**
 * What a route is defined behind when a client reads it again and again until it changes (a job's detail, polled at
 * its suggestedPollIntervalMs): its 200 answers the same within a minute are one row of the log, counting them
 * (domain/request-logs/entry.ts). Its 200 answer is made by `foldedJson`, which keeps the text the fold hashes.
 */
export const FOLDS_REPEATS: RouteFront<ApiEnv> = {
  middleware: createMiddleware<ApiEnv>(async (c, next) => {
    c.set("foldsRepeats", true);
    await next();
  }),
  errors: [],
};

/**
 * A FOLDS_REPEATS route's 200 answer, made as `c.json` makes it (the value's JSON text, Content-Type application/json)
 * and typed as it types it, so the route's document is the same. The text is kept for the log's fold: reading it back
 * from a copy of the answer after it had gone was a clone and a stream read a poll (docs/benchmarks.md, stop 68).
 */
export function foldedJson<T extends JSONValue | {}>(c: Context<ApiEnv>, value: T): Response & TypedResponse<JSONParsed<T>, 200, "json"> {
  const text = JSON.stringify(value);
  c.set("foldedAnswer", text);
  // c.json's own call on its text; Hono types a body as "body", the route's typing asks for the JSON it is.
  return c.body(text, 200, { "Content-Type": "application/json" }) as unknown as Response & TypedResponse<JSONParsed<T>, 200, "json">;
}

/**
 * The body as the route read it, where the route allows it (LOGS_BODY). A body the route never read (refused before
 * validation, or no body) is not read here: reading it would take what the body limit never measured.
 */
const bodyRead = (c: Context<ApiEnv>): Promise<string> | undefined =>
  c.get("logsBody") && Object.keys(c.req.bodyCache).length > 0 ? c.req.text() : undefined;

/**
 * A request URL's path as it came, percent-encoded, as `new URL(url).pathname` gives it for a URL the runtime has
 * already parsed and serialized (a Request's url), without parsing it again: the log takes it for every request after
 * the answer (docs/benchmarks.md, stop 68). Hono's `c.req.path` is no substitute: it decodes a path with a `%`.
 */
function pathAsSent(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const fragment = url.indexOf("#", start);
  return url.slice(start, query === -1 ? (fragment === -1 ? url.length : fragment) : fragment === -1 ? query : Math.min(query, fragment));
}

/**
 * Puts every /api/v1 request an API key made in its workspace's request log. Mounted outside the rate limit, so a 429
 * is logged too; requests without a valid key belong to no workspace and are not. Only what is at hand is taken
 * while the request runs; the entry is made, redacted and queued after the answer (docs/request-logs.md). Off only in
 * bench:api's stack that measures the API without it.
 */
export const recordApiRequest = createMiddleware<ApiEnv>(async (c, next) => {
  if (flagOn(c.env.BENCH_REQUEST_LOG_OFF)) return next();
  const startedAt = Date.now();
  await next();
  const principal = c.get("principal");
  const key = bearerKey(c);
  if (!principal || !key) return;
  afterAnswer(
    c,
    recordRequest(c.env.REQUEST_LOGS, {
      requestId: c.get("requestId"),
      workspaceId: principal.keyWorkspaceId,
      apiKeyId: principal.apiKeyId,
      apiKeyPrefix: shownPrefix(key),
      method: c.req.method,
      // As it came, percent-encoded: a decoded path's control and bidi characters could make it read as another on the Logs page.
      path: pathAsSent(c.req.url),
      status: c.res.status,
      latencyMs: Date.now() - startedAt,
      idempotencyKey: c.req.header("Idempotency-Key"),
      query: c.req.queries(),
      bodyText: bodyRead(c),
      errorEnvelope: errorEnvelope(c.res),
      answerText: c.get("foldsRepeats") && c.res.status === 200 ? c.get("foldedAnswer") : undefined,
      startedAt,
    }),
  );
});
