import { OpenAPIHono } from "@hono/zod-openapi";
import { DOWNLOAD_LINK_PATH } from "../domain/download-links/links";
import { REFERENCE_PAGE, REFERENCE_PAGE_CSP, REFERENCE_SCRIPTS } from "../web/api-reference/reference-page";
import { registerRateHeaders } from "../platform/http/rate-headers";
import { serverDescription } from "../platform/http/server-description";
import { validationHook } from "../platform/http/validation-hook";
import { registerApiKeyRoutes } from "./api-keys/routes";
import { registerBillingRoutes, registerGatewayWebhookRoutes } from "./billing/routes";
import { registerConnectRoutes } from "./connect/routes";
import { REGISTRATION_SESSION_TOKEN } from "./connect/token";
import { registerConnectionRoutes } from "./connections/routes";
import type { ApiEnv } from "./context";
import { registerCredentialRoutes } from "./credentials/routes";
import { registerDataJobRoutes } from "./data-jobs/routes";
import { registerDeliveryRouteRoutes } from "./delivery-routes/routes";
import { registerDeviceCodeRoutes } from "./device-codes/routes";
import { registerDownloadLinkRoutes } from "./download-links/routes";
import { registerPartnerProfileRoutes } from "./partner-profile/routes";
import { registerPartnerRoutes } from "./partners/routes";
import { registerProviderRoutes } from "./providers/routes";
import { registerRegistrationSessionRoutes } from "./registration-sessions/routes";
import { registerRequestLogRoutes } from "./request-logs/routes";
import { registerResultsRetentionRoutes } from "./results-retention/routes";
import { registerRunnerRoutes } from "./runners/connect";
import { registerScheduleRoutes } from "./schedules/routes";
import { registerSchemaRoutes } from "./schemas/routes";
import { registerWebhookEndpointRoutes } from "./webhook-endpoints/routes";
import { registerWorkspaceInvitationRoutes } from "./workspace-invitations/routes";
import { registerWorkspaceMemberRoutes } from "./workspace-members/routes";

export type Api = OpenAPIHono<ApiEnv>;

const DOCUMENT_PATH = "/api/v1/openapi.json";
const PUBLIC_PATHS = new Set([DOCUMENT_PATH, "/api/v1/docs", ...Object.keys(REFERENCE_SCRIPTS)]);
/** /api/v1 paths served without an API key: the document, and download links, which carry their own signature. */
export const isKeyless = (path: string) => PUBLIC_PATHS.has(path) || path.startsWith(DOWNLOAD_LINK_PATH);

/**
 * The authenticated /api/v1 routes; each resource registers its own, and each route's file declares who may call it
 * (api/guards.ts). The order here is the order of paths and components in the served document.
 */
function registerResourceRoutes(api: Api): void {
  registerDataJobRoutes(api);
  registerScheduleRoutes(api);
  registerDownloadLinkRoutes(api);
  registerSchemaRoutes(api);
  registerProviderRoutes(api);
  registerApiKeyRoutes(api);
  registerCredentialRoutes(api);
  registerRegistrationSessionRoutes(api);
  registerConnectionRoutes(api);
  registerPartnerProfileRoutes(api);
  registerPartnerRoutes(api);
  registerWebhookEndpointRoutes(api);
  registerDeliveryRouteRoutes(api);
  registerWorkspaceMemberRoutes(api);
  registerWorkspaceInvitationRoutes(api);
  registerBillingRoutes(api);
  registerResultsRetentionRoutes(api);
  registerRequestLogRoutes(api);
}

/**
 * The partner API surface on `app`: /api/v1 with its resources, its generated document and reference page, the hosted
 * registration UI's API (/connect), the device grant (/oauth), the runners' socket and the payment gateway's webhook.
 * The document covers every route registered on `app`, so it is made here, after them.
 */
export function mountApiSurface(app: Api): void {
  const api: Api = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook });
  registerResourceRoutes(api);
  app.route("/api/v1", api);
  registerConnectRoutes(app);
  registerRunnerRoutes(app);
  registerDeviceCodeRoutes(app);
  registerGatewayWebhookRoutes(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "워크스페이스 API 키" });
  app.openAPIRegistry.registerComponent("securitySchemes", REGISTRATION_SESSION_TOKEN, {
    type: "http",
    scheme: "bearer",
    description: "등록 세션의 sessionToken (POST /api/v1/registration-sessions가 한 번 돌려준 값). 호스팅 등록 화면만 씁니다",
  });
  registerRateHeaders(app);
  // The origin the document was fetched from: paths are absolute (/api/v1/..., /connect/api/...), so a client or generator
  // reading a saved copy still knows the host, and each deployment (sandbox, local, production) names itself.
  app.doc31(DOCUMENT_PATH, (c) => ({
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
}
