import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { shownPrefix } from "../domain/api-keys/store";
import { recordRequest } from "../domain/request-logs/record";
import { flagOn } from "../platform/configuration";
import { afterAnswer } from "../platform/http/after-answer";
import { bearerKey } from "./authenticate";
import type { ApiEnv } from "./context";

/** The error envelope of a JSON error answer; cloned now, read after the answer has gone. */
function errorEnvelope(res: Response): Promise<unknown> | undefined {
  if (res.status < 400 || !res.headers.get("Content-Type")?.includes("application/json")) return undefined;
  return res.clone().json();
}

/**
 * The body as the route read it. A body the route never read (refused before validation, or no body) is not read
 * here: reading it would take what the body limit never measured.
 */
const bodyRead = (c: Context<ApiEnv>): Promise<string> | undefined => (Object.keys(c.req.bodyCache).length > 0 ? c.req.text() : undefined);

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
      path: c.req.path,
      status: c.res.status,
      latencyMs: Date.now() - startedAt,
      idempotencyKey: c.req.header("Idempotency-Key"),
      query: c.req.queries(),
      bodyText: bodyRead(c),
      errorEnvelope: errorEnvelope(c.res),
      startedAt,
    }),
  );
});
