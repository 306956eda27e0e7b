import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { behind } from "../../platform/http/route-fronts";
import { validationHook } from "../../platform/http/validation-hook";
import { registerRateHeaders } from "../../platform/http/rate-headers";
import { serverDescription } from "../../platform/http/server-description";
import { AUDITED, OPERATOR_SESSION, operatorDocumentAccess, operatorsMay } from "../../domain/operators/authenticate";
import type { OperatorAction } from "../../domain/operators/permissions";
import * as listAlerts from "./alerts";
import * as listAudit from "./audit";
import * as rerunJob from "./jobs/rerun";
import * as announceOutage from "./outages/create";
import * as listOutages from "./outages/list";
import * as withdrawOutage from "./outages/withdraw";
import * as closeReport from "./reports/close";
import * as getReport from "./reports/get";
import * as listReports from "./reports/list";
import * as search from "./search";
import * as signIn from "./sessions/create";
import * as signOut from "./sessions/delete";
import * as getWorkspace from "./workspaces/get";
import * as setPlan from "./workspaces/plan";
import * as grantCredit from "./workspaces/credits";
import * as refundInvoice from "./invoices/refund";
import { restore, suspend } from "./workspaces/suspension";

export const ADMIN_API_PATH = "/admin/api";

/** Operator routes: a live operator session whose role may do `action`; each writes its audit line before it acts or shows. */
const operating = <R extends RouteConfig>(action: OperatorAction, route: R) => behind(route, OPERATOR_SESSION, operatorsMay(action), AUDITED);

/**
 * The operators' API (docs/operations.md), with a document of its own at /admin/api/openapi.json for operators only:
 * the partners' document at /api/v1/openapi.json never shows it. Returned inside a plain Hono app, so mounting it does
 * not merge its routes into the partners' document (OpenAPIHono.route would).
 */
export function adminApi(): Hono<AppEnv> {
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  api.openapi(behind(signIn.route), signIn.handler);
  api.openapi(behind(signOut.route, OPERATOR_SESSION), signOut.handler);
  api.openapi(operating("workspaces.read", search.route), search.handler);
  api.openapi(operating("workspaces.read", getWorkspace.route), getWorkspace.handler);
  api.openapi(operating("workspaces.suspend", suspend.route), suspend.handler);
  api.openapi(operating("workspaces.suspend", restore.route), restore.handler);
  api.openapi(operating("workspaces.plan", setPlan.route), setPlan.handler);
  api.openapi(operating("workspaces.credit", grantCredit.route), grantCredit.handler);
  api.openapi(operating("invoices.refund", refundInvoice.route), refundInvoice.handler);
  api.openapi(operating("jobs.rerun", rerunJob.route), rerunJob.handler);
  api.openapi(behind(listOutages.route, OPERATOR_SESSION, operatorsMay("workspaces.read")), listOutages.handler);
  api.openapi(operating("outages.manage", announceOutage.route), announceOutage.handler);
  api.openapi(operating("outages.manage", withdrawOutage.route), withdrawOutage.handler);
  api.openapi(behind(listAudit.route, OPERATOR_SESSION, operatorsMay("audit.read")), listAudit.handler);
  api.openapi(behind(listAlerts.route, OPERATOR_SESSION, operatorsMay("alerts.read")), listAlerts.handler);
  api.openapi(behind(listReports.route, OPERATOR_SESSION, operatorsMay("reports.read")), listReports.handler);
  api.openapi(operating("reports.read", getReport.route), getReport.handler);
  api.openapi(operating("reports.close", closeReport.route), closeReport.handler);

  api.openAPIRegistry.registerComponent("securitySchemes", "operatorSession", { type: "http", scheme: "bearer", description: "POST /admin/api/sessions가 준 운영자 세션 토큰 (ops_...)" });
  registerRateHeaders(api);
  api.use("/openapi.json", operatorDocumentAccess);
  api.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    servers: [{ url: new URL(ADMIN_API_PATH, c.req.url).href, description: `운영자 API (내부용). ${serverDescription(new URL(c.req.url))}`, "x-internal": true }],
    info: { title: "운영자 API", version: "v1", description: "운영자 전용. 모든 오류는 파트너 API와 같은 {code, message, requestId[, fieldErrors]} 형식입니다." },
    security: [{ operatorSession: [] }],
  }));
  return new Hono<AppEnv>().route("/", api);
}
