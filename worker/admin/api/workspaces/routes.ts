import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as getWorkspace from "./get";
import { restore, suspend } from "./suspension";
import * as setPlan from "./plan";
import * as grantCredit from "./credits";

/** One workspace: its record, suspension, plan and credit. */
export function registerWorkspaceRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(getWorkspace.route, getWorkspace.handler);
  api.openapi(suspend.route, suspend.handler);
  api.openapi(restore.route, restore.handler);
  api.openapi(setPlan.route, setPlan.handler);
  api.openapi(grantCredit.route, grantCredit.handler);
}
