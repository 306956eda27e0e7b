import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listPlans from "./plans";
import * as getSubscription from "./subscription";
import * as changePlan from "./change-plan";
import * as withdrawPlanChange from "./withdraw-change";
import * as cancelSubscription from "./cancel";
import * as createPaymentMethod from "./payment-methods-create";
import * as listPaymentMethods from "./payment-methods-list";
import * as deletePaymentMethod from "./payment-methods-delete";
import * as listInvoices from "./invoices-list";
import * as getInvoice from "./invoices-get";
import * as payInvoice from "./invoices-pay";
import * as gatewayWebhook from "./gateway-webhook";

/** What the workspace pays: prices are public to any key, the rest is owners' business (docs/billing.md). */
export function registerBillingRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listPlans.route, listPlans.handler);
  api.openapi(getSubscription.route, getSubscription.handler);
  api.openapi(changePlan.route, changePlan.handler);
  api.openapi(withdrawPlanChange.route, withdrawPlanChange.handler);
  api.openapi(cancelSubscription.route, cancelSubscription.handler);
  api.openapi(createPaymentMethod.route, createPaymentMethod.handler);
  api.openapi(listPaymentMethods.route, listPaymentMethods.handler);
  api.openapi(deletePaymentMethod.route, deletePaymentMethod.handler);
  api.openapi(listInvoices.route, listInvoices.handler);
  api.openapi(getInvoice.route, getInvoice.handler);
  api.openapi(payInvoice.route, payInvoice.handler);
}

/** The payment gateway's deliveries, on the root app outside /api/v1: no API key, its signature stands in (gateway-webhook.ts). */
export function registerGatewayWebhookRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(gatewayWebhook.route, gatewayWebhook.handler);
}
