import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { REGISTRATION_PAGE, REGISTRATION_PAGE_CSP } from "../../web/hosted-ui/page";
import * as connectKeys from "./keys";
import * as connectSession from "./session";
import * as connectSubmit from "./submit";
import * as connectCheck from "./check";
import * as openBanking from "./open-banking";
import { CALLBACK_PATH } from "../../domain/registration/open-banking";

/** The hosted registration UI and the token-authenticated calls it makes (no API key: end-users' browsers), on the root app. */
export function registerConnectRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.get("/connect", (c) => c.html(REGISTRATION_PAGE, 200, { "Content-Security-Policy": REGISTRATION_PAGE_CSP }));
  app.openapi(connectKeys.route, connectKeys.handler);
  app.openapi(connectSession.route, connectSession.handler);
  app.openapi(connectSubmit.route, connectSubmit.handler);
  app.openapi(connectCheck.getRoute, connectCheck.handler);
  app.openapi(connectCheck.postRoute, connectCheck.handler);
  app.openapi(openBanking.startRoute, openBanking.startHandler);
  app.openapi(openBanking.outcomeRoute, openBanking.outcomeHandler);
  app.openapi(openBanking.completeRoute, openBanking.completeHandler);
  app.get(CALLBACK_PATH, openBanking.callback);
}
