import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { ProviderCodeParamSchema, providerOrThrow } from "../../web/provider-code-param";
import { CredentialSchemaSchema, credentialSchemaView } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/providers/{code}/credential-schema",
  operationId: "getProviderCredentialSchema",
  tags: ["Catalog"],
  summary: "자격 증명 입력 필드",
  description: "등록 UI와 직접 등록 API가 검증에 쓰는 필드 정의. 각 필드는 pattern을 가집니다.",
  request: { params: ProviderCodeParamSchema },
  responses: {
    200: { description: "필드 정의", content: { "application/json": { schema: CredentialSchemaSchema } } },
    ...errorResponses("INVALID_PROVIDER_CODE"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = (c) =>
  c.json(credentialSchemaView(providerOrThrow(c.req.valid("param").code)), 200);
