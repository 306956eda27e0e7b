import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { code, MAX } from "../../platform/http/bounds";
import { createMiddleware } from "hono/factory";
import { workspaceBusinessNumber } from "../../domain/workspaces/store";
import { assertBusinessFor, assertMayUseProvider } from "../../domain/workspaces/provider-access";
import { checkAuthMethod, credentialFromFields, credentialScope } from "../../domain/credentials/fields";
import { BUSINESS_NUMBER_INPUT_MAX, parseBusinessNumber } from "../../domain/partners/business-number";
import { hasActiveJob } from "../../domain/jobs/store";
import { checksOnRegistration, registerCredential, sealedCredentialRow, checkCredential } from "../../domain/credentials/replace";
import { credentialView } from "../../domain/credentials/views";
import { type ApiEnv, principalOf } from "../context";
import { CERTIFICATE_ERRORS } from "../../domain/certificates/verify";
import { ApiError } from "../../platform/errors/api-error";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { consentSchemasField, CredentialSchema } from "./shapes";
import { consentedSchemas } from "../../domain/credentials/consent";
import { newConsentRecord } from "../../domain/credentials/consent-record";
import { managingBusiness } from "../guards";

/**
 * End-users' secrets must never pass through a partner's servers (the
 * spec's registration-session flow exists for that): partners register a
 * business's credentials only through registration sessions. Refused
 * before the body is read.
 */
const notForPartners = createMiddleware<ApiEnv>(async (c, next) => {
  if (principalOf(c).isPartner) {
    throw new ApiError("PARTNER_CREDENTIAL_API_UNSUPPORTED", {
      message: "파트너는 최종 사용자의 자격 증명을 직접 등록할 수 없습니다. 등록 세션(POST /api/v1/registration-sessions)을 발급해 브라우저 SDK로 등록해 주세요.",
    });
  }
  await next();
});

export const route = managingBusiness("credentials.manage", createRoute({
  method: "post",
  path: "/credentials",
  operationId: "createCredential",
  tags: ["Credentials"],
  summary: "자격 증명 직접 등록",
  description:
    "워크스페이스가 자기 자격 증명을 직접 등록합니다. 최종 사용자의 자격 증명은 등록 세션(브라우저 SDK)으로 받으세요. 파트너 워크스페이스는 이 경로를 쓸 수 없습니다(410 PARTNER_CREDENTIAL_API_UNSUPPORTED): 사업자의 자격 증명은 등록 세션으로만 등록됩니다. fields는 GET /providers/{code}/credential-schema의 필드와 pattern으로 검증됩니다. 한 기관에 자격 증명을 여럿 둘 수 있고, 같은 아이디나 같은 인증서를 다시 등록하면 새 것이 옛 것을 대체합니다(SUPERSEDED). 인증서를 providerCode 없이 등록하면 인증서를 받는 모든 기관에 쓰는 전체 기관용이 되며, 같은 인증서가 다른 범위로 이미 있으면 409 CREDENTIAL_ALREADY_EXISTS입니다. 인증서(CERTIFICATE)는 파일 내용을 확인해 422 CERT_* 코드로 답합니다 (docs/certificates.md, docs/credentials.md).",
  middleware: [notForPartners] as const,
  request: jsonBody(z.object({
    providerCode: code().min(1).optional().meta({ description: "로그인할 기관. 인증서(CERTIFICATE)만 생략할 수 있고, 생략하면 전체 기관용 인증서입니다", example: "sandbox.bank" }),
    authMethod: code().meta({ description: "PROVIDER_LOGIN 또는 CERTIFICATE", example: "PROVIDER_LOGIN" }),
    fields: z.record(z.string(), z.unknown()).meta({ example: { loginId: "user_good", password: "pass_good" } }),
    label: z.string().trim().min(1).max(MAX.name).optional().meta({ description: "자격 증명을 알아볼 이름 (1-100자). 없으면 가려진 아이디나 인증서 소유자", example: "본점 계좌" }),
    isDefault: z.boolean().optional().meta({ description: "true면 이 기관의 기본 자격 증명이 됩니다(credentialId 없는 작업이 씀). 기관의 첫 자격 증명은 늘 기본입니다" }),
    schemas: consentSchemasField(),
    businessNumber: z.string().max(BUSINESS_NUMBER_INPUT_MAX).optional().meta({
      description: "자격 증명이 속한 사업자 (세무 대리인이 고객사 인증서를 맡을 때). 없으면 워크스페이스의 사업자등록번호. 인증서는 이 번호로 발급된 것이어야 합니다(422 CERT_BIZNO_MISMATCH)",
      example: "120-88-00767",
    }),
  })),
  responses: {
    201: { description: "등록된 자격 증명", content: { "application/json": { schema: CredentialSchema } } },
    ...errorResponses(
      "MISSING_REQUIRED_PARAM", "MISSING_PARAMETER", "INVALID_PARAM_FORMAT", "INVALID_PROVIDER_CODE", "UNSUPPORTED_AUTH_METHOD", "INVALID_BUSINESS_REGISTRATION_NUMBER",
      "PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN", "MISSING_CREDENTIAL_FIELD", "INVALID_CREDENTIAL_FORMAT",
      "PARTNER_CREDENTIAL_API_UNSUPPORTED", "WORKSPACE_ACCESS_DENIED", "CREDENTIAL_ALREADY_EXISTS", "CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS",
      ...CERTIFICATE_ERRORS,
    ),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const scope = credentialScope(body.providerCode, body.authMethod);
  checkAuthMethod(scope, body.authMethod);
  const credential = credentialFromFields(scope, body.authMethod, body.fields);
  const { workspaceId } = principalOf(c);
  await assertMayUseProvider(c.env.DB, workspaceId, scope);
  const businessNumber = body.businessNumber ? parseBusinessNumber(body.businessNumber, "body.businessNumber") : await workspaceBusinessNumber(c.env.DB, workspaceId);
  assertBusinessFor(businessNumber, scope, body.authMethod);
  const certificate = await checkCredential(credential, businessNumber);
  const registration = { providerCode: scope.code, credential, certificate, businessNumber, label: body.label, makeDefault: body.isDefault, check: checksOnRegistration(c.env), schemas: consentedSchemas(scope.code, body.schemas, "body.schemas"), consentRecord: await newConsentRecord(c.env.DB, workspaceId, null, null, Date.now()) };
  const row = await registerCredential(c.env, await sealedCredentialRow(c.env.VAULT_MASTER_KEY, workspaceId, registration), hasActiveJob);
  return c.json(credentialView(row), 201);
};
