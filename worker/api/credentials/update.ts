import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { updateCredential } from "../../domain/credentials/store";
import { type ApiEnv, principalOf } from "../context";
import { MAX } from "../../platform/http/bounds";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { CredentialIdParamSchema, CredentialSchema } from "./shapes";
import { credentialView } from "../../domain/credentials/views";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "patch",
  path: "/credentials/{id}",
  operationId: "updateCredential",
  tags: ["Credentials"],
  summary: "자격 증명 이름과 기본 지정 변경",
  description:
    "살아 있는 자격 증명의 이름(label)을 바꾸거나 기관의 기본 자격 증명으로 정합니다(isDefault). 기본이 되면 그 기관의 이전 기본은 기본이 아니게 됩니다. isDefault: false로 기본을 풀면 이 기관에 자격 증명이 여럿일 때 credentialId 없는 작업은 409 CREDENTIAL_PROVIDER_DUPLICATED입니다. 비밀 값은 바꿀 수 없습니다: 같은 아이디나 인증서로 다시 등록하세요.",
  request: {
    params: CredentialIdParamSchema,
    ...jsonBody(
      z.object({
        label: z.string().trim().min(1).max(MAX.name).optional().meta({ description: "새 이름 (1-100자)", example: "본점 계좌" }),
        isDefault: z.boolean().optional().meta({ description: "true면 이 기관의 기본 자격 증명, false면 기본 해제" }),
      }),
    ),
  },
  responses: {
    200: { description: "바뀐 자격 증명", content: { "application/json": { schema: CredentialSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const row = await updateCredential(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id, c.req.valid("json"));
  return c.json(credentialView(row), 200);
};
