import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import type { AdminApiEnv } from "../context";
import { validationHook } from "../../platform/http/validation-hook";
import { registerRateHeaders } from "../../platform/http/rate-headers";
import { serverDescription } from "../../platform/http/server-description";
import { operatorDocumentAccess } from "./authenticate";
import * as listAlerts from "./alerts";
import * as listAudit from "./audit";
import * as search from "./search";
import { registerInvoiceRoutes } from "./invoices/routes";
import { registerJobRoutes } from "./jobs/routes";
import { registerOutageRoutes } from "./outages/routes";
import { registerReportRoutes } from "./reports/routes";
import { registerSessionRoutes } from "./sessions/routes";
import { registerWorkspaceRoutes } from "./workspaces/routes";

export const ADMIN_API_PATH = "/admin/api";

/**
 * The operators' API (docs/operations.md), with a document of its own at /admin/api/openapi.json for operators only:
 * the partners' document at /api/v1/openapi.json never shows it. Returned inside a plain Hono app, so mounting it does
 * not merge its routes into the partners' document (OpenAPIHono.route would).
 */
export function adminApi(): Hono<AdminApiEnv> {
  const api = new OpenAPIHono<AdminApiEnv>({ defaultHook: validationHook });
  // Each route's file declares who may call it (guards.ts); the order here is the order of the document's paths. Search,
  // the audit log and the alerts are one file each, so they are registered here.
  registerSessionRoutes(api);
  api.openapi(search.route, search.handler);
  registerWorkspaceRoutes(api);
  registerInvoiceRoutes(api);
  registerJobRoutes(api);
  registerOutageRoutes(api);
  api.openapi(listAudit.route, listAudit.handler);
  api.openapi(listAlerts.route, listAlerts.handler);
  registerReportRoutes(api);

  api.openAPIRegistry.registerComponent("securitySchemes", "operatorSession", { type: "http", scheme: "bearer", description: "POST /admin/api/sessions가 준 운영자 세션 토큰 (ops_...)" });
  registerRateHeaders(api);
  api.use("/openapi.json", operatorDocumentAccess);
  api.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    servers: [{ url: new URL(ADMIN_API_PATH, c.req.url).href, description: `운영자 API (내부용). ${serverDescription(new URL(c.req.url))}`, "x-internal": true }],
    info: { title: "운영자 API", version: "v1", description: "운영자 전용. 모든 오류는 파트너 API와 같은 {code, message, requestId[, fieldErrors]} 형식입니다." },
    security: [{ operatorSession: [] }],
  }));
  return new Hono<AdminApiEnv>().route("/", api);
}
