import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../../env";
import * as refundInvoice from "./refund";

/** Refunding a workspace's invoice. */
export function registerInvoiceRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(refundInvoice.route, refundInvoice.handler);
}
