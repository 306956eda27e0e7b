import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deleteCredential } from "../../domain/credentials/store";
import { hasActiveJob } from "../../domain/jobs/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { CredentialIdParamSchema } from "./shapes";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "delete",
  path: "/credentials/{id}",
  operationId: "deleteCredential",
  tags: ["Credentials"],
  summary: "자격 증명 삭제",
  description: "진행 중인 작업이 쓰고 있으면 409 CREDENTIAL_HAS_ACTIVE_CONNECTIONS. 삭제 뒤 이 기관의 새 작업은 Failed(CREDENTIAL_NOT_FOUND)로 끝납니다.",
  request: { params: CredentialIdParamSchema },
  responses: {
    204: { description: "삭제되었습니다" },
    ...errorResponses("CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "CREDENTIAL_HAS_ACTIVE_CONNECTIONS"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await deleteCredential(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id, hasActiveJob);
  return c.body(null, 204);
};
