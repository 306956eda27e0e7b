import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { withSpan } from "../observability/telemetry";
import { newTraceId, parseTraceparent } from "../observability/trace-context";
import { afterAnswer } from "./after-answer";
import { setAnswerHeaders } from "./answer-headers";

/**
 * Every response carries X-Request-Id, the same id the error envelope reports, and every log line of the request
 * carries it; the request is a span of the caller's trace when it sends a W3C `traceparent`, else of a new one.
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = `req_${crypto.randomUUID().replace(/-/g, "")}`;
  c.set("requestId", id);
  const parent = parseTraceparent(c.req.header("traceparent")) ?? { traceId: newTraceId(), spanId: "", sampled: true };
  const waitUntil = (work: Promise<unknown>) => afterAnswer(c, work);
  await withSpan(
    `HTTP ${c.req.method}`,
    { parent, kind: "server", attributes: { "http.request.method": c.req.method, "url.path": c.req.path, "request.id": id }, fields: { requestId: id }, exporting: { env: c.env, waitUntil } },
    async (span) => {
      await next();
      span.setAttribute("http.response.status_code", c.res.status);
    },
  );
  setAnswerHeaders(c, { "X-Request-Id": id });
});
