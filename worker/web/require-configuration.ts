import type { MiddlewareHandler } from "hono";
import { configurationProblems } from "../domain/deployment/configuration-problems";
import type { AppEnv } from "../platform/http/app-env";
import { log } from "../platform/observability/telemetry";
import { ApiError } from "../platform/errors/api-error";

/** A deployment missing a secret or its scraper answers 503 to everything rather than run on anything else. */
export const requireConfiguration: MiddlewareHandler<AppEnv> = async (c, next) => {
  const problems = configurationProblems(c.env);
  if (problems.length > 0) {
    // The operator reads what is missing in the logs; the caller only learns the service cannot work now.
    log("error", "deployment-incomplete", { missing: problems });
    throw new ApiError("SCRAPING_ENGINE_UNAVAILABLE");
  }
  await next();
};
