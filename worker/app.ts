import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ADMIN_API_PATH, adminApi } from "./admin/api/app";
import { adminConsole } from "./admin/pages/routes";
import { consoleRoutes } from "./console/routes";
import { showStatusPage, STATUS_PAGE_PATH } from "./web/status-page/page";
import { type Api, isKeyless, mountApiSurface } from "./api/surface";
import type { ApiEnv } from "./api/context";
import { ApiError } from "./platform/errors/api-error";
import { errorResponse, onError, onNotFound } from "./web/error-handler";
import { serverTiming } from "./platform/http/server-timing";
import { validationHook } from "./platform/http/validation-hook";
import { requireAuth } from "./api/authenticate";
import { rateLimit } from "./api/rate-limit";
import { recordApiRequest } from "./api/request-log";
import { requestId } from "./platform/http/request-id";
import { requireConfiguration } from "./web/require-configuration";
import { holderPages } from "./web/holder-page/routes";
import { MANAGE_PAGE_PATH } from "./domain/consent-withdrawal/manage-link";

export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The app: the middleware every request passes, then the three surfaces (the partner API, the console, the operators'
 * console), each mounting its own routes, and the pages they share.
 */
export function createApp(): Api {
  const app = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook });
  app.use(requestId);
  app.use(serverTiming);
  app.use(requireConfiguration);
  app.use("/api/v1/*", recordApiRequest);
  app.use(rateLimit);
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => errorResponse(c, new ApiError("METHOD_NOT_ALLOWED", { headers: { Allow: methods.join(", ") } })) }));
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("MALFORMED_REQUEST", { message: `요청 본문이 최대 ${MAX_BODY_BYTES / 1024}KB를 넘었습니다. 본문을 줄여 다시 보내 주세요.` });
      },
    }),
  );
  app.use("/api/v1/*", async (c, next) => (isKeyless(c.req.path) ? next() : requireAuth(c, next)));

  mountApiSurface(app);
  app.route("/console", consoleRoutes());
  app.route(ADMIN_API_PATH, adminApi());
  app.route("/admin", adminConsole());
  app.route(MANAGE_PAGE_PATH.slice(0, -1), holderPages());
  app.get(STATUS_PAGE_PATH, showStatusPage);
  app.get("/", (c) => c.redirect("/api/v1/docs"));

  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}
