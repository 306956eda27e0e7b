import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { ADMIN_API_PATH, adminApi } from "./admin/api/app";
import { adminConsole } from "./admin/pages/routes";
import { consoleRoutes } from "./console/routes";
import { showStatusPage, STATUS_PAGE_PATH } from "./web/status-page/page";
import { DOWNLOAD_LINK_PATH } from "./domain/download-links/links";
import { REFERENCE_PAGE, REFERENCE_PAGE_CSP, REFERENCE_SCRIPTS } from "./web/api-reference/reference-page";
import { registerRunnerRoutes } from "./api/runners/connect";
import { registerApiKeyRoutes } from "./api/api-keys/routes";
import { registerBillingRoutes, registerGatewayWebhookRoutes } from "./api/billing/routes";
import { registerConnectRoutes } from "./api/connect/routes";
import { registerConnectionRoutes } from "./api/connections/routes";
import { registerCredentialRoutes } from "./api/credentials/routes";
import { registerDataJobRoutes } from "./api/data-jobs/routes";
import { registerDeliveryRouteRoutes } from "./api/delivery-routes/routes";
import { registerDeviceCodeRoutes } from "./api/device-codes/routes";
import { registerDownloadLinkRoutes } from "./api/download-links/routes";
import { registerPartnerProfileRoutes } from "./api/partner-profile/routes";
import { registerPartnerRoutes } from "./api/partners/routes";
import { registerResultsRetentionRoutes } from "./api/results-retention/routes";
import { registerProviderRoutes } from "./api/providers/routes";
import { registerRegistrationSessionRoutes } from "./api/registration-sessions/routes";
import { registerRequestLogRoutes } from "./api/request-logs/routes";
import { registerScheduleRoutes } from "./api/schedules/routes";
import { registerSchemaRoutes } from "./api/schemas/routes";
import { registerWebhookEndpointRoutes } from "./api/webhook-endpoints/routes";
import { registerWorkspaceInvitationRoutes } from "./api/workspace-invitations/routes";
import { registerWorkspaceMemberRoutes } from "./api/workspace-members/routes";
import type { ApiEnv } from "./api/context";
import { ApiError } from "./platform/errors/api-error";
import { errorResponse, onError, onNotFound } from "./web/error-handler";
import { registerRateHeaders } from "./platform/http/rate-headers";
import { serverTiming } from "./platform/http/server-timing";
import { validationHook } from "./platform/http/validation-hook";
import { serverDescription } from "./platform/http/server-description";
import { requireAuth } from "./api/authenticate";
import { rateLimit } from "./api/rate-limit";
import { recordApiRequest } from "./api/request-log";
import { requestId } from "./platform/http/request-id";
import { requireConfiguration } from "./web/require-configuration";
import { REGISTRATION_SESSION_TOKEN } from "./api/connect/token";
import { holderPages } from "./web/holder-page/routes";
import { MANAGE_PAGE_PATH } from "./domain/consent-withdrawal/manage-link";

export const MAX_BODY_BYTES = 256 * 1024;
const PUBLIC_PATHS = new Set(["/api/v1/openapi.json", "/api/v1/docs", ...Object.keys(REFERENCE_SCRIPTS)]);
/** /api/v1 paths served without an API key: the document, and download links, which carry their own signature. */
const isKeyless = (path: string) => PUBLIC_PATHS.has(path) || path.startsWith(DOWNLOAD_LINK_PATH);

export type Api = OpenAPIHono<ApiEnv>;

/**
 * The authenticated /api/v1 routes; later features register theirs on the same app. Each route's file declares who may
 * call it (api/guards.ts); the order here is the order of paths and components in the served document.
 */
function registerRoutes(api: Api): void {
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

export function createApp(): OpenAPIHono<ApiEnv> {
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

  const api: Api = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook });
  registerRoutes(api);
  app.route("/api/v1", api);
  registerConnectRoutes(app);
  registerRunnerRoutes(app);
  app.route("/console", consoleRoutes());
  app.route(ADMIN_API_PATH, adminApi());
  app.route("/admin", adminConsole());
  registerDeviceCodeRoutes(app);
  registerGatewayWebhookRoutes(app);
  app.route(MANAGE_PAGE_PATH.slice(0, -1), holderPages());

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
