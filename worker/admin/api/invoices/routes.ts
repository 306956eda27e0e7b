import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as refundInvoice from "./refund";

/** Refunding a workspace's invoice. */
export function registerInvoiceRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(refundInvoice.route, refundInvoice.handler);
}
