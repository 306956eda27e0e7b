import type { MiddlewareHandler } from "hono";
import { configurationProblems } from "../domain/deployment/configuration-problems";
import type { AppEnv } from "../platform/http/app-env";
import { log } from "../platform/observability/telemetry";
import { ApiError } from "../platform/errors/api-error";

/**
 * Each bindings object's problems, found once: workerd hands an isolate's every request the same `env`, and a
 * deployment's secrets and vars change only with a new isolate, so checking them per request was CPU spent for nothing
 * (docs/benchmarks.md, stop 68). A test's bindings of its own are another object, checked on their own.
 */
const problemsOf = new WeakMap<object, string[]>();

/** A deployment missing a secret or its scraper answers 503 to everything rather than run on anything else. */
export const requireConfiguration: MiddlewareHandler<AppEnv> = async (c, next) => {
  let problems = problemsOf.get(c.env);
  if (!problems) problemsOf.set(c.env, (problems = configurationProblems(c.env)));
  if (problems.length > 0) {
    // The operator reads what is missing in the logs; the caller only learns the service cannot work now.
    log("error", "deployment-incomplete", { missing: problems });
    throw new ApiError("SCRAPING_ENGINE_UNAVAILABLE");
  }
  await next();
};
