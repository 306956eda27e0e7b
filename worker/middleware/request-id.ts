import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** Every response carries X-Request-Id, the same id the error envelope reports. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = `req_${crypto.randomUUID().replace(/-/g, "")}`;
  c.set("requestId", id);
  await next();
  c.header("X-Request-Id", id);
});
