import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { code } from "../../http/bounds";
import { createMiddleware } from "hono/factory";
import { checkCredential } from "../../credentials/check";
import { assertBusinessFor, assertMayHoldCredential, workspaceBusinessNumber } from "../../workspaces/store";
import { checkAuthMethod, credentialFromFields, providerForCredential } from "../../credentials/fields";
import { sealedCredentialRow } from "../../credentials/store";
import { registerCredential } from "../../credentials/replace";
import { credentialView } from "./views";
import type { AppEnv } from "../../env";
import { CERTIFICATE_ERRORS } from "../../certificates/errors";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../http/error-responses";
import { jsonBody } from "../../http/json-body";
import { principalOf } from "../principal";
import { CredentialSchema } from "./shapes";

/**
 * End-users' secrets must never pass through a partner's servers (the
 * spec's registration-session flow exists for that): partners register a
 * business's credentials only through registration sessions. Refused
 * before the body is read.
 */
const notForPartners = createMiddleware<AppEnv>(async (c, next) => {
  if (principalOf(c).isPartner) {
    throw new ApiError("PARTNER_CREDENTIAL_API_UNSUPPORTED", {
      message: "파트너는 최종 사용자의 자격 증명을 직접 등록할 수 없습니다. 등록 세션(POST /api/v1/registration-sessions)을 발급해 브라우저 SDK로 등록해 주세요.",
    });
  }
  await next();
});

export const route = createRoute({
  method: "post",
  path: "/credentials",
  operationId: "createCredential",
  tags: ["Credentials"],
  summary: "자격 증명 직접 등록",
  description:
    "워크스페이스가 자기 자격 증명을 직접 등록합니다. 최종 사용자의 자격 증명은 등록 세션(브라우저 SDK)으로 받으세요. 파트너 워크스페이스는 이 경로를 쓸 수 없습니다(410 PARTNER_CREDENTIAL_API_UNSUPPORTED): 사업자의 자격 증명은 등록 세션으로만 등록됩니다. fields는 GET /providers/{code}/credential-schema의 필드와 pattern으로 검증되며, 기관마다 하나만 등록할 수 있습니다. 인증서(CERTIFICATE)는 파일 내용을 확인해 422 CERT_* 코드로 답합니다 (docs/certificates.md).",
  middleware: [notForPartners] as const,
  request: jsonBody(z.object({
    providerCode: code().min(1),
    authMethod: code().meta({ description: "PROVIDER_LOGIN 또는 CERTIFICATE", example: "PROVIDER_LOGIN" }),
    fields: z.record(z.string(), z.unknown()).meta({ example: { loginId: "user_good", password: "pass_good" } }),
  })),
  responses: {
    201: { description: "등록된 자격 증명", content: { "application/json": { schema: CredentialSchema } } },
    ...errorResponses(
      "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "INVALID_PROVIDER_CODE", "UNSUPPORTED_AUTH_METHOD", "INVALID_BUSINESS_REGISTRATION_NUMBER",
      "PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN", "MISSING_CREDENTIAL_FIELD", "INVALID_CREDENTIAL_FORMAT",
      "PARTNER_CREDENTIAL_API_UNSUPPORTED", "WORKSPACE_ACCESS_DENIED",
      ...CERTIFICATE_ERRORS,
    ),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const provider = providerForCredential(body.providerCode);
  checkAuthMethod(provider, body.authMethod);
  const credential = credentialFromFields(provider, body.authMethod, body.fields);
  const { workspaceId } = principalOf(c);
  await assertMayHoldCredential(c.env.DB, workspaceId, provider);
  const businessNumber = await workspaceBusinessNumber(c.env.DB, workspaceId);
  assertBusinessFor(businessNumber, provider, body.authMethod);
  const certificate = await checkCredential(credential, businessNumber);
  const row = await registerCredential(c.env, await sealedCredentialRow(c.env.VAULT_MASTER_KEY, workspaceId, provider.code, credential, certificate));
  return c.json(credentialView(row), 201);
};
