import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { recheckCredential } from "../../domain/credentials/replace";
import { assertLogsInAt } from "../../domain/credentials/choose";
import { providerForCredential } from "../../domain/credentials/fields";
import { GLOBAL_PROVIDER } from "../../domain/credentials/identity";
import { findCredential } from "../../domain/credentials/store";
import { type ApiEnv, principalOf } from "../context";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { code } from "../../platform/http/bounds";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { CredentialIdParamSchema, CredentialSchema } from "./shapes";
import { credentialView } from "../../domain/credentials/views";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "post",
  path: "/credentials/{id}/check",
  operationId: "checkCredential",
  tags: ["Credentials"],
  summary: "자격 증명 다시 확인",
  description:
    "기관에 한 번 로그인해 보고 결과를 자격 증명의 check에 남깁니다 (202, state CHECKING; 끝나면 VALID, INVALID, UNKNOWN). 등록할 때는 저절로 확인합니다. 전체 기관용 인증서는 확인할 기관을 providerCode로 알려 주세요(없으면 400 PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT). 기관이 거절해 비밀 값이 지워진 자격 증명은 확인할 수 없습니다(422 CREDENTIAL_PROBE_FAILED): 다시 등록하세요. 확인할 때마다 기관에 로그인하므로 관리 권한이 있는 키만 부를 수 있고(403 ADMIN_ACTION_FORBIDDEN), 한 자격 증명은 1분에 한 번만 확인합니다(429 API_RATE_LIMITED, Retry-After).",
  request: {
    params: CredentialIdParamSchema,
    ...jsonBody(z.object({ providerCode: code().min(1).optional().meta({ description: "전체 기관용 인증서를 확인할 기관. 다른 자격 증명은 빈 본문 {}", example: "hometax" }) })),
  },
  responses: {
    202: { description: "확인을 시작했습니다", content: { "application/json": { schema: CredentialSchema } } },
    ...errorResponses(
      "INVALID_PARAM_FORMAT", "CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT", "INVALID_PROVIDER_CODE",
      "PROVIDER_CODE_MISMATCH", "CREDENTIAL_INSUFFICIENT_FOR_PROVIDER", "CREDENTIAL_PROBE_FAILED", "ADMIN_ACTION_FORBIDDEN", "API_RATE_LIMITED",
    ),
  },
}));

/** The provider a check logs in at: the credential's own (naming another is a mismatch), or the one a global certificate must name. */
function providerToCheck(providerCode: string, named: string | undefined): string {
  const field = "body.providerCode";
  if (providerCode !== GLOBAL_PROVIDER) {
    if (named !== undefined && named !== providerCode) throw new ApiError("PROVIDER_CODE_MISMATCH", { fieldErrors: [fieldError(field, "PROVIDER_CODE_MISMATCH")] });
    return providerCode;
  }
  if (named === undefined) throw new ApiError("PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT", { fieldErrors: [fieldError(field, "PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT")] });
  const provider = providerForCredential(named, field);
  assertLogsInAt(providerCode, provider, field);
  return provider.code;
}

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const id = c.req.valid("param").id;
  const credential = await findCredential(c.env.DB, workspaceId, id);
  const providerCode = providerToCheck(credential.providerCode, c.req.valid("json").providerCode);
  if (!(await recheckCredential(c.env, credential, providerCode))) {
    throw new ApiError("CREDENTIAL_PROBE_FAILED", {
      message: "이 자격 증명으로는 로그인해 볼 수 없습니다(기관이 거절해 비밀 값이 지워졌거나 확인을 보내지 못했습니다). 다시 등록하거나 잠시 뒤 다시 확인해 주세요.",
    });
  }
  return c.json(credentialView(await findCredential(c.env.DB, workspaceId, id)), 202);
};
