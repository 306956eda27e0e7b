import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ADMIN_API_PATH, adminApi } from "./admin/api/app";
import { adminConsole } from "./admin/pages/routes";
import { consoleRoutes } from "./console/routes";
import { showStatusPage, STATUS_PAGE_PATH } from "./web/status-page/page";
import { DOWNLOAD_LINK_PATH } from "./domain/download-links/links";
import { REFERENCE_PAGE, REFERENCE_PAGE_CSP, REFERENCE_SCRIPTS } from "./web/api-reference/reference-page";
import { connectRunner, RUNNER_CONNECT_PATH, RUNNER_STATUS_ROUTE, runnerStatus } from "./domain/scraper/runner-connect";
import { REGISTRATION_PAGE, REGISTRATION_PAGE_CSP } from "./web/hosted-ui/page";
import type { AppEnv } from "./env";
import { ApiError } from "./platform/errors/api-error";
import { errorResponse, onError, onNotFound } from "./web/error-handler";
import { behind, type RouteFront } from "./platform/http/route-fronts";
import { registerRateHeaders } from "./platform/http/rate-headers";
import { validationHook } from "./platform/http/validation-hook";
import { serverDescription } from "./platform/http/server-description";
import { requireAuth } from "./api/authenticate";
import { rateLimit } from "./api/rate-limit";
import { requestId } from "./platform/http/request-id";
import { requireConfiguration } from "./platform/http/require-configuration";
import * as createApiKey from "./api/api-keys/create";
import * as createDeliveryRoute from "./api/delivery-routes/create";
import * as deleteDeliveryRoute from "./api/delivery-routes/delete";
import * as listRouteDeliveries from "./api/delivery-routes/deliveries";
import * as listDeliveryRoutes from "./api/delivery-routes/list";
import * as listApiKeys from "./api/api-keys/list";
import * as revokeApiKey from "./api/api-keys/revoke";
import { BUSINESS_SELECTION, BUSINESS_SELECTION_OR_BODY } from "./api/select-business";
import { managersOnly } from "./api/managers-only";
import type { Action } from "./domain/workspaces/roles";
import * as connectKeys from "./api/connect/keys";
import { REGISTRATION_SESSION_TOKEN } from "./api/connect/token";
import * as connectSession from "./api/connect/session";
import * as connectSubmit from "./api/connect/submit";
import * as createConnection from "./api/connections/create";
import * as listConnections from "./api/connections/list";
import * as revokeConnection from "./api/connections/revoke";
import * as listActingPartners from "./api/partners/list";
import * as getActingPartner from "./api/partners/get";
import * as revokeActingPartner from "./api/partners/revoke";
import * as getPartnerProfile from "./api/partner-profile/get";
import * as updatePartnerProfile from "./api/partner-profile/update";
import * as createCredential from "./api/credentials/create";
import * as deleteCredential from "./api/credentials/delete";
import * as updateCredential from "./api/credentials/update";
import * as checkCredential from "./api/credentials/check";
import * as getCredential from "./api/credentials/get";
import * as listCredentials from "./api/credentials/list";
import * as createDataJob from "./api/data-jobs/create";
import * as createDeviceCode from "./api/device-codes/create";
import * as pollDeviceCode from "./api/device-codes/token";
import * as getDataJob from "./api/data-jobs/get";
import * as listDataJobs from "./api/data-jobs/list";
import * as getResults from "./api/data-jobs/results";
import * as getResultsCsv from "./api/data-jobs/results-csv";
import * as createDownloadLink from "./api/download-links/create";
import * as downloadJobCsv from "./api/download-links/download";
import * as getProvider from "./api/providers/get";
import * as cancelRegistrationSession from "./api/registration-sessions/cancel";
import * as createRegistrationSession from "./api/registration-sessions/create";
import * as getRegistrationSession from "./api/registration-sessions/get";
import * as getCredentialSchema from "./api/providers/credential-schema";
import * as listProviders from "./api/providers/list";
import * as getSchema from "./api/schemas/get";
import * as listSchemas from "./api/schemas/list";
import * as createWebhookEndpoint from "./api/webhook-endpoints/create";
import * as deleteWebhookEndpoint from "./api/webhook-endpoints/delete";
import * as listWebhookDeliveries from "./api/webhook-endpoints/deliveries";
import * as getWebhookEndpoint from "./api/webhook-endpoints/get";
import * as listWebhookEndpoints from "./api/webhook-endpoints/list";
import * as createSchedule from "./api/schedules/create";
import * as deleteSchedule from "./api/schedules/delete";
import * as getSchedule from "./api/schedules/get";
import * as listSchedules from "./api/schedules/list";
import * as pauseSchedule from "./api/schedules/pause";
import * as resumeSchedule from "./api/schedules/resume";
import * as listScheduleRuns from "./api/schedules/runs";
import * as replayWebhookDelivery from "./api/webhook-endpoints/replay";
import * as rotateWebhookEndpointSecret from "./api/webhook-endpoints/rotate-secret";
import * as updateWebhookEndpoint from "./api/webhook-endpoints/update";
import * as cancelSubscription from "./api/billing/cancel";
import * as changePlan from "./api/billing/change-plan";
import * as getInvoice from "./api/billing/invoices-get";
import * as gatewayWebhook from "./api/billing/gateway-webhook";
import * as listInvoices from "./api/billing/invoices-list";
import * as payInvoice from "./api/billing/invoices-pay";
import * as createPaymentMethod from "./api/billing/payment-methods-create";
import * as deletePaymentMethod from "./api/billing/payment-methods-delete";
import * as listPaymentMethods from "./api/billing/payment-methods-list";
import * as listPlans from "./api/billing/plans";
import * as getSubscription from "./api/billing/subscription";
import * as withdrawPlanChange from "./api/billing/withdraw-change";
import * as createWorkspaceInvitation from "./api/workspace-invitations/create";
import * as listWorkspaceInvitations from "./api/workspace-invitations/list";
import * as revokeWorkspaceInvitation from "./api/workspace-invitations/revoke";
import * as listWorkspaceMembers from "./api/workspace-members/list";
import * as removeWorkspaceMember from "./api/workspace-members/remove";
import * as updateWorkspaceMember from "./api/workspace-members/update";

export const MAX_BODY_BYTES = 256 * 1024;
const PUBLIC_PATHS = new Set(["/api/v1/openapi.json", "/api/v1/docs", ...Object.keys(REFERENCE_SCRIPTS)]);
/** /api/v1 paths served without an API key: the document, and download links, which carry their own signature. */
const isKeyless = (path: string) => PUBLIC_PATHS.has(path) || path.startsWith(DOWNLOAD_LINK_PATH);

export type Api = OpenAPIHono<AppEnv>;

/** requireAuth, mounted on /api/v1/*, answers these for a missing, unknown, revoked or expired API key, or one of a suspended workspace. */
const API_KEY_CHECK: RouteFront = { errors: ["INVALID_TOKEN", "TOKEN_EXPIRED", "WORKSPACE_ACCESS_DENIED"] };

/** Every /api/v1 operation is behind the API key check. */
const keyed = <R extends RouteConfig>(route: R) => behind(route, API_KEY_CHECK);
/** Data of one business (jobs, credentials, registration sessions): a partner selects the business with X-SVC-Business. */
const businessScoped = <R extends RouteConfig>(route: R) => behind(route, API_KEY_CHECK, BUSINESS_SELECTION);
/**
 * Routes that manage the workspace: the key must act with a role that may do `action` (workspaces/roles.ts, the one
 * table of who may do what; the console's pages check the same), refused before the business is selected.
 */
const managing = <R extends RouteConfig>(action: Action, route: R) => behind(route, API_KEY_CHECK, managersOnly(action));
const managingBusiness = <R extends RouteConfig>(action: Action, route: R) => behind(route, API_KEY_CHECK, managersOnly(action), BUSINESS_SELECTION);

/** The authenticated /api/v1 routes; later features register theirs on the same app. */
function registerRoutes(api: Api): void {
  api.openapi(behind(createDataJob.route, API_KEY_CHECK, BUSINESS_SELECTION_OR_BODY), createDataJob.handler);
  api.openapi(businessScoped(listDataJobs.route), listDataJobs.handler);
  api.openapi(businessScoped(getDataJob.route), getDataJob.handler);
  api.openapi(businessScoped(getResults.route), getResults.handler);
  api.openapi(businessScoped(getResultsCsv.route), getResultsCsv.handler);
  api.openapi(businessScoped(createDownloadLink.route), createDownloadLink.handler);
  // Schedules are a business's like its jobs: a partner names the business as it does for jobs.
  api.openapi(businessScoped(createSchedule.route), createSchedule.handler);
  api.openapi(businessScoped(listSchedules.route), listSchedules.handler);
  api.openapi(businessScoped(getSchedule.route), getSchedule.handler);
  api.openapi(businessScoped(pauseSchedule.route), pauseSchedule.handler);
  api.openapi(businessScoped(resumeSchedule.route), resumeSchedule.handler);
  api.openapi(businessScoped(deleteSchedule.route), deleteSchedule.handler);
  api.openapi(businessScoped(listScheduleRuns.route), listScheduleRuns.handler);
  // The link's token stands in for the API key: whoever holds the link may download, so no key check and no business selection.
  api.openapi(behind(downloadJobCsv.route), downloadJobCsv.handler);
  api.openapi(keyed(listSchemas.route), listSchemas.handler);
  api.openapi(keyed(getSchema.route), getSchema.handler);
  api.openapi(keyed(listProviders.route), listProviders.handler);
  api.openapi(keyed(getProvider.route), getProvider.handler);
  api.openapi(keyed(getCredentialSchema.route), getCredentialSchema.handler);
  api.openapi(managing("keys.manage", createApiKey.route), createApiKey.handler);
  api.openapi(managing("keys.manage", listApiKeys.route), listApiKeys.handler);
  api.openapi(managing("keys.manage", revokeApiKey.route), revokeApiKey.handler);
  api.openapi(managingBusiness("credentials.manage", createCredential.route), createCredential.handler);
  api.openapi(businessScoped(listCredentials.route), listCredentials.handler);
  api.openapi(businessScoped(getCredential.route), getCredential.handler);
  api.openapi(managingBusiness("credentials.manage", deleteCredential.route), deleteCredential.handler);
  api.openapi(managingBusiness("credentials.manage", updateCredential.route), updateCredential.handler);
  api.openapi(businessScoped(checkCredential.route), checkCredential.handler);
  api.openapi(managingBusiness("credentials.manage", createRegistrationSession.route), createRegistrationSession.handler, createRegistrationSession.hook);
  api.openapi(businessScoped(getRegistrationSession.route), getRegistrationSession.handler);
  api.openapi(managingBusiness("credentials.manage", cancelRegistrationSession.route), cancelRegistrationSession.handler);
  api.openapi(managing("connections.manage", createConnection.route), createConnection.handler);
  api.openapi(keyed(listConnections.route), listConnections.handler);
  api.openapi(managing("connections.manage", revokeConnection.route), revokeConnection.handler);
  api.openapi(keyed(getPartnerProfile.route), getPartnerProfile.handler);
  api.openapi(managing("connections.manage", updatePartnerProfile.route), updatePartnerProfile.handler);
  api.openapi(keyed(listActingPartners.route), listActingPartners.handler);
  api.openapi(keyed(getActingPartner.route), getActingPartner.handler);
  api.openapi(managing("connections.manage", revokeActingPartner.route), revokeActingPartner.handler);
  // Webhook endpoints belong to the key's own workspace; a partner's hear of its businesses' events too (webhooks/emit.ts).
  api.openapi(managing("webhooks.manage", createWebhookEndpoint.route), createWebhookEndpoint.handler);
  api.openapi(keyed(listWebhookEndpoints.route), listWebhookEndpoints.handler);
  api.openapi(keyed(getWebhookEndpoint.route), getWebhookEndpoint.handler);
  api.openapi(managing("webhooks.manage", updateWebhookEndpoint.route), updateWebhookEndpoint.handler);
  api.openapi(managing("webhooks.manage", deleteWebhookEndpoint.route), deleteWebhookEndpoint.handler);
  api.openapi(managing("webhooks.manage", rotateWebhookEndpointSecret.route), rotateWebhookEndpointSecret.handler);
  api.openapi(keyed(listWebhookDeliveries.route), listWebhookDeliveries.handler);
  api.openapi(managing("webhooks.manage", replayWebhookDelivery.route), replayWebhookDelivery.handler);
  // Delivery routes belong to the key's own workspace; a partner's serve the jobs it makes for its businesses too.
  api.openapi(managing("deliveries.manage", createDeliveryRoute.route), createDeliveryRoute.handler);
  api.openapi(keyed(listDeliveryRoutes.route), listDeliveryRoutes.handler);
  api.openapi(managing("deliveries.manage", deleteDeliveryRoute.route), deleteDeliveryRoute.handler);
  api.openapi(keyed(listRouteDeliveries.route), listRouteDeliveries.handler);
  // The people of the key's own workspace: owners' business, as in the console.
  api.openapi(managing("members.manage", listWorkspaceMembers.route), listWorkspaceMembers.handler);
  api.openapi(managing("members.manage", updateWorkspaceMember.route), updateWorkspaceMember.handler);
  api.openapi(managing("members.manage", removeWorkspaceMember.route), removeWorkspaceMember.handler);
  api.openapi(managing("members.manage", createWorkspaceInvitation.route), createWorkspaceInvitation.handler);
  api.openapi(managing("members.manage", listWorkspaceInvitations.route), listWorkspaceInvitations.handler);
  api.openapi(managing("members.manage", revokeWorkspaceInvitation.route), revokeWorkspaceInvitation.handler);
  // What the workspace pays: prices are public to any key, the rest is owners' business (docs/billing.md).
  api.openapi(keyed(listPlans.route), listPlans.handler);
  api.openapi(managing("billing.manage", getSubscription.route), getSubscription.handler);
  api.openapi(managing("billing.manage", changePlan.route), changePlan.handler);
  api.openapi(managing("billing.manage", withdrawPlanChange.route), withdrawPlanChange.handler);
  api.openapi(managing("billing.manage", cancelSubscription.route), cancelSubscription.handler);
  api.openapi(managing("billing.manage", createPaymentMethod.route), createPaymentMethod.handler);
  api.openapi(managing("billing.manage", listPaymentMethods.route), listPaymentMethods.handler);
  api.openapi(managing("billing.manage", deletePaymentMethod.route), deletePaymentMethod.handler);
  api.openapi(managing("billing.manage", listInvoices.route), listInvoices.handler);
  api.openapi(managing("billing.manage", getInvoice.route), getInvoice.handler);
  api.openapi(managing("billing.manage", payInvoice.route), payInvoice.handler);
}

/** The hosted registration UI and the token-authenticated calls it makes (no API key: end-users' browsers). */
function registerConnect(app: Api): void {
  app.get("/connect", (c) => c.html(REGISTRATION_PAGE, 200, { "Content-Security-Policy": REGISTRATION_PAGE_CSP }));
  app.openapi(behind(connectKeys.route), connectKeys.handler);
  app.openapi(behind(connectSession.route), connectSession.handler);
  app.openapi(behind(connectSubmit.route), connectSubmit.handler);
}

export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(requestId);
  app.use(requireConfiguration);
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

  const api: Api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerRoutes(api);
  app.route("/api/v1", api);
  registerConnect(app);
  app.get(RUNNER_CONNECT_PATH, connectRunner);
  app.get(RUNNER_STATUS_ROUTE, runnerStatus);
  app.route("/console", consoleRoutes());
  app.route(ADMIN_API_PATH, adminApi());
  app.route("/admin", adminConsole());
  // Device-code login (RFC 8628): a command-line client has no API key yet, so these live outside /api/v1.
  app.openapi(behind(createDeviceCode.route), createDeviceCode.handler);
  app.openapi(behind(pollDeviceCode.route), pollDeviceCode.handler);
  // The payment gateway's deliveries: its Standard Webhooks signature stands in for an API key (docs/billing.md).
  app.openapi(behind(gatewayWebhook.route), gatewayWebhook.handler);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "워크스페이스 API 키" });
  app.openAPIRegistry.registerComponent("securitySchemes", REGISTRATION_SESSION_TOKEN, {
    type: "http",
    scheme: "bearer",
    description: "등록 세션의 sessionToken (POST /api/v1/registration-sessions가 한 번 돌려준 값). 호스팅 등록 화면만 씁니다",
  });
  registerRateHeaders(app);
  // The origin the document was fetched from: paths are absolute (/api/v1/..., /connect/api/...), so a client or generator
  // reading a saved copy still knows the host, and each deployment (sandbox, local, production) names itself.
  app.doc31("/api/v1/openapi.json", (c) => ({
    openapi: "3.1.0",
    servers: [{ url: new URL(c.req.url).origin, description: serverDescription(new URL(c.req.url)), "x-internal": false }],
    info: {
      title: "데이터 수집 API",
      version: "v1",
      description:
        "은행, 홈택스, 법인카드 데이터를 비동기로 수집해 표준 레코드(JSON, CSV)로 돌려줍니다. 모든 오류는 {code, message, requestId[, fieldErrors]} 형식입니다.",
    },
    security: [{ bearerAuth: [] }],
  }));
  app.get("/api/v1/docs", (c) => c.html(REFERENCE_PAGE, 200, { "Content-Security-Policy": REFERENCE_PAGE_CSP }));
  for (const [path, script] of Object.entries(REFERENCE_SCRIPTS)) {
    app.get(path, (c) => c.body(script, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" }));
  }
  app.get(STATUS_PAGE_PATH, showStatusPage);
  app.get("/", (c) => c.redirect("/api/v1/docs"));

  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}
