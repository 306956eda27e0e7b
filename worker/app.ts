import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { REFERENCE_PAGE } from "./docs-site/reference-page";
import { REGISTRATION_PAGE, REGISTRATION_PAGE_CSP } from "./hosted-ui/page";
import type { AppEnv } from "./env";
import { ApiError } from "./errors/api-error";
import { errorResponse, onError, onNotFound } from "./http/error-handler";
import { validationHook } from "./http/validation-hook";
import { authenticate, requireAuth } from "./middleware/authenticate";
import { requestId } from "./middleware/request-id";
import { requireConfiguration } from "./middleware/require-configuration";
import * as createApiKey from "./routes/api-keys/create";
import * as listApiKeys from "./routes/api-keys/list";
import * as revokeApiKey from "./routes/api-keys/revoke";
import { selectBusiness } from "./middleware/select-business";
import * as connectKeys from "./routes/connect/keys";
import * as connectSession from "./routes/connect/session";
import * as connectSubmit from "./routes/connect/submit";
import * as createConnection from "./routes/connections/create";
import * as listConnections from "./routes/connections/list";
import * as revokeConnection from "./routes/connections/revoke";
import * as createCredential from "./routes/credentials/create";
import * as deleteCredential from "./routes/credentials/delete";
import * as getCredential from "./routes/credentials/get";
import * as listCredentials from "./routes/credentials/list";
import * as createDataJob from "./routes/data-jobs/create";
import * as getDataJob from "./routes/data-jobs/get";
import * as listDataJobs from "./routes/data-jobs/list";
import * as getResults from "./routes/data-jobs/results";
import * as getResultsCsv from "./routes/data-jobs/results-csv";
import * as getProvider from "./routes/providers/get";
import * as cancelRegistrationSession from "./routes/registration-sessions/cancel";
import * as createRegistrationSession from "./routes/registration-sessions/create";
import * as getRegistrationSession from "./routes/registration-sessions/get";
import * as getCredentialSchema from "./routes/providers/credential-schema";
import * as listProviders from "./routes/providers/list";
import * as getSchema from "./routes/schemas/get";
import * as listSchemas from "./routes/schemas/list";

export const MAX_BODY_BYTES = 256 * 1024;
const PUBLIC_PATHS = new Set(["/api/v1/openapi.json", "/api/v1/docs"]);

export type Api = OpenAPIHono<AppEnv>;

/** The authenticated /api/v1 routes; later features register theirs on the same app. */
function registerRoutes(api: Api): void {
  api.openapi(createDataJob.route, createDataJob.handler);
  api.openapi(listDataJobs.route, listDataJobs.handler);
  api.openapi(getDataJob.route, getDataJob.handler);
  api.openapi(getResults.route, getResults.handler);
  api.openapi(getResultsCsv.route, getResultsCsv.handler);
  api.openapi(listSchemas.route, listSchemas.handler);
  api.openapi(getSchema.route, getSchema.handler);
  api.openapi(listProviders.route, listProviders.handler);
  api.openapi(getProvider.route, getProvider.handler);
  api.openapi(getCredentialSchema.route, getCredentialSchema.handler);
  api.openapi(createApiKey.route, createApiKey.handler);
  api.openapi(listApiKeys.route, listApiKeys.handler);
  api.openapi(revokeApiKey.route, revokeApiKey.handler);
  api.openapi(createCredential.route, createCredential.handler);
  api.openapi(listCredentials.route, listCredentials.handler);
  api.openapi(getCredential.route, getCredential.handler);
  api.openapi(deleteCredential.route, deleteCredential.handler);
  api.openapi(createRegistrationSession.route, createRegistrationSession.handler, createRegistrationSession.hook);
  api.openapi(getRegistrationSession.route, getRegistrationSession.handler);
  api.openapi(cancelRegistrationSession.route, cancelRegistrationSession.handler);
  api.openapi(createConnection.route, createConnection.handler);
  api.openapi(listConnections.route, listConnections.handler);
  api.openapi(revokeConnection.route, revokeConnection.handler);
}

// Routes whose data belongs to one business: a partner picks it with X-SVC-Business.
const BUSINESS_SCOPED = ["/api/v1/data-jobs", "/api/v1/credentials", "/api/v1/registration-sessions"];

/** The hosted registration UI and the token-authenticated calls it makes (no API key: end-users' browsers). */
function registerConnect(app: Api): void {
  app.get("/connect", (c) => c.html(REGISTRATION_PAGE, 200, { "Content-Security-Policy": REGISTRATION_PAGE_CSP }));
  app.openapi(connectKeys.route, connectKeys.handler);
  app.openapi(connectSession.route, connectSession.handler);
  app.openapi(connectSubmit.route, connectSubmit.handler);
}

export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(requestId);
  app.use(requireConfiguration);
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => errorResponse(c, new ApiError("METHOD_NOT_ALLOWED", { headers: { Allow: methods.join(", ") } })) }));
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("MALFORMED_REQUEST", { message: `요청 본문이 최대 ${MAX_BODY_BYTES / 1024}KB를 넘었습니다. 본문을 줄여 다시 보내 주세요.` });
      },
    }),
  );
  app.use("/api/*", authenticate);
  app.use("/api/v1/*", async (c, next) => (PUBLIC_PATHS.has(c.req.path) ? next() : requireAuth(c, next)));
  // `${prefix}/*` matches the prefix itself too.
  for (const prefix of BUSINESS_SCOPED) app.use(`${prefix}/*`, selectBusiness);

  const api: Api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerRoutes(api);
  app.route("/api/v1", api);
  registerConnect(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "워크스페이스 API 키" });
  app.doc31("/api/v1/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "데이터 수집 API",
      version: "v1",
      description:
        "은행, 홈택스, 법인카드 데이터를 비동기로 수집해 표준 레코드(JSON, CSV)로 돌려줍니다. 모든 오류는 {code, message, requestId[, fieldErrors]} 형식입니다.",
    },
    security: [{ bearerAuth: [] }],
  });
  app.get("/api/v1/docs", (c) => c.html(REFERENCE_PAGE));
  app.get("/", (c) => c.redirect("/api/v1/docs"));

  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}
